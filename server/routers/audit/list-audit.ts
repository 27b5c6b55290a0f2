import { scopedProcedure } from "@/server/trpc";
import { listAudit } from "@/server/audit/audit-log";
import { ZListAuditInput, ZListAuditResponse } from "./list-audit.types";

export const listAuditRoute = scopedProcedure("audit:read")
  .input(ZListAuditInput)
  .output(ZListAuditResponse)
  .query(({ ctx, input }) => listAudit(ctx.db, input));
