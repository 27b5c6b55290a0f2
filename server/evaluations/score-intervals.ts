// Confidence intervals for what one policy scored: tasks are the independent units, so the mean reward
// gets a t interval over per-task rewards and each rate (success, outcome, protected passed) an exact
// Clopper–Pearson interval over tasks. A paired difference (the same tasks clean and perturbed) gets the
// t interval of the per-task differences.
import type { Evaluation } from "@/server/trainers/evaluate";
import { meanInterval, proportionInterval } from "@/server/trainers/evaluation/intervals";

export const CONFIDENCE = 0.95;

export type Ci = [number, number];
/** A score with its 95 % intervals over `n` tasks. */
export type ScoreCi = { meanReward: number; successRate: number; n: number; meanRewardCi: Ci; successRateCi: Ci };

const succeeded = (t: Evaluation["perTask"][number]) => t.outcomeReached && t.protectedPass !== false;

export function scoreWithCi(e: Evaluation): ScoreCi {
  const n = e.perTask.length;
  return {
    meanReward: e.meanReward,
    successRate: e.successRate,
    n,
    meanRewardCi: meanInterval(e.perTask.map((t) => t.reward), CONFIDENCE).ci,
    successRateCi: proportionInterval(e.perTask.filter(succeeded).length, n, CONFIDENCE).ci,
  };
}

/** The held-out protocol's intervals beyond the score: outcome rate and protected cases passed. */
export function heldOutIntervals(e: Evaluation): { outcomeRateCi: Ci; protectedPassedCi: Ci | null } {
  return {
    outcomeRateCi: proportionInterval(e.perTask.filter((t) => t.outcomeReached).length, e.perTask.length, CONFIDENCE).ci,
    protectedPassedCi: e.protectedCases > 0 ? proportionInterval(e.protectedPassed, e.protectedCases, CONFIDENCE).ci : null,
  };
}

export function rateCi(passed: number, cases: number): Ci | null {
  return cases > 0 ? proportionInterval(passed, cases, CONFIDENCE).ci : null;
}

/** The t interval of the mean of paired per-task differences (same tasks, two conditions). */
export function pairedDifferenceCi(before: readonly number[], after: readonly number[]): Ci {
  if (before.length !== after.length) throw new Error("paired differences need the same tasks on both sides");
  return meanInterval(before.map((b, i) => after[i]! - b), CONFIDENCE).ci;
}
