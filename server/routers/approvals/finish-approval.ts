import { scopedProcedure } from "@/server/trpc";
import { approvalFinishRefusal } from "@/server/approvals/refusal-contexts";
import { recordScopeRefusal } from "./scope-refusals";
import { finishApproval } from "@/server/approvals/approve";
import { receiptSource } from "@/server/approvals/db-source";
import { ZFinishApprovalInput, ZFinishApprovalResponse } from "./finish-approval.types";

export const finishApprovalRoute = scopedProcedure("approval:canary", { agentInput: "agent", onRefused: recordScopeRefusal(approvalFinishRefusal) })
  .input(ZFinishApprovalInput)
  .output(ZFinishApprovalResponse)
  .mutation(async ({ ctx, input }) => {
    // input.agent (the agent the scope was checked for) must be the signed payload's: the domain checks it.
    const { decisionId, linkDigest, verdict, pointer } = await finishApproval(ctx.database, ctx.actor, input, { source: receiptSource });
    return { decisionId, linkDigest, verdict, pointer };
  });
