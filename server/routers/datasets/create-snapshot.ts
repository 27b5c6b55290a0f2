// A training-data snapshot made from the dashboard (records, or another snapshot, through pipeline steps).
import { deriveSnapshot } from "@/server/datasets/derive";
import { scopedProcedure } from "@/server/trpc";
import { ZCreateSnapshotInput, ZCreateSnapshotOutput } from "./create-snapshot.types";

// Training data is the trainers' to make (training:run), as training runs are.
export const createSnapshotRoute = scopedProcedure("training:run")
  .input(ZCreateSnapshotInput)
  .output(ZCreateSnapshotOutput)
  .mutation(({ ctx, input }) => deriveSnapshot(ctx.database, { ...input, createdBy: ctx.actor.name }));
