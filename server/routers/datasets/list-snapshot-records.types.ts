import { z } from "zod";
import { int32 } from "@/lib/validation/integers";

export const ZListSnapshotRecordsInput = z
  .object({
    id: z.string().min(1, "id must not be empty"),
    kind: z.enum(["demonstration", "interaction", "feedback", "task"]).optional(),
    offset: int32(0).default(0),
    limit: z.number().int().min(1).max(100).default(20),
  })
  .strict();
export const ZDisplayRecord = z.object({
  id: z.string(),
  kind: z.string(),
  domain: z.string().nullable(),
  summary: z.string(),
  /** The record's text with any PII replaced by its type's token. */
  text: z.string(),
  /** PII the stored text still held, redacted here for display (by type). */
  redactedForDisplay: z.record(z.string(), z.number()),
});
export const ZListSnapshotRecordsOutput = z.object({ rows: z.array(ZDisplayRecord), total: z.number().int() });
