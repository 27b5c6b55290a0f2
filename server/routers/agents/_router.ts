import { createTRPCRouter } from "@/server/trpc";
import { compareVersionsRoute } from "./compare-versions";
import { getAutoJudgeRoute } from "./get-auto-judge";
import { listVersionsRoute } from "./list-versions";
import { setAutoJudgeRoute } from "./set-auto-judge";

export const agentsRouter = createTRPCRouter({ versions: listVersionsRoute, compare: compareVersionsRoute, autoJudge: getAutoJudgeRoute, setAutoJudge: setAutoJudgeRoute });
