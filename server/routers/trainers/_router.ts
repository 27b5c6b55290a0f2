import { createTRPCRouter } from "@/server/trpc";
import { compareRunsRoute } from "./compare-runs";
import { getRunRoute } from "./get-run";
import { labelRunRoute } from "./label-run";
import { listRunsRoute } from "./list-runs";
import { pauseRunRoute } from "./pause-run";
import { restoreRunRoute } from "./restore-run";
import { resumeRunRoute } from "./resume-run";
import { startRunRoute } from "./start-run";
import { stopRunRoute } from "./stop-run";

export const trainersRouter = createTRPCRouter({ startRun: startRunRoute, pauseRun: pauseRunRoute, resumeRun: resumeRunRoute, stopRun: stopRunRoute, listRuns: listRunsRoute, getRun: getRunRoute, compareRuns: compareRunsRoute, restoreRun: restoreRunRoute, labelRun: labelRunRoute });
