import { listSnapshots } from "@/server/datasets/snapshot";
import { scopedProcedure } from "@/server/trpc";
import { ZListSnapshotsInput, ZListSnapshotsOutput } from "./list-snapshots.types";

export const listSnapshotsRoute = scopedProcedure("dashboard:read")
  .input(ZListSnapshotsInput)
  .output(ZListSnapshotsOutput)
  .query(({ ctx, input }) => listSnapshots(ctx.database, input.name));
