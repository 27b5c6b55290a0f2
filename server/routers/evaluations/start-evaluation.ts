import { startEvaluation } from "@/server/evaluations/jobs";
import { scopedProcedure } from "@/server/trpc";
import { ZStartEvaluationInput, ZStartJobOutput } from "./start-evaluation.types";

export const startEvaluationRoute = scopedProcedure("training:run")
  .input(ZStartEvaluationInput)
  .output(ZStartJobOutput)
  .mutation(({ ctx, input }) => startEvaluation(ctx.database, ctx.actor, input));
