import { z } from "zod";
import { DEFAULT_METRICS, METRIC_KEY } from "@/lib/training/metrics";

/** 1–12 runs, each named once, and up to 8 metrics to overlay (default: validation reward). */
export const ZCompareRunsInput = z
  .object({
    runIds: z
      .array(z.string().min(1, "runIds: an id must not be empty").max(100, "runIds: an id must be at most 100 characters"))
      .min(1, "runIds: name at least one run")
      .max(12, "runIds: at most 12 runs")
      .refine((ids) => new Set(ids).size === ids.length, "runIds: each run at most once"),
    metrics: z
      .array(z.string().regex(METRIC_KEY, "metrics: a metric is a letter then up to 63 letters, digits or _"))
      .min(1, "metrics: name at least one metric")
      .max(8, "metrics: at most 8 metrics")
      .refine((keys) => new Set(keys).size === keys.length, "metrics: each metric at most once")
      .default([...DEFAULT_METRICS]),
  })
  .strict();

const ZPoint = z.object({ update: z.number().int(), value: z.number() });

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
    /** Every metric the run recorded, columns first, then its family's figures. */
    available: z.array(z.string()),
    /** The asked metrics in the order asked; a metric the run lacks has no points. */
    series: z.array(z.object({ metric: z.string(), points: z.array(ZPoint) })),
  }),
);
