// The promotion policy: lives outside the learner-writable surface (a trainer can never edit it). A receipt's
// stage 1 may tighten what the policy requires, never loosen it.
import { z } from "zod";
import type { CanaryBoundary, Stage1 } from "./receipt/stage1";

const ZCheckKey = z.enum(["1", "2", "3", "4", "5", "6", "7"]);

export const ZGatePolicy = z.object({
  /** Check 4: the candidate's mean locked-gate score must exceed the exact parent's by more than this. */
  minScoreGain: z.number().min(0),
  /** Check 5: a protected case regresses when it stops passing or its score drops by more than this. */
  protectedScoreTolerance: z.number().min(0),
  /** Protected families required of every receipt, with the most regressions the policy tolerates. */
  protectedFamilies: z.array(z.object({ family: z.string().min(1), maxRegressions: z.number().int().min(0) })),
  /** Span families required of every rollout, on top of the receipt's own declaration. */
  requiredSpanFamilies: z.array(z.string().min(1)),
  /** Cap on the unexpected-retry budget a receipt may declare; null leaves stage 1's budget as declared. */
  maxUnexpectedRetries: z.number().int().min(0).nullable(),
  /** Check 6: judge/human evidence counts only when accepted and at least this confident. */
  weakEvidence: z.object({ accept: z.boolean(), minConfidence: z.number().min(0).max(1) }),
  /** Evidence older than this (seconds since it was computed) makes a check stale. */
  maxEvidenceAgeSeconds: z.partialRecord(ZCheckKey, z.number().positive()),
  /** Stop conditions for continual training. */
  stop: z.object({ minCoverageRatio: z.number().min(0).max(1), maxCoverageDrop: z.number().min(0).max(1) }),
  /**
   * A gate stage seals only once all its rollouts ended and this long passed with no new span or attempt for
   * them (OTLP exporters batch: a runner can finish an attempt before its tracer flushes). Absent: 5 s.
   */
  settleSeconds: z.number().min(0).max(600).optional(),
});
export type GatePolicy = z.infer<typeof ZGatePolicy>;

export const DEFAULT_GATE_POLICY: GatePolicy = {
  minScoreGain: 0,
  protectedScoreTolerance: 0,
  protectedFamilies: [],
  requiredSpanFamilies: [],
  maxUnexpectedRetries: null,
  weakEvidence: { accept: true, minConfidence: 0.9 },
  maxEvidenceAgeSeconds: { "6": 14 * 24 * 3600 },
  stop: { minCoverageRatio: 1, maxCoverageDrop: 0 },
};

export const DEFAULT_SETTLE_SECONDS = 5;
export const settleSecondsOf = (policy: Pick<GatePolicy, "settleSeconds">) => policy.settleSeconds ?? DEFAULT_SETTLE_SECONDS;

export type Expectations = {
  spanFamilies: string[];
  protectedFamilies: { family: string; maxRegressions: number }[];
  expectedResamplesPerRollout: number;
  unexpectedRetryBudget: number;
  canaryBoundary: CanaryBoundary;
};

/** What the gate holds a receipt to: stage 1's declaration, tightened by the policy. */
export function effectiveExpectations(stage1: Stage1, policy: GatePolicy): Expectations {
  const declared = stage1.expectedEvidence;
  const tolerance = new Map<string, number>();
  for (const f of [...declared.protectedFamilies, ...policy.protectedFamilies]) {
    tolerance.set(f.family, Math.min(tolerance.get(f.family) ?? Infinity, f.maxRegressions));
  }
  return {
    spanFamilies: [...new Set([...declared.spanFamilies, ...policy.requiredSpanFamilies])].sort(),
    protectedFamilies: [...tolerance].map(([family, maxRegressions]) => ({ family, maxRegressions })).sort((a, b) => a.family.localeCompare(b.family)),
    expectedResamplesPerRollout: declared.retryBudget.expectedResamplesPerRollout,
    unexpectedRetryBudget: Math.min(declared.retryBudget.unexpectedRetries, policy.maxUnexpectedRetries ?? Infinity),
    canaryBoundary: declared.canaryBoundary,
  };
}
