import { z } from "zod";

export const ZGetSweepInput = z.object({ id: z.string().min(1, "id is required").max(100, "id must be at most 100 characters") }).strict();

const interval = z.tuple([z.number(), z.number()]);

export const ZGetSweepOutput = z.object({
  id: z.string(),
  name: z.string(),
  family: z.string(),
  mode: z.string(),
  request: z.record(z.string(), z.unknown()),
  createdBy: z.string(),
  createdAt: z.date(),
  parentValidation: z.number().nullable(),
  configs: z.array(
    z.object({
      index: z.number().int(),
      label: z.string(),
      config: z.record(z.string(), z.unknown()),
      rank: z.number().int().nullable(),
      mean: z.number().nullable(),
      ci: interval.nullable(),
      n: z.number().int(),
      runs: z.array(z.object({ runId: z.string(), seedIndex: z.number().int(), status: z.string(), updatesDone: z.number().int(), updatesTotal: z.number().int(), final: z.number().nullable() })),
    }),
  ),
});
