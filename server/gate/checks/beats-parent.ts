// Check 4: the candidate beats its exact parent on the locked held-out gate with the pinned evaluator — as a
// paired comparison with a floor: at least the policy's minimum number of locked cases, and the lower end of
// the 95 % interval of the mean per-case delta above the policy's minimum gain, so a gain the cases' own
// spread (or too few cases) could explain does not count.
import { clearsFloor, pairedInterval } from "../evidence/paired-interval";
import { fail, fmt, pass, plural, signed, unavailable, type CheckInput, type CheckOutcome } from "./types";

const evaluatorName = (e: { id: string; version: string }) => `${e.id}@${e.version}`;

export function checkBeatsParent({ receipt, evidence, policy }: CheckInput): CheckOutcome {
  const c = evidence.comparison;
  const paired = c.status === "available" ? pairedInterval(c.rows.flatMap((r) => (r.delta === null ? [] : [r.delta]))) : null;
  const floor = { minLockedCases: policy.minLockedCases, minScoreGain: policy.minScoreGain };
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
      se: paired.se,
      df: paired.df,
      confidence: paired.confidence,
      interval: [paired.lower, paired.upper],
    },
    floor,
    minScoreGain: policy.minScoreGain,
    parent: receipt.stage1.parent.resourceId,
    // The evaluator that scored these cases (a re-run's is the one in force at the re-run), not stage 1's declaration.
    evaluator: evaluatorName(receipt.stage3?.lockedGate?.evaluator ?? receipt.stage1.evaluator),
  };
  if (c.status === "invalid") return fail(`The locked gate cannot count: it ${c.problems.join("; ")}.`, facts);
  if (c.status === "unavailable" || c.gain === null) return unavailable(`No complete locked-gate comparison: ${c.problems.join("; ")}.`, facts);
  const versus = `means ${fmt(c.candidateMean!)} vs ${fmt(c.parentMean!)} for exact parent ${facts.parent} (${facts.evaluator})`;
  const needs = `the policy needs at least ${floor.minLockedCases} locked cases and a gain above ${signed(floor.minScoreGain)} at the interval's lower end`;
  if (c.cases < floor.minLockedCases || !paired) {
    return fail(`Too few locked cases to show a gain: ${plural(c.cases, "locked case")} (mean per-case gain ${signed(c.gain)}), ${needs}; ${versus}.`, facts);
  }
  const pct = Math.round(paired.confidence * 100);
  const interval = `${pct} % paired t interval ${signed(paired.lower)} to ${signed(paired.upper)}, n = ${paired.n} locked cases`;
  if (clearsFloor(paired, floor)) {
    return pass(`The candidate beats its exact parent: mean per-case gain ${signed(paired.meanDelta)} (${interval}), lower end above the policy's minimum gain ${signed(floor.minScoreGain)}; ${versus}.`, facts);
  }
  return fail(
    `The candidate does not beat its exact parent by more than ${signed(floor.minScoreGain)} beyond noise: mean per-case gain ${signed(paired.meanDelta)} (${interval}); ${needs}; ${versus}.`,
    facts,
  );
}
