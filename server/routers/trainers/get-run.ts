import { getRun } from "@/server/training/queries";
import { scopedProcedure } from "@/server/trpc";
import { ZGetRunInput, ZGetRunOutput } from "./get-run.types";

export const getRunRoute = scopedProcedure("dashboard:read")
  .input(ZGetRunInput)
  .output(ZGetRunOutput)
  .query(({ ctx, input }) => getRun(ctx.database, input.runId));
