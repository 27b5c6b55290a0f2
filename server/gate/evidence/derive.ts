// Everything the checks read, derived from the receipt by the pure evidence functions. Runs in O(rollouts):
// stage 2 holds per-rollout rollups, never raw spans.
import { effectiveExpectations, type Expectations, type GatePolicy } from "../policy";
import type { ResourceRef } from "../receipt/refs";
import type { Receipt } from "../receipt/view";
import { summarizeCanary, type CanarySummary } from "./canary";
import { compareLockedGate, compareProtected, type GateComparison, type ProtectedComparison } from "./compare";
import { computeCoverage, type CoverageSummary } from "./coverage";
import { computeRetryDebt, type RetryDebtSummary } from "./retry-debt";
import { rewardCurve, type RewardCurve } from "./reward-curve";

export type CandidateIdentity = { ref: ResourceRef | null; conflict: string | null };

export type GateEvidence = {
  expectations: Expectations;
  candidate: CandidateIdentity;
  coverage: CoverageSummary;
  retryDebt: RetryDebtSummary;
  comparison: GateComparison;
  protectedCases: ProtectedComparison;
  canary: CanarySummary;
  /** The canary stage's own outcomes, once the candidate ran in its bounded canary. */
  canaryStage: CanarySummary | null;
  rewards: RewardCurve;
};

/** The candidate's exact identity: declared in stage 1 when it existed, else recorded in stage 2. */
export function candidateIdentity(receipt: Receipt): CandidateIdentity {
  const declared = receipt.stage1.candidate;
  const produced = receipt.stage2?.candidate;
  if (produced && produced.resourceId !== declared.resourceId) {
    return { ref: null, conflict: `training produced ${produced.resourceId}, stage 1 declared ${declared.resourceId}` };
  }
  if (produced && declared.digest && produced.digest !== declared.digest) {
    return { ref: null, conflict: "stage 2 records a different candidate digest than stage 1 declared" };
  }
  if (produced) return { ref: produced, conflict: null };
  if (declared.digest && declared.version) return { ref: { resourceId: declared.resourceId, version: declared.version, digest: declared.digest }, conflict: null };
  return { ref: null, conflict: null };
}

export function deriveEvidence(receipt: Receipt, policy: GatePolicy): GateEvidence {
  const expectations = effectiveExpectations(receipt.stage1, policy);
  const candidate = candidateIdentity(receipt);
  const rollouts = receipt.stage2?.rollouts ?? [];
  const comparison = compareLockedGate(receipt.stage1, receipt.stage3?.lockedGate, candidate.ref, {
    protectedFamilies: new Set(expectations.protectedFamilies.map((f) => f.family)),
    protectedScoreTolerance: policy.protectedScoreTolerance,
    producedWith: receipt.stage3?.versions.evaluator,
  });
  return {
    expectations,
    candidate,
    coverage: computeCoverage(rollouts, expectations.spanFamilies),
    retryDebt: computeRetryDebt(rollouts, expectations),
    comparison,
    protectedCases: compareProtected(comparison, expectations.protectedFamilies),
    canary: summarizeCanary(receipt.stage3?.canary, expectations.canaryBoundary, policy.weakEvidence),
    canaryStage: receipt.canaryStage ? summarizeCanary(receipt.canaryStage.canary, expectations.canaryBoundary, policy.weakEvidence) : null,
    rewards: rewardCurve(rollouts),
  };
}
