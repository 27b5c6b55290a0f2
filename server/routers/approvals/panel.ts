import { scopedProcedure } from "@/server/trpc";
import { approvalPanel } from "@/server/approvals/panel";
import { receiptSource } from "@/server/approvals/db-source";
import { ZPanelInput, ZPanelResponse } from "./panel.types";

export const panelRoute = scopedProcedure("dashboard:read")
  .input(ZPanelInput)
  .output(ZPanelResponse)
  .query(({ ctx, input }) => approvalPanel(ctx.db, receiptSource, ctx.actor, input.candidateId));
