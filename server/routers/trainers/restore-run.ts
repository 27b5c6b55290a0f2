import { restoreFromCheckpoint } from "@/server/training/restore";
import { scopedProcedure } from "@/server/trpc";
import { ZRestoreRunInput, ZRestoreRunOutput } from "./restore-run.types";

/** A new run from another run's checkpoint: it starts training, so it takes the scope that starts runs. */
export const restoreRunRoute = scopedProcedure("training:run")
  .input(ZRestoreRunInput)
  .output(ZRestoreRunOutput)
  .mutation(async ({ ctx, input }) => {
    const run = await restoreFromCheckpoint(ctx.database, input, ctx.actor);
    return { id: run.id, status: run.status, restoredFrom: { runId: input.runId, update: input.update } };
  });
