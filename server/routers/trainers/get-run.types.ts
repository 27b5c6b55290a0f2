import { z } from "zod";
import { ZRunHealth, ZRunId, ZRunSummary } from "./runs.types";

export const ZGetRunInput = ZRunId;

export const ZGetRunOutput = ZRunSummary.extend({
  startedByName: z.string(),
  config: z.record(z.string(), z.unknown()),
  seed: z.string(),
  parent: z.object({ resourcesId: z.string(), version: z.number().int(), digest: z.string() }),
  dataSnapshotId: z.string().nullable(),
  codeRevision: z.string(),
  heldOutCases: z.number().int(),
  parentHeldOutReward: z.number().nullable(),
  checkpointEvery: z.number().int(),
  candidateEvery: z.number().int(),
  lastCheckpoint: z.object({ update: z.number().int(), digest: z.string(), createdAt: z.date() }).nullable(),
  health: ZRunHealth,
  curve: z.array(z.object({ update: z.number().int(), meanReward: z.number().nullable(), heldOutReward: z.number().nullable() })),
  evidence: z.object({ coverage: z.number().nullable(), retries: z.number().int(), retryBudget: z.number().int(), failedRollouts: z.number().int(), episodes: z.number().int() }),
  events: z.array(z.object({ id: z.string(), kind: z.string(), message: z.string(), at: z.date() })),
  candidates: z.array(z.object({ id: z.string(), resourcesId: z.string(), version: z.number().int(), digest: z.string(), createdAt: z.date() })),
});
