// Span coverage: does every succeeded rollout carry every span family declared before training?
import type { AttemptRollup, RolloutRollup } from "../receipt/stage2";
import { ownValue } from "@/lib/own";

export type UncoveredRollout = { rolloutId: string; attemptId: string | null; missing: string[] };

export type CoverageSummary = {
  /** unavailable: nothing declared, or no succeeded rollout to judge — never reported as healthy. */
  status: "available" | "unavailable";
  expectedFamilies: string[];
  /** Succeeded rollouts: the ones whose result training used. */
  considered: number;
  fullyCovered: number;
  ratio: number | null;
  /** Rollouts not judged for coverage, by status (failed and cancelled ones show up as retry debt and outcomes). */
  excluded: { failed: number; cancelled: number; unfinished: number };
  missingByFamily: Record<string, number>;
  uncovered: UncoveredRollout[];
};

/** The attempt whose result the rollout holds: the one with the highest sequence id. */
export function latestAttempt(rollout: RolloutRollup): AttemptRollup | null {
  let latest: AttemptRollup | null = null;
  for (const a of rollout.attempts) if (!latest || a.sequenceId > latest.sequenceId) latest = a;
  return latest;
}

export function missingFamilies(rollout: RolloutRollup, expected: readonly string[]): string[] {
  const families = latestAttempt(rollout)?.families ?? {};
  return expected.filter((f) => !((ownValue(families, f) ?? 0) > 0));
}

export function computeCoverage(rollouts: readonly RolloutRollup[], expected: readonly string[]): CoverageSummary {
  const excluded = { failed: 0, cancelled: 0, unfinished: 0 };
  const missingByFamily: Record<string, number> = Object.fromEntries(expected.map((f) => [f, 0]));
  const uncovered: UncoveredRollout[] = [];
  let considered = 0;
  for (const rollout of rollouts) {
    if (rollout.status !== "succeeded") {
      if (rollout.status === "failed" || rollout.status === "cancelled") excluded[rollout.status] += 1;
      else excluded.unfinished += 1;
      continue;
    }
    considered += 1;
    const missing = missingFamilies(rollout, expected);
    if (missing.length === 0) continue;
    for (const f of missing) missingByFamily[f]! += 1;
    uncovered.push({ rolloutId: rollout.rolloutId, attemptId: latestAttempt(rollout)?.attemptId ?? null, missing });
  }
  const available = expected.length > 0 && considered > 0;
  return {
    status: available ? "available" : "unavailable",
    expectedFamilies: [...expected],
    considered,
    fullyCovered: considered - uncovered.length,
    ratio: available ? (considered - uncovered.length) / considered : null,
    excluded,
    missingByFamily,
    uncovered,
  };
}
