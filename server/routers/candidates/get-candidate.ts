import { getCandidate } from "@/server/receipts/candidates-view";
import { scopedProcedure } from "@/server/trpc";
import { ZGetCandidateInput, ZGetCandidateOutput } from "./get-candidate.types";

export const getCandidateRoute = scopedProcedure("dashboard:read")
  .input(ZGetCandidateInput)
  .output(ZGetCandidateOutput)
  .query(({ ctx, input }) => getCandidate(ctx.database, input.id));
