// Retry debt: attempts by reason. Planned resamples up to the declared budget are expected; every other
// retry (after a failure, timeout, silence, or by hand) and every resample beyond the plan is debt.
import { ATTEMPT_REASONS, type AttemptReason, type RolloutRollup } from "../receipt/stage2";

export type RetryDebtSummary = {
  /** unavailable: no attempts, or some retry's reason was never recorded. */
  status: "available" | "unavailable";
  rollouts: number;
  attempts: number;
  byReason: Record<AttemptReason | "unknown", number>;
  expectedResamples: number;
  /** Resamples beyond `expectedResamplesPerRollout` on some rollout. */
  excessResamples: number;
  unexpectedRetries: number;
  debt: number;
  budget: number;
  /** Rollouts carrying the most debt, worst first (at most 10). */
  worst: { rolloutId: string; debt: number }[];
};

const UNEXPECTED: ReadonlySet<AttemptReason> = new Set(["retry_after_failed", "retry_after_timeout", "retry_after_unresponsive", "manual"]);

export function computeRetryDebt(
  rollouts: readonly RolloutRollup[],
  budget: { expectedResamplesPerRollout: number; unexpectedRetryBudget: number },
): RetryDebtSummary {
  const byReason = Object.fromEntries([...ATTEMPT_REASONS, "unknown"].map((r) => [r, 0])) as RetryDebtSummary["byReason"];
  let attempts = 0;
  let excessResamples = 0;
  let unexpectedRetries = 0;
  const perRollout: { rolloutId: string; debt: number }[] = [];
  for (const rollout of rollouts) {
    let resamples = 0;
    let unexpected = 0;
    for (const attempt of rollout.attempts) {
      attempts += 1;
      // The first attempt is a fact of its sequence id; any later attempt without a reason is unknown.
      const reason = attempt.reason ?? (attempt.sequenceId === 1 ? "first" : "unknown");
      byReason[reason] += 1;
      if (reason === "expected_resample") resamples += 1;
      else if (reason !== "unknown" && UNEXPECTED.has(reason)) unexpected += 1;
    }
    const excess = Math.max(0, resamples - budget.expectedResamplesPerRollout);
    excessResamples += excess;
    unexpectedRetries += unexpected;
    if (excess + unexpected > 0) perRollout.push({ rolloutId: rollout.rolloutId, debt: excess + unexpected });
  }
  const debt = unexpectedRetries + excessResamples;
  return {
    status: attempts > 0 && byReason.unknown === 0 ? "available" : "unavailable",
    rollouts: rollouts.length,
    attempts,
    byReason,
    expectedResamples: byReason.expected_resample - excessResamples,
    excessResamples,
    unexpectedRetries,
    debt,
    budget: budget.unexpectedRetryBudget,
    worst: perRollout.sort((a, b) => b.debt - a.debt || a.rolloutId.localeCompare(b.rolloutId)).slice(0, 10),
  };
}
