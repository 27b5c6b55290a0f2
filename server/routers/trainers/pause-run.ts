import { changeRunStatus } from "@/server/training/runs";
import { scopedProcedure } from "@/server/trpc";
import { ZRunId, ZRunStatusChange } from "./runs.types";

export const pauseRunRoute = scopedProcedure("training:run")
  .input(ZRunId)
  .output(ZRunStatusChange)
  .mutation(async ({ ctx, input }) => {
    const run = await changeRunStatus(ctx.database, input.runId, "pause", ctx.actor);
    return { id: run.id, status: run.status as "queued", statusReason: run.statusReason };
  });
