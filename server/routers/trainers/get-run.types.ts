import { z } from "zod";
import { ZRunHealth, ZRunId, ZRunSummary } from "./runs.types";

export const ZGetRunInput = ZRunId;

export const ZGetRunOutput = ZRunSummary.extend({
  startedByName: z.string(),
  config: z.record(z.string(), z.unknown()),
  paceSeconds: z.number().int(),
  restoredFrom: z.object({ runId: z.string(), update: z.number().int() }).nullable(),
  seed: z.string(),
  parent: z.object({ resourcesId: z.string(), version: z.number().int(), digest: z.string() }),
  dataSnapshotId: z.string().nullable(),
  codeRevision: z.string(),
  heldOutCases: z.number().int(),
  parentHeldOutReward: z.number().nullable(),
  checkpointEvery: z.number().int(),
  candidateEvery: z.number().int(),
  lastCheckpoint: z.object({ update: z.number().int(), digest: z.string(), createdAt: z.date() }).nullable(),
  checkpoints: z.array(z.object({ update: z.number().int(), digest: z.string(), createdAt: z.date() })),
  health: ZRunHealth,
  /** When a paused run was paused (its newest pause event); null otherwise. */
  pausedAt: z.date().nullable(),
  stopConditions: z.array(z.object({ id: z.string(), label: z.string(), threshold: z.string(), current: z.string(), state: z.enum(["ok", "tripped", "ended", "waiting"]) })),
  diagnostics: z.array(z.object({ update: z.number().int(), approxKl: z.number().nullable(), entropy: z.number().nullable(), clipFraction: z.number().nullable(), valueLoss: z.number().nullable(), explainedVariance: z.number().nullable() })),
  curve: z.array(z.object({ update: z.number().int(), meanReward: z.number().nullable(), heldOutReward: z.number().nullable() })),
  evidence: z.object({ coverage: z.number().nullable(), retries: z.number().int(), retryBudget: z.number().int(), failedRollouts: z.number().int(), episodes: z.number().int() }),
  events: z.array(z.object({ id: z.string(), kind: z.string(), message: z.string(), at: z.date() })),
  candidates: z.array(z.object({ id: z.string(), resourcesId: z.string(), version: z.number().int(), digest: z.string(), createdAt: z.date() })),
});
