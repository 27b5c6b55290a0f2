import { scopedProcedure } from "@/server/trpc";
import { rejectionFinishRefusal } from "@/server/approvals/refusal-contexts";
import { recordScopeRefusal } from "./scope-refusals";
import { finishRejection } from "@/server/approvals/reject";
import { receiptSource } from "@/server/approvals/db-source";
import { ZFinishRejectionInput, ZFinishRejectionResponse } from "./finish-rejection.types";

export const finishRejectionRoute = scopedProcedure("approval:reject", { agentInput: "agent", onRefused: recordScopeRefusal(rejectionFinishRefusal) })
  .input(ZFinishRejectionInput)
  .output(ZFinishRejectionResponse)
  .mutation(async ({ ctx, input }) => {
    // input.agent (the agent the scope was checked for) must be the signed payload's: the domain checks it.
    const { decisionId, linkDigest, step } = await finishRejection(ctx.database, ctx.actor, input, { source: receiptSource });
    return { decisionId, linkDigest, step };
  });
