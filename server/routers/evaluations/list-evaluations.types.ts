import { z } from "zod";

export const ZJobKind = z.enum(["evaluation", "ab-test"]);
export const ZJobSummary = z.object({
  id: z.string(),
  kind: ZJobKind,
  name: z.string(),
  status: z.enum(["queued", "running", "succeeded", "failed", "interrupted"]),
  progress: z.number(),
  progressNote: z.string(),
  error: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.date(),
  startedAt: z.date().nullable(),
  finishedAt: z.date().nullable(),
  /** One line: the A/B verdict, or the evaluation's success rate. */
  headline: z.string().nullable(),
});
export const ZListEvaluationsInput = z
  .object({ kind: ZJobKind.optional(), offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(100).default(25) })
  .strict()
  .default({ offset: 0, limit: 25 });
export const ZListEvaluationsOutput = z.object({ rows: z.array(ZJobSummary), total: z.number().int() });
