import { createTRPCRouter } from "@/server/trpc";
import { createSnapshotRoute } from "./create-snapshot";
import { getSnapshotRoute } from "./get-snapshot";
import { getSnapshotLineageRoute } from "./get-snapshot-lineage";
import { listSnapshotRecordsRoute } from "./list-snapshot-records";
import { listSnapshotsRoute } from "./list-snapshots";

export const datasetsRouter = createTRPCRouter({
  listSnapshots: listSnapshotsRoute,
  getSnapshotLineage: getSnapshotLineageRoute,
  getSnapshot: getSnapshotRoute,
  listSnapshotRecords: listSnapshotRecordsRoute,
  create: createSnapshotRoute,
});
