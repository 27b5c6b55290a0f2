// The gate in one call: evidence → seven checks → stale-evidence rule → verdict. Pure: same input, same report.
import { applyFreshness, runCanaryStageChecks, runChecks } from "./checks/run";
import type { CheckResult } from "./checks/types";
import { deriveEvidence, type GateEvidence } from "./evidence/derive";
import { isFresh, type Freshness, type LateEvidence } from "./freshness";
import type { ParentLoad } from "./parent-load";
import type { GatePolicy } from "./policy";
import type { SignedDecisions } from "./receipt/signed-decisions";
import type { Receipt } from "./receipt/view";
import { decideVerdict, type VerdictDecision } from "./verdict";
import type { VersionSet } from "./versions";

/**
 * `decisions`: the signed decisions stored with the receipt's approval links and what the database edge
 * established about them (server/receipts/decision-signatures.ts); check 7 counts only verified ones.
 * `lateEvidence`: admitted rollouts that changed in the store after stage 2 was sealed (checks 2 and 3 go stale).
 * `parentLoad`: whether the exact parent's pinned version loads now with its digest (check 1 fails when not).
 */
export type GateInput = { receipt: Receipt; policy: GatePolicy; currentVersions: VersionSet; now: Date; decisions: SignedDecisions; lateEvidence?: readonly LateEvidence[]; parentLoad?: ParentLoad };

export type GateReport = VerdictDecision & {
  evaluatedAt: string;
  checks: CheckResult[];
  canaryStageChecks: CheckResult[] | null;
  scoreGain: number | null;
  freshness: Freshness;
  evidence: GateEvidence;
};

export function evaluateGate({ receipt, policy, currentVersions, now, decisions, lateEvidence = [], parentLoad }: GateInput): GateReport {
  const evidence = deriveEvidence(receipt, policy);
  const freshness = isFresh(receipt, currentVersions, now, policy, lateEvidence);
  const checks = applyFreshness(runChecks({ receipt, evidence, policy, now, decisions, parentLoad }), freshness.stale, "admission");
  const stageChecks = runCanaryStageChecks({ receipt, evidence, policy, now, decisions });
  const canaryStageChecks = stageChecks && applyFreshness(stageChecks, freshness.stale, "canary-stage");
  return {
    ...decideVerdict(checks, canaryStageChecks),
    evaluatedAt: now.toISOString(),
    checks,
    canaryStageChecks,
    scoreGain: evidence.comparison.gain,
    freshness,
    evidence,
  };
}
