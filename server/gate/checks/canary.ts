// Check 6: every bounded-canary task has a verified outcome, inside the boundary, with no harmful side effect.
import type { CanarySummary } from "../evidence/canary";
import type { JsonObject } from "../digest";
import { fail, pass, plural, unavailable, type CheckInput, type CheckOutcome } from "./types";

/** `modelServer`: the one the receipt's versions name; a canary elsewhere covers nothing here. */
export function judgeCanary(c: CanarySummary, minConfidence: number, modelServer: string | undefined): CheckOutcome {
  const facts: JsonObject = {
    environment: c.environment,
    modelServer: c.modelServer,
    tasks: c.tasks,
    verified: c.verified,
    findings: c.findings,
    weakEvidence: c.weakEvidence,
    harmful: c.harmful,
    breach: c.breach,
    boundary: c.boundary,
  };
  if (c.status === "unavailable") return unavailable("No bounded-canary outcome was recorded.", facts);
  const problems: string[] = [];
  if (c.breach) problems.push(`the canary was stopped: ${c.breach}`);
  if (c.modelServer !== modelServer) problems.push(`the canary ran on ${c.modelServer}, not on the receipt's model server ${modelServer ?? "(none)"}`);
  if (c.verified < c.tasks) {
    const why = [
      c.findings.unverified.length ? `${c.findings.unverified.length} could not be checked` : "",
      c.findings["wrong-outcome"].length ? `${c.findings["wrong-outcome"].length} showed the wrong outcome` : "",
    ].filter(Boolean);
    problems.push(`only ${c.verified} of ${c.tasks} canary outcomes were verified (${why.join(", ")})`);
  }
  if (c.harmful.length) problems.push(`${plural(c.harmful.length, "harmful side effect")} recorded (${c.harmful.map((h) => `${h.kind} on ${h.target}`).join(", ")})`);
  const b = c.boundary;
  if (b.tasksOver) problems.push(`${b.tasksOver} tasks over the boundary`);
  if (b.disallowedTools.length) problems.push(`tools outside the boundary: ${b.disallowedTools.join(", ")}`);
  if (b.disallowedSideEffects.length) problems.push(`side effects not allowed: ${b.disallowedSideEffects.join(", ")}`);
  if (b.costOver) problems.push(`cost $${b.costUsd.toFixed(2)} over the boundary`);
  if (b.wallTimeOver) problems.push(`wall time ${Math.round(b.wallTimeSeconds)} s over the boundary`);
  if (problems.length) {
    const text = problems.join("; ");
    return fail(`${text.charAt(0).toUpperCase()}${text.slice(1)}.`, facts);
  }
  const weak = c.findings["weakly-verified"].length;
  const how = weak
    ? ` (${c.findings.verified.length} by re-reading the destination, ${weak} by judge/human with confidence ≥ ${minConfidence})`
    : " by re-reading the destination";
  return pass(`All ${plural(c.tasks, "canary task")} were verified${how}, inside the boundary, with no harmful side effect.`, facts);
}

export function checkCanary({ receipt, evidence, policy }: CheckInput): CheckOutcome {
  return judgeCanary(evidence.canary, policy.weakEvidence.minConfidence, receipt.stage3?.versions.modelServer);
}
