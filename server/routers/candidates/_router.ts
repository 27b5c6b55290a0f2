import { createTRPCRouter } from "@/server/trpc";
import { getCandidateRoute } from "./get-candidate";
import { listCandidatesRoute } from "./list-candidates";

export const candidatesRouter = createTRPCRouter({ list: listCandidatesRoute, get: getCandidateRoute });
