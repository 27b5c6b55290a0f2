import { getJob } from "@/server/evaluations/jobs";
import { scopedProcedure } from "@/server/trpc";
import { ZGetEvaluationInput, ZGetEvaluationOutput } from "./get-evaluation.types";

export const getEvaluationRoute = scopedProcedure("dashboard:read")
  .input(ZGetEvaluationInput)
  .output(ZGetEvaluationOutput)
  .query(({ ctx, input }) => getJob(ctx.database, input.id));
