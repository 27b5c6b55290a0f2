import { snapshotDetail } from "@/server/datasets/detail";
import { scopedProcedure } from "@/server/trpc";
import { ZGetSnapshotInput, ZGetSnapshotOutput } from "./get-snapshot.types";

export const getSnapshotRoute = scopedProcedure("dashboard:read")
  .input(ZGetSnapshotInput)
  .output(ZGetSnapshotOutput)
  .query(({ ctx, input }) => snapshotDetail(ctx.database, input.id));
