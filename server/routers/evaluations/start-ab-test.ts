import { startAbTest } from "@/server/evaluations/jobs";
import { scopedProcedure } from "@/server/trpc";
import { ZStartAbTestInput, ZStartJobOutput } from "./start-ab-test.types";

export const startAbTestRoute = scopedProcedure("training:run")
  .input(ZStartAbTestInput)
  .output(ZStartJobOutput)
  .mutation(({ ctx, input }) => startAbTest(ctx.database, ctx.actor, input));
