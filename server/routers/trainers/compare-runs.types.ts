import { z } from "zod";

/** 1–12 runs, each named once. */
export const ZCompareRunsInput = z
  .object({
    runIds: z
      .array(z.string().min(1, "runIds: an id must not be empty").max(100, "runIds: an id must be at most 100 characters"))
      .min(1, "runIds: name at least one run")
      .max(12, "runIds: at most 12 runs")
      .refine((ids) => new Set(ids).size === ids.length, "runIds: each run at most once"),
  })
  .strict();

export const ZCompareRunsOutput = z.array(
  z.object({
    id: z.string(),
    name: z.string().nullable(),
    family: z.string(),
    seed: z.string(),
    status: z.string(),
    config: z.record(z.string(), z.unknown()),
    sweep: z.object({ id: z.string(), label: z.string() }).nullable(),
    parentValidation: z.number().nullable(),
    curve: z.array(z.object({ update: z.number().int(), meanReward: z.number().nullable(), validation: z.number().nullable() })),
  }),
);
