import { scopedProcedure } from "@/server/trpc";
import { finishRollback } from "@/server/approvals/rollback";
import { receiptSource } from "@/server/approvals/db-source";
import { badInput } from "@/server/errors";
import { ZFinishRollbackInput, ZFinishRollbackResponse } from "./finish-rollback.types";

export const finishRollbackRoute = scopedProcedure("rollback:execute", { agentInput: "agent" })
  .input(ZFinishRollbackInput)
  .output(ZFinishRollbackResponse)
  .mutation(async ({ ctx, input }) => {
    if ((input.payload.data as { agent?: unknown } | null)?.agent !== input.agent) throw badInput("agent", "must be the agent named in the signed payload");
    const { decisionId, pointer, from, to } = await finishRollback(ctx.database, ctx.actor, input, { source: receiptSource });
    return { decisionId, pointer, from, to };
  });
