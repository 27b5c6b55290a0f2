import { z } from "zod";
import { ZSnapshotSummary } from "./list-snapshots.types";

export const ZGetSnapshotLineageInput = z.object({ digest: z.string().regex(/^sha256:[0-9a-f]{64}$/, "digest must be sha256:<64 lowercase hex>") }).strict();
/** The snapshot first, then the snapshots it derives from, oldest last. */
export const ZGetSnapshotLineageOutput = z.array(ZSnapshotSummary);
