import { z } from "zod";
import { ZSnapshotSummary } from "./list-snapshots.types";

export const ZGetSnapshotInput = z.object({ id: z.string().min(1, "id must not be empty") }).strict();

type Node = z.infer<typeof ZSnapshotSummary> & { children: Node[] };
const ZSnapshotNode: z.ZodType<Node> = ZSnapshotSummary.extend({ children: z.lazy(() => z.array(ZSnapshotNode)) });

export const ZGetSnapshotOutput = z.object({
  snapshot: ZSnapshotSummary,
  /** Parents, nearest first. */
  ancestors: z.array(ZSnapshotSummary),
  descendants: z.array(ZSnapshotNode),
  strata: z.array(z.object({ stratum: z.string(), records: z.number().int(), train: z.number().int(), validation: z.number().int(), test: z.number().int() })),
  split: z.object({ seed: z.string().nullable(), shares: z.object({ train: z.number(), validation: z.number(), test: z.number() }).nullable() }).nullable(),
  redactions: z.record(z.string(), z.number()),
  bytes: z.number().int(),
});
