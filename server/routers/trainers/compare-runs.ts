import { compareRuns } from "@/server/training/compare";
import { scopedProcedure } from "@/server/trpc";
import { ZCompareRunsInput, ZCompareRunsOutput } from "./compare-runs.types";

export const compareRunsRoute = scopedProcedure("dashboard:read")
  .input(ZCompareRunsInput)
  .output(ZCompareRunsOutput)
  .query(({ ctx, input }) => compareRuns(ctx.database, input.runIds, input.metrics));
