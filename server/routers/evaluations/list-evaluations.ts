import { listJobs } from "@/server/evaluations/jobs";
import { scopedProcedure } from "@/server/trpc";
import { ZListEvaluationsInput, ZListEvaluationsOutput } from "./list-evaluations.types";

export const listEvaluationsRoute = scopedProcedure("dashboard:read")
  .input(ZListEvaluationsInput)
  .output(ZListEvaluationsOutput)
  .query(({ ctx, input }) => listJobs(ctx.database, input));
