import { z } from "zod";

export const ZListSweepsInput = z.object({ limit: z.number().int().min(1).max(100).default(25), offset: z.number().int().min(0).max(1_000_000).default(0) }).strict().default({ limit: 25, offset: 0 });

export const ZListSweepsOutput = z.object({
  rows: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      family: z.string(),
      mode: z.string(),
      configs: z.number().int(),
      seedsPerConfig: z.number().int(),
      runs: z.number().int(),
      finished: z.number().int(),
      failed: z.number().int(),
      createdBy: z.string(),
      createdAt: z.date(),
    }),
  ),
  total: z.number().int(),
});
