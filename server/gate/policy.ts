// The promotion policy: lives outside the learner-writable surface (a trainer can never edit it). A receipt's
// stage 1 may tighten what the policy requires, never loosen it.
import { z } from "zod";
import type { CanaryBoundary, Stage1 } from "./receipt/stage1";

const ZCheckKey = z.enum(["1", "2", "3", "4", "5", "6", "7"]);

/** Check 4's floor by default (ARCHITECTURE "Check 4"; bench/check4.ts measures what it buys). */
export const CHECK4_FLOOR = { minLockedCases: 20, minScoreGain: 0.02 } as const;

export const ZGatePolicy = z.object({
  /**
   * Check 4: the lower end of the paired interval of the mean per-case gain must exceed this. Default 0.02
   * (two points on a 0–1 score): the margin that keeps a no-gain candidate's false-pass rate under 2.5 % at
   * 20 skewed cases. Publishing refuses less (ZPublishedGatePolicy); this schema also reads older bodies.
   */
  minScoreGain: z.number().min(0).default(CHECK4_FLOOR.minScoreGain),
  /** Check 4: fewer locked cases than this cannot show a gain; the check fails naming the floor. */
  minLockedCases: z.number().int().min(2).max(100_000).default(CHECK4_FLOOR.minLockedCases),
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

const belowFloor = (what: string) => `must be at least ${what}: below it check 4 passes a candidate with no true gain more often than 2.5 % (bench/check4.ts)`;
/** What a policy owner may publish: check 4's floor may be raised, never lowered. */
export const ZPublishedGatePolicy = ZGatePolicy.extend({
  minScoreGain: z.number().min(CHECK4_FLOOR.minScoreGain, belowFloor(String(CHECK4_FLOOR.minScoreGain))).max(1).default(CHECK4_FLOOR.minScoreGain),
  minLockedCases: z.number().int().min(CHECK4_FLOOR.minLockedCases, belowFloor(`${CHECK4_FLOOR.minLockedCases} locked cases`)).max(100_000).default(CHECK4_FLOOR.minLockedCases),
});

/** A stored policy as the gate applies it: one published before check 4 had a floor is read with the floor. */
export function withCheck4Floor(policy: GatePolicy): GatePolicy {
  return { ...policy, minScoreGain: Math.max(policy.minScoreGain, CHECK4_FLOOR.minScoreGain), minLockedCases: Math.max(policy.minLockedCases, CHECK4_FLOOR.minLockedCases) };
}

export const DEFAULT_GATE_POLICY: GatePolicy = {
  ...CHECK4_FLOOR,
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
