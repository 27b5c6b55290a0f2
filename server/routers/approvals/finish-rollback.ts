import { scopedProcedure } from "@/server/trpc";
import { rollbackFinishRefusal } from "@/server/approvals/refusal-contexts";
import { recordScopeRefusal } from "./scope-refusals";
import { finishRollback } from "@/server/approvals/rollback";
import { receiptSource } from "@/server/approvals/db-source";
import { ZFinishRollbackInput, ZFinishRollbackResponse } from "./finish-rollback.types";

export const finishRollbackRoute = scopedProcedure("rollback:execute", { agentInput: "agent", onRefused: recordScopeRefusal(rollbackFinishRefusal) })
  .input(ZFinishRollbackInput)
  .output(ZFinishRollbackResponse)
  .mutation(async ({ ctx, input }) => {
    // input.agent (the agent the scope was checked for) must be the signed payload's: the domain checks it.
    const { decisionId, pointer, from, to } = await finishRollback(ctx.database, ctx.actor, input, { source: receiptSource });
    return { decisionId, pointer, from, to };
  });
