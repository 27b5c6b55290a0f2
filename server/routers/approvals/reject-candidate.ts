import { scopedProcedure } from "@/server/trpc";
import { rejectionRefusal } from "@/server/approvals/refusal-contexts";
import { recordScopeRefusal } from "./scope-refusals";
import { rejectCandidate } from "@/server/approvals/reject";
import { receiptSource } from "@/server/approvals/db-source";
import { ZRejectCandidateInput, ZRejectCandidateResponse } from "./reject-candidate.types";

export const rejectCandidateRoute = scopedProcedure("approval:reject", { agentInput: "agent", onRefused: recordScopeRefusal(rejectionRefusal) })
  .input(ZRejectCandidateInput)
  .output(ZRejectCandidateResponse)
  .mutation(({ ctx, input }) => rejectCandidate(ctx.database, ctx.actor, input, { source: receiptSource }));
