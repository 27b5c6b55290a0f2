import { createTRPCRouter } from "@/server/trpc";
import { canaryStageRoute } from "./canary-stage";
import { caseTracesRoute } from "./case-traces";
import { getCandidateRoute } from "./get-candidate";
import { listCandidatesRoute } from "./list-candidates";
import { requestGateRunRoute } from "./request-gate-run";

export const candidatesRouter = createTRPCRouter({ list: listCandidatesRoute, get: getCandidateRoute, requestGateRun: requestGateRunRoute, canaryStage: canaryStageRoute, caseTraces: caseTracesRoute });
