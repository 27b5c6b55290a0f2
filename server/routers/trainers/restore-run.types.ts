import { z } from "zod";

export const ZRestoreRunInput = z
  .object({
    runId: z.string().min(1, "runId is required").max(100),
    update: z.number().int("update must be a whole number").min(1, "update must be ≥ 1").max(1_000_000),
    /** The new run's update budget (default: the source's); must exceed the checkpoint's update. */
    updates: z.number().int("updates must be a whole number").min(2, "updates must be ≥ 2").max(10_000, "updates must be ≤ 10000").nullable().optional(),
    name: z.string().max(120, "name must be at most 120 characters").nullable().optional(),
  })
  .strict();

export const ZRestoreRunOutput = z.object({ id: z.string(), status: z.string(), restoredFrom: z.object({ runId: z.string(), update: z.number().int() }) });
