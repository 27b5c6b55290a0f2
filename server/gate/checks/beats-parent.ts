// Check 4: the candidate beats its exact parent on the locked held-out gate with the pinned evaluator.
import { fail, fmt, pass, signed, unavailable, type CheckInput, type CheckOutcome } from "./types";

export function checkBeatsParent({ receipt, evidence, policy }: CheckInput): CheckOutcome {
  const c = evidence.comparison;
  const facts = {
    status: c.status,
    problems: c.problems,
    cases: c.cases,
    candidateMean: c.candidateMean,
    parentMean: c.parentMean,
    gain: c.gain,
    minScoreGain: policy.minScoreGain,
    parent: receipt.stage1.parent.resourceId,
    evaluator: `${receipt.stage1.evaluator.id}@${receipt.stage1.evaluator.version}`,
  };
  if (c.status === "invalid") return fail(`The locked gate cannot count: it ${c.problems.join("; ")}.`, facts);
  if (c.status === "unavailable" || c.gain === null) return unavailable(`No complete locked-gate comparison: ${c.problems.join("; ")}.`, facts);
  const versus = `${fmt(c.candidateMean!)} vs ${fmt(c.parentMean!)} for exact parent ${facts.parent} on ${c.cases} locked cases (${facts.evaluator})`;
  if (c.gain > policy.minScoreGain) return pass(`The candidate beats its exact parent by ${signed(c.gain)}: ${versus}.`, facts);
  return fail(`The candidate does not beat its exact parent by more than ${fmt(policy.minScoreGain)}: ${signed(c.gain)}, ${versus}.`, facts);
}
