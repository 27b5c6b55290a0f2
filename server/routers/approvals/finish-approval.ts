import { scopedProcedure } from "@/server/trpc";
import { finishApproval } from "@/server/approvals/approve";
import { receiptSource } from "@/server/approvals/db-source";
import { badInput } from "@/server/errors";
import { ZFinishApprovalInput, ZFinishApprovalResponse } from "./finish-approval.types";

export const finishApprovalRoute = scopedProcedure("approval:canary", { agentInput: "agent" })
  .input(ZFinishApprovalInput)
  .output(ZFinishApprovalResponse)
  .mutation(async ({ ctx, input }) => {
    // The agent the scope was checked for must be the one the signed payload is about.
    if ((input.payload.data as { agent?: unknown } | null)?.agent !== input.agent) throw badInput("agent", "must be the agent named in the signed payload");
    const { decisionId, linkDigest, verdict, pointer } = await finishApproval(ctx.database, ctx.actor, input, { source: receiptSource });
    return { decisionId, linkDigest, verdict, pointer };
  });
