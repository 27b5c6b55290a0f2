import { createTRPCRouter } from "@/server/trpc";
import { getEvaluationRoute } from "./get-evaluation";
import { listEvaluationsRoute } from "./list-evaluations";
import { startAbTestRoute } from "./start-ab-test";
import { startEvaluationRoute } from "./start-evaluation";

export const evaluationsRouter = createTRPCRouter({ start: startEvaluationRoute, startAbTest: startAbTestRoute, list: listEvaluationsRoute, get: getEvaluationRoute });
