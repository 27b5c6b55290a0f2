// Stage 3 — after training: admission evidence. Locked gate for candidate and exact parent, canary outcomes
// with how each was verified, the rollback test, and whether every pin resolved when the gate ran.
import { z } from "zod";
import { ZDigest } from "../digest";
import { ZVersionSet } from "../versions";
import { ZEvaluatorRef, ZResourceRef, ZSnapshotRef } from "./refs";

export const ZCaseResult = z.object({
  caseId: z.string().min(1),
  family: z.string().min(1),
  score: z.number(),
  passed: z.boolean(),
  /** The rollout a runner ran this case in, when the gate asked runners for it. */
  rolloutId: z.string().min(1).optional(),
});
export type CaseResult = z.infer<typeof ZCaseResult>;

/** A case the gate asked for that came back without a result (no answer by the deadline, another evaluator, …). */
export const ZUnavailableCase = z.object({ caseId: z.string().min(1), family: z.string().min(1), reason: z.string().min(1), rolloutId: z.string().min(1).optional() });
export type UnavailableCase = z.infer<typeof ZUnavailableCase>;

const ZGateSide = z.object({ resource: ZResourceRef, cases: z.array(ZCaseResult), unavailable: z.array(ZUnavailableCase).optional() });

export const ZLockedGate = z.object({
  evaluator: ZEvaluatorRef,
  dataset: ZSnapshotRef,
  candidate: ZGateSide,
  parent: ZGateSide,
  ranAt: z.iso.datetime(),
});
export type LockedGate = z.infer<typeof ZLockedGate>;

const ZConfidence = z.number().min(0).max(1);

/** How a canary task's outcome was established: re-reading the destination, or weaker evidence. */
export const ZVerification = z.discriminatedUnion("method", [
  z.object({
    method: z.literal("destination"),
    destination: z.object({ kind: z.string().min(1), ref: z.string().min(1) }),
    expected: z.string(),
    observed: z.string().nullable(),
    matched: z.boolean(),
    checkedAt: z.iso.datetime(),
  }),
  z.object({ method: z.literal("judge"), judgeId: z.string().min(1), verdict: z.enum(["pass", "fail"]), confidence: ZConfidence }),
  z.object({ method: z.literal("human"), reviewerId: z.string().min(1), verdict: z.enum(["pass", "fail"]), confidence: ZConfidence }),
  z.object({ method: z.literal("unverified"), reason: z.string().min(1) }),
]);
export type Verification = z.infer<typeof ZVerification>;

export const ZCanaryOutcome = z.object({
  taskId: z.string().min(1),
  verification: ZVerification,
  toolsUsed: z.array(z.string().min(1)),
  sideEffects: z.array(z.object({ kind: z.string().min(1), target: z.string().min(1), harmful: z.boolean() })),
  costUsd: z.number().min(0),
  rolloutId: z.string().min(1).optional(),
});
export type CanaryOutcome = z.infer<typeof ZCanaryOutcome>;

export const ZCanaryRun = z.object({
  environment: z.string().min(1),
  modelServer: z.string().min(1),
  window: z.object({ start: z.iso.datetime(), end: z.iso.datetime() }),
  outcomes: z.array(ZCanaryOutcome),
  /**
   * Why the canary stopped before every task finished: a breach of the boundary seen in the spans (the run
   * cancels what is queued), the boundary's wall time / the run's deadline reached, or — in the canary stage —
   * the canary pointer moved off the candidate by a person's signed rollback while it ran.
   */
  stop: z.object({ kind: z.enum(["breach", "wall_time", "deadline", "rolled_back"]), reason: z.string().min(1), at: z.iso.datetime() }).optional(),
});
export type CanaryRun = z.infer<typeof ZCanaryRun>;

/** The exact parent loaded in the same bounded environment, and whether routing returned to it. */
export const ZRollbackTest = z.object({
  environment: z.string().min(1),
  parent: ZResourceRef,
  loaded: z.boolean(),
  routedBack: z.boolean(),
  checkedAt: z.iso.datetime(),
  detail: z.string(),
  /** The probe rollouts runners served against the pinned parent, and how each ended. */
  probes: z.array(z.object({ rolloutId: z.string().min(1), status: z.string().min(1) })).optional(),
});
export type RollbackTest = z.infer<typeof ZRollbackTest>;

export const PIN_NAMES = ["candidate", "parent", "trainingData", "heldOutData", "evaluator"] as const;
export type PinName = (typeof PIN_NAMES)[number];

/** What each pinned artifact resolved to when the gate ran (a registry lookup). Absent = not checked. */
export const ZResolution = z.discriminatedUnion("status", [
  z.object({ status: z.literal("resolved"), digest: ZDigest }),
  z.object({ status: z.literal("unresolvable"), reason: z.string().min(1) }),
]);
export type Resolution = z.infer<typeof ZResolution>;

/**
 * What produced a sealed result, from the context the gate run used (never "what is in force now"): the run, the
 * evaluator that judged (its registry pin and the digest of the body the rollouts carried to the runners), the
 * exact parent compared against and probed, and the datasets. `versions` beside it holds the rest (tool contracts,
 * task distribution, retry policy, model server) as that run resolved them; freshness compares those with what
 * is in force. Absent on evidence sealed before it was recorded (and on imported evidence).
 */
export const ZProducedBy = z.object({
  gateRun: z.string().min(1),
  evaluator: ZEvaluatorRef,
  evaluatorBodyDigest: ZDigest.nullable(),
  parent: ZResourceRef,
  datasets: z.object({ training: ZSnapshotRef, heldOut: ZSnapshotRef, canary: ZSnapshotRef.optional() }),
});
export type ProducedBy = z.infer<typeof ZProducedBy>;

export const ZStage3 = z.object({
  resolution: z.partialRecord(z.enum(PIN_NAMES), ZResolution),
  lockedGate: ZLockedGate.optional(),
  canary: ZCanaryRun.optional(),
  rollbackTest: ZRollbackTest.optional(),
  computedAt: z.iso.datetime(),
  versions: ZVersionSet,
  /**
   * A re-run after a sealed canary stage whose evidence was still fresh keeps the candidate at the default step
   * (server/promotion decides): the digest of the canary-stage link this stage 3 carries forward.
   */
  carriesCanaryStage: ZDigest.optional(),
  producedBy: ZProducedBy.optional(),
});
export type Stage3 = z.infer<typeof ZStage3>;

/** Appended after the candidate ran in its bounded canary: that stage's own evidence. */
export const ZCanaryStage = z.object({
  canary: ZCanaryRun,
  rollbackTest: ZRollbackTest.optional(),
  computedAt: z.iso.datetime(),
  versions: ZVersionSet,
  producedBy: ZProducedBy.optional(),
});
export type CanaryStage = z.infer<typeof ZCanaryStage>;
