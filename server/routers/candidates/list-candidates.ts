import { listCandidatePage } from "@/server/receipts/candidates-view";
import { scopedProcedure } from "@/server/trpc";
import { ZListCandidatesInput, ZListCandidatesOutput } from "./list-candidates.types";

export const listCandidatesRoute = scopedProcedure("dashboard:read")
  .input(ZListCandidatesInput)
  .output(ZListCandidatesOutput)
  .query(({ ctx, input }) => listCandidatePage(ctx.database, input));
