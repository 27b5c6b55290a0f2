// Check 4: the candidate beats its exact parent on the locked held-out gate with the pinned evaluator — as a
// paired comparison: the lower bound of a 95 % interval of the mean per-case delta must exceed the policy
// minimum, so a gain the cases' own spread could explain does not count.
import { pairedBootstrapInterval } from "../evidence/paired-interval";
import { fail, fmt, pass, signed, unavailable, type CheckInput, type CheckOutcome } from "./types";

const evaluatorName = (e: { id: string; version: string }) => `${e.id}@${e.version}`;

export function checkBeatsParent({ receipt, evidence, policy }: CheckInput): CheckOutcome {
  const c = evidence.comparison;
  const paired = c.status === "available" ? pairedBootstrapInterval(c.rows.flatMap((r) => (r.delta === null ? [] : [r.delta]))) : null;
  const facts = {
    status: c.status,
    problems: c.problems,
    cases: c.cases,
    candidateMean: c.candidateMean,
    parentMean: c.parentMean,
    gain: c.gain,
    pairedTest: paired && {
      method: paired.method,
      n: paired.n,
      meanDelta: paired.meanDelta,
      confidence: paired.confidence,
      interval: [paired.lower, paired.upper],
      resamples: paired.resamples,
      seed: paired.seed,
    },
    minScoreGain: policy.minScoreGain,
    parent: receipt.stage1.parent.resourceId,
    // The evaluator that scored these cases (a re-run's is the one in force at the re-run), not stage 1's declaration.
    evaluator: evaluatorName(receipt.stage3?.lockedGate?.evaluator ?? receipt.stage1.evaluator),
  };
  if (c.status === "invalid") return fail(`The locked gate cannot count: it ${c.problems.join("; ")}.`, facts);
  if (c.status === "unavailable" || c.gain === null || !paired) return unavailable(`No complete locked-gate comparison: ${c.problems.join("; ")}.`, facts);
  const pct = Math.round(paired.confidence * 100);
  const interval = `${pct} % paired-bootstrap interval ${signed(paired.lower)} to ${signed(paired.upper)}, n = ${paired.n} locked cases`;
  const versus = `means ${fmt(c.candidateMean!)} vs ${fmt(c.parentMean!)} for exact parent ${facts.parent} (${facts.evaluator})`;
  if (paired.lower > policy.minScoreGain) {
    return pass(`The candidate beats its exact parent: mean per-case gain ${signed(paired.meanDelta)} (${interval}), lower bound above the policy minimum ${fmt(policy.minScoreGain)}; ${versus}.`, facts);
  }
  return fail(
    `The candidate does not beat its exact parent by more than ${fmt(policy.minScoreGain)} beyond noise: mean per-case gain ${signed(paired.meanDelta)} (${interval}); ${versus}.`,
    facts,
  );
}
