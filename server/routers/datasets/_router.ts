import { createTRPCRouter } from "@/server/trpc";
import { getSnapshotLineageRoute } from "./get-snapshot-lineage";
import { listSnapshotsRoute } from "./list-snapshots";

export const datasetsRouter = createTRPCRouter({ listSnapshots: listSnapshotsRoute, getSnapshotLineage: getSnapshotLineageRoute });
