import { z } from "zod";

export const ZListSnapshotsInput = z.object({ name: z.string().min(1).optional() }).strict().default({});
export const ZSnapshotSummary = z.object({
  id: z.string(),
  name: z.string(),
  version: z.number().int(),
  digest: z.string(),
  recordCount: z.number().int(),
  kinds: z.array(z.string()),
  lineage: z.object({
    rollouts: z.array(z.string()),
    feedback: z.array(z.string()),
    parentSnapshot: z.string().nullable(),
    pipeline: z.array(z.object({ step: z.string(), params: z.record(z.string(), z.unknown()), in: z.number(), out: z.number(), details: z.record(z.string(), z.number()) })),
    sources: z.array(z.string()),
  }),
  createdBy: z.string(),
  createdAt: z.date(),
});
export const ZListSnapshotsOutput = z.array(ZSnapshotSummary);
