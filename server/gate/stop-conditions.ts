// Stop conditions for continual training, separate from reward: a run pauses itself when the evidence behind
// its updates degrades, however the reward moves. "Active" and "making useful progress" are reported apart.
import type { CanarySummary } from "./evidence/canary";
import type { ProtectedComparison } from "./evidence/compare";
import { computeCoverage } from "./evidence/coverage";
import { computeRetryDebt } from "./evidence/retry-debt";
import { rewardCurve } from "./evidence/reward-curve";
import type { Expectations, GatePolicy } from "./policy";
import type { RolloutRollup } from "./receipt/stage2";

/** One window of evidence (e.g. the rollouts since the last poll), summarised from rollups. */
export type EvidenceWindow = {
  label: string;
  rollouts: number;
  coverage: { considered: number; fullyCovered: number };
  retryDebt: { known: boolean; debt: number };
  /** Null when no protected-case run happened in this window. */
  protectedFamilies: { family: string; regressions: number; maxRegressions: number }[] | null;
  /** Null when nobody checked that the exact parent still loads. */
  parentResolvable: boolean | null;
  /** Null when no canary ran in this window. */
  canary: { tasks: number; verified: number } | null;
  meanReward: number | null;
};

export function summarizeWindow(
  label: string,
  rollouts: readonly RolloutRollup[],
  expectations: Expectations,
  observed: { protectedCases?: ProtectedComparison | null; parentResolvable: boolean | null; canary?: CanarySummary | null },
): EvidenceWindow {
  const coverage = computeCoverage(rollouts, expectations.spanFamilies);
  const debt = computeRetryDebt(rollouts, expectations);
  return {
    label,
    rollouts: rollouts.length,
    coverage: { considered: coverage.considered, fullyCovered: coverage.fullyCovered },
    retryDebt: { known: debt.byReason.unknown === 0, debt: debt.debt },
    protectedFamilies: observed.protectedCases
      ? observed.protectedCases.families.map((f) => ({ family: f.family, regressions: f.regressions.length, maxRegressions: f.maxRegressions }))
      : null,
    parentResolvable: observed.parentResolvable,
    canary: observed.canary && observed.canary.tasks > 0 ? { tasks: observed.canary.tasks, verified: observed.canary.verified } : null,
    meanReward: rewardCurve(rollouts).mean,
  };
}

export type StopCondition =
  | "coverage_unavailable"
  | "coverage_dropped"
  | "retry_debt_unknown"
  | "retry_debt_over_bound"
  | "protected_regressed"
  | "parent_unavailable"
  | "canary_unverifiable";
export type StopReason = { condition: StopCondition; window: string; sentence: string };
export type StopDecision = {
  action: "continue" | "pause";
  reasons: StopReason[];
  /** Rollouts arrived in the latest window. */
  active: boolean;
  /** Not paused and the mean reward rose against the window before; null when there is nothing to compare. */
  usefulProgress: boolean | null;
};

const ratio = (c: EvidenceWindow["coverage"]) => (c.considered ? c.fullyCovered / c.considered : null);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Judges the latest window against the one before it. */
export function decideStop(windows: readonly EvidenceWindow[], retryDebtBound: number, policy: GatePolicy["stop"]): StopDecision {
  const latest = windows.at(-1);
  if (!latest) return { action: "continue", reasons: [], active: false, usefulProgress: null };
  const previous = windows.at(-2);
  const reasons: StopReason[] = [];
  const add = (condition: StopCondition, sentence: string) => reasons.push({ condition, window: latest.label, sentence });

  const now = ratio(latest.coverage);
  const before = previous ? ratio(previous.coverage) : null;
  if (now === null) add("coverage_unavailable", "No succeeded rollout in this window, so span coverage is unknown.");
  else if (now < policy.minCoverageRatio) add("coverage_dropped", `Span coverage is ${pct(now)}, below the required ${pct(policy.minCoverageRatio)}.`);
  else if (before !== null && before - now > policy.maxCoverageDrop) add("coverage_dropped", `Span coverage dropped from ${pct(before)} to ${pct(now)}.`);

  if (!latest.retryDebt.known) add("retry_debt_unknown", "Some retries in this window have no recorded reason.");
  else if (latest.retryDebt.debt > retryDebtBound) add("retry_debt_over_bound", `Retry debt ${latest.retryDebt.debt} crossed its bound of ${retryDebtBound}.`);

  for (const f of latest.protectedFamilies ?? []) {
    if (f.regressions > f.maxRegressions) add("protected_regressed", `Protected family ${f.family} regressed (${f.regressions} cases, tolerance ${f.maxRegressions}).`);
  }
  if (latest.parentResolvable !== true) {
    add("parent_unavailable", latest.parentResolvable === false ? "The exact parent can no longer be loaded." : "Nobody checked that the exact parent still loads.");
  }
  if (latest.canary && latest.canary.verified < latest.canary.tasks) {
    add("canary_unverifiable", `The canary could verify only ${latest.canary.verified} of ${latest.canary.tasks} external effects.`);
  }
  const paused = reasons.length > 0;
  const rewards = [previous?.meanReward, latest.meanReward];
  const usefulProgress = paused ? false : rewards[0] == null || rewards[1] == null ? null : rewards[1] > rewards[0];
  return { action: paused ? "pause" : "continue", reasons, active: latest.rollouts > 0, usefulProgress };
}
