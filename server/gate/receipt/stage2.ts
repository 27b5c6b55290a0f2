// Stage 2 — during training: every rollout of the admitted windows with its attempts and the span families
// observed. These are the store's per-rollout rollups (maintained at ingest), not raw spans.
import { z } from "zod";
import { ATTEMPT_REASONS, ATTEMPT_STATUSES, ROLLOUT_STATUSES } from "@/server/store/types";
import { ZVersionSet } from "../versions";
import { ZResourceRef } from "./refs";

// The store records why each attempt started; the gate counts retry debt in that same vocabulary.
export { ATTEMPT_REASONS };
export const ZAttemptReason = z.enum(ATTEMPT_REASONS);
export type AttemptReason = z.infer<typeof ZAttemptReason>;

// Agent Lightning 0.3 statuses (agentlightning/types/core.py).
export const ZAttemptStatus = z.enum(ATTEMPT_STATUSES);
export const ZRolloutStatus = z.enum(ROLLOUT_STATUSES);
export type RolloutStatus = z.infer<typeof ZRolloutStatus>;

/** Span family → number of spans of that family the attempt produced. An absent family was not observed. */
export const ZFamilyCounts = z.record(z.string().min(1), z.number().int().min(1));
export type FamilyCounts = z.infer<typeof ZFamilyCounts>;

export const ZAttemptRollup = z.object({
  attemptId: z.string().min(1),
  sequenceId: z.number().int().min(1),
  status: ZAttemptStatus,
  workerId: z.string().nullable(),
  /** Epoch seconds, as the store keeps them. */
  startTime: z.number(),
  endTime: z.number().nullable(),
  /** Why this attempt exists; null when the store recorded none (then it is unknown, never assumed). */
  reason: ZAttemptReason.nullable(),
  families: ZFamilyCounts,
});
export type AttemptRollup = z.infer<typeof ZAttemptRollup>;

export const ZRolloutRollup = z.object({
  rolloutId: z.string().min(1),
  mode: z.enum(["train", "val", "test"]).nullable(),
  status: ZRolloutStatus,
  attempts: z.array(ZAttemptRollup),
  /** Final (last) reward of the latest attempt, or null when none was recorded. */
  reward: z.number().nullable(),
  endTime: z.number().nullable(),
  /**
   * The store state this rollup was computed from (span sequence | attempts | status | end time), so a later
   * attempt, span or status change on an admitted rollout shows as late evidence. Absent in older receipts.
   */
  source: z.string().min(1).optional(),
});
export type RolloutRollup = z.infer<typeof ZRolloutRollup>;

const ZWindow = z.object({ from: z.iso.datetime(), to: z.iso.datetime() });

export const ZStage2 = z.object({
  /** The resource update training produced, when stage 1 could not name its digest yet. */
  candidate: ZResourceRef.optional(),
  windows: z.object({ training: ZWindow, validation: ZWindow }),
  dataCutoff: z.iso.datetime(),
  rollouts: z.array(ZRolloutRollup),
  versions: ZVersionSet,
});
export type Stage2 = z.infer<typeof ZStage2>;
