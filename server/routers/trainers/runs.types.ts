// Shapes shared by the trainers router's procedures.
import { z } from "zod";
import { RUN_STATUSES } from "@/server/training/runs";

export const ZRunId = z.object({ runId: z.string().min(1, "runId is required").max(100) }).strict();

export const ZRunHealth = z.object({ active: z.boolean(), usefulProgress: z.boolean().nullable(), progressNote: z.string(), etaSeconds: z.number().nullable(), secondsPerUpdate: z.number().nullable() });

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
});

/** What a status change returns: the run's new status. */
export const ZRunStatusChange = z.object({ id: z.string(), status: z.enum(RUN_STATUSES), statusReason: z.string().nullable() });
