// Runs the seven checks and stamps each result with the versions and time of the evidence behind it.
import { recordedFor, type CheckScope, type StaleCheck } from "../freshness";
import type { Receipt } from "../receipt/view";
import { CHECK_IDS, CHECK_INPUTS, pickVersions, type CheckId } from "../versions";
import { checkBeatsParent } from "./beats-parent";
import { checkCanary, judgeCanary } from "./canary";
import { checkCoverage } from "./coverage";
import { checkPins } from "./pins";
import { checkProtectedCases } from "./protected-cases";
import { checkRetryDebt } from "./retry-debt";
import { checkRollbackAndApproval, judgeRollbackAndApproval } from "./rollback-approval";
import { CHECK_TITLES, type CheckInput, type CheckOutcome, type CheckResult } from "./types";

export const CHECKS: Record<CheckId, (input: CheckInput) => CheckOutcome> = {
  1: checkPins,
  2: checkCoverage,
  3: checkRetryDebt,
  4: checkBeatsParent,
  5: checkProtectedCases,
  6: checkCanary,
  7: checkRollbackAndApproval,
};

function stamp(id: CheckId, outcome: CheckOutcome, receipt: Receipt, scope: CheckScope): CheckResult {
  const recorded = recordedFor(receipt, id, scope);
  return {
    id,
    title: CHECK_TITLES[id],
    ...outcome,
    computedAt: recorded?.computedAt ?? null,
    versions: recorded ? pickVersions(recorded.versions, CHECK_INPUTS[id]) : {},
  };
}

/** The seven admission checks, in order. */
export function runChecks(input: CheckInput): CheckResult[] {
  return CHECK_IDS.map((id) => stamp(id, CHECKS[id](input), input.receipt, "admission"));
}

/** Checks 6 and 7 re-judged on the canary stage's own receipt (default step), or null before that stage. */
export function runCanaryStageChecks({ receipt, evidence, policy, decisions }: CheckInput): CheckResult[] | null {
  if (!receipt.canaryStage || !evidence.canaryStage) return null;
  const { canaryStage } = receipt;
  const canary = judgeCanary(evidence.canaryStage, policy.weakEvidence.minConfidence, canaryStage.versions.modelServer);
  const rollback = judgeRollbackAndApproval({
    step: "default",
    parent: receipt.stage1.parent,
    rollbackTest: canaryStage.rollbackTest,
    environment: canaryStage.canary.environment,
    approvals: receipt.approvals,
    target: receipt.canaryStageDigest,
    authority: receipt.stage1.approvers.default,
    declaredBy: receipt.stage1.declaredBy,
    decisions,
    cycle: receipt.cycle,
  });
  return [stamp(6, canary, receipt, "canary-stage"), stamp(7, rollback, receipt, "canary-stage")];
}

/** Marks the checks whose inputs changed as stale, keeping what they said before. */
export function applyFreshness(results: readonly CheckResult[], stale: readonly StaleCheck[], scope: CheckScope): CheckResult[] {
  return results.map((r) => {
    const found = stale.find((s) => s.check === r.id && s.scope === scope);
    if (!found || r.status === "stale") return r;
    const { waitingOn: _waiting, ...rest } = r;
    const explanation = `Stale: ${found.reasons.map((x) => x.sentence).join("; ")} — re-run before relying on it (it said: ${r.status}).`;
    return { ...rest, status: "stale", explanation, stale: { was: r.status, said: r.explanation, reasons: found.reasons } };
  });
}
