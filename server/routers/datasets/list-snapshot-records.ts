import { snapshotRecords } from "@/server/datasets/detail";
import { scopedProcedure } from "@/server/trpc";
import { ZListSnapshotRecordsInput, ZListSnapshotRecordsOutput } from "./list-snapshot-records.types";

export const listSnapshotRecordsRoute = scopedProcedure("dashboard:read")
  .input(ZListSnapshotRecordsInput)
  .output(ZListSnapshotRecordsOutput)
  .query(({ ctx, input }) => snapshotRecords(ctx.database, input));
