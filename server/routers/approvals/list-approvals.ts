import { scopedProcedure } from "@/server/trpc";
import { listApprovals } from "@/server/approvals/inbox";
import { receiptSource } from "@/server/approvals/db-source";
import { ZListApprovalsInput, ZListApprovalsResponse } from "./list-approvals.types";

export const listApprovalsRoute = scopedProcedure("dashboard:read")
  .input(ZListApprovalsInput)
  .output(ZListApprovalsResponse)
  .query(({ ctx, input }) => listApprovals(ctx.db, receiptSource, ctx.actor, input));
