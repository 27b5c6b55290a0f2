import { z } from "zod";
import { DEFAULT_RUN_SORT, RUN_SORTS, SORT_DIRECTIONS } from "@/lib/training/run-sorts";
import { RUN_STATUSES } from "@/server/training/lifecycle";
import { ZRunHealth, ZRunSummary } from "./runs.types";

export const ZListRunsInput = z
  .object({
    status: z.array(z.enum(RUN_STATUSES)).optional(),
    tag: z.string().trim().max(40).optional(),
    search: z.string().trim().max(120).optional(),
    /** Sorted in the database; runs without the value (no validation yet, not started) come last either way. */
    sort: z.enum(RUN_SORTS).default(DEFAULT_RUN_SORT.sort),
    dir: z.enum(SORT_DIRECTIONS).default(DEFAULT_RUN_SORT.dir),
    limit: z.number().int().min(1).max(200).default(50),
    offset: z.number().int().min(0).default(0),
  })
  .strict()
  .default({ ...DEFAULT_RUN_SORT, limit: 50, offset: 0 });

export const ZListRunsOutput = z.object({ items: z.array(ZRunSummary.extend({ candidates: z.number().int(), health: ZRunHealth })), total: z.number().int() });
