import { scopedProcedure } from "@/server/trpc";
import { rollbackBeginRefusal } from "@/server/approvals/refusal-contexts";
import { recordScopeRefusal } from "./scope-refusals";
import { beginRollback } from "@/server/approvals/rollback";
import { receiptSource } from "@/server/approvals/db-source";
import { ZBeginRollbackInput, ZBeginRollbackResponse } from "./begin-rollback.types";

export const beginRollbackRoute = scopedProcedure("rollback:execute", { agentInput: "agent", onRefused: recordScopeRefusal(rollbackBeginRefusal) })
  .input(ZBeginRollbackInput)
  .output(ZBeginRollbackResponse)
  .mutation(({ ctx, input }) => beginRollback(ctx.database, ctx.actor, input, { source: receiptSource }));
