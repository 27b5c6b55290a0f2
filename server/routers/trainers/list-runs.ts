import { listRuns } from "@/server/training/queries";
import { scopedProcedure } from "@/server/trpc";
import { ZListRunsInput, ZListRunsOutput } from "./list-runs.types";

export const listRunsRoute = scopedProcedure("dashboard:read")
  .input(ZListRunsInput)
  .output(ZListRunsOutput)
  .query(({ ctx, input }) => listRuns(ctx.database, input));
