import { scopedProcedure } from "@/server/trpc";
import { approvalBeginRefusal } from "@/server/approvals/refusal-contexts";
import { recordScopeRefusal } from "./scope-refusals";
import { beginApproval } from "@/server/approvals/approve";
import { receiptSource } from "@/server/approvals/db-source";
import { ZBeginApprovalInput, ZBeginApprovalResponse } from "./begin-approval.types";

// approval:canary is the least either step needs; the domain checks the step's own scope for the agent.
export const beginApprovalRoute = scopedProcedure("approval:canary", { agentInput: "agent", onRefused: recordScopeRefusal(approvalBeginRefusal) })
  .input(ZBeginApprovalInput)
  .output(ZBeginApprovalResponse)
  .mutation(({ ctx, input }) => beginApproval(ctx.database, ctx.actor, input, { source: receiptSource }));
