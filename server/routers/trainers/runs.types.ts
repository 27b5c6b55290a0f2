// Shapes shared by the trainers router's procedures.
import { z } from "zod";
import { RUN_STATUSES } from "@/server/training/lifecycle";

export const ZRunId = z.object({ runId: z.string().min(1, "runId is required").max(100) }).strict();

/** eta: seconds to the last update with the range the recent pace allows (server/training/eta.ts); null before 2 updates. */
export const ZRunHealth = z.object({ active: z.boolean(), usefulProgress: z.boolean().nullable(), progressNote: z.string(), eta: z.object({ seconds: z.number(), low: z.number(), high: z.number() }).nullable(), secondsPerUpdate: z.number().nullable() });

export const ZRunSummary = z.object({
  id: z.string(),
  name: z.string().nullable(),
  tags: z.array(z.string()),
  agent: z.string(),
  family: z.string(),
  environment: z.string(),
  distribution: z.string(),
  continual: z.boolean(),
  status: z.enum(RUN_STATUSES),
  statusReason: z.string().nullable(),
  updatesDone: z.number().int(),
  updatesTotal: z.number().int(),
  episodesDone: z.number().int(),
  startedById: z.string(),
  createdAt: z.date(),
  startedAt: z.date().nullable(),
  finishedAt: z.date().nullable(),
  /** The run's summary (server/training/summary.ts): validation reward latest and best, null before any. */
  latestValidation: z.number().nullable(),
  bestValidation: z.number().nullable(),
  /** The exact parent's validation reward, the level the run has to beat. */
  parentValidation: z.number().nullable(),
  retryDebt: z.number().int(),
  retryBudget: z.number().int(),
  runtimeSeconds: z.number().int().nullable(),
});

/** What a status change returns: the run's new status. */
export const ZRunStatusChange = z.object({ id: z.string(), status: z.enum(RUN_STATUSES), statusReason: z.string().nullable() });
