// Check 7: the exact parent was loaded in the same bounded environment and routing returned to it, and an
// authorized actor approved this step of exactly this receipt.
import type { Digest, JsonObject } from "../digest";
import { decisionOn, type RecordedApproval } from "../receipt/approval";
import type { ApprovalStep, Authority, ResourceRef } from "../receipt/refs";
import type { SignedDecisions } from "../receipt/signed-decisions";
import type { RollbackTest } from "../receipt/stage3";
import { fail, pass, unavailable, type CheckInput, type CheckOutcome } from "./types";

export type RollbackApprovalInput = {
  step: ApprovalStep;
  parent: ResourceRef;
  rollbackTest: RollbackTest | undefined;
  /** The bounded canary's environment, where the rollback must be shown (undefined when no canary ran). */
  environment: string | undefined;
  approvals: readonly RecordedApproval[];
  /** Digest of the sealed link an approval must name; undefined while that stage is unsealed. */
  target: Digest | undefined;
  authority: Authority;
  declaredBy: string;
  /** The signed decisions behind the approval links; only verified ones count. */
  decisions: SignedDecisions;
  /** The current promotion cycle: separation of duties is judged within it. */
  cycle?: number;
};

export function judgeRollbackAndApproval(i: RollbackApprovalInput): CheckOutcome {
  const { decision, ignored } = decisionOn(i.approvals, i.step, i.target, i.authority, i.declaredBy, i.decisions, i.cycle);
  const t = i.rollbackTest;
  const facts: JsonObject = {
    step: i.step,
    rollback: t ? { environment: t.environment, loaded: t.loaded, routedBack: t.routedBack, parent: t.parent.resourceId, detail: t.detail } : null,
    decision: decision && {
      actor: decision.actor.id,
      roles: decision.signedBy.roles,
      decision: decision.decision,
      at: decision.at,
      comment: decision.comment,
      link: decision.link,
      signed: true,
      signedBy: decision.signature.by,
      signature: decision.signature.method,
    },
    ignored,
  };
  if (!t) return unavailable(`No rollback test to exact parent ${i.parent.resourceId} was recorded.`, facts);
  if (t.parent.digest !== i.parent.digest) return fail(`The rollback test loaded ${t.parent.resourceId}, not the exact parent ${i.parent.resourceId}.`, facts);
  if (i.environment !== undefined && t.environment !== i.environment) {
    return fail(`The rollback was tested in ${t.environment}, not in the canary's bounded environment ${i.environment}.`, facts);
  }
  if (!t.loaded) return fail(`Rollback was not tested: the exact parent ${i.parent.resourceId} could not be loaded in ${t.environment} (${t.detail}).`, facts);
  if (!t.routedBack) return fail(`The exact parent loaded in ${t.environment}, but routing did not return to it (${t.detail}).`, facts);
  if (decision?.decision === "reject") {
    const why = decision.comment ? `: “${decision.comment}”` : "";
    return fail(`Rollback was tested, but ${decision.signature.by.name} (${decision.actor.id}) rejected the ${i.step} step (signed, verified)${why}.`, facts);
  }
  if (decision) {
    const who = `${decision.signature.by.name} (${decision.actor.id}, ${decision.signedBy.roles.join(", ")})`;
    return pass(`Rollback to exact parent ${i.parent.resourceId} was tested in ${t.environment}, and ${who} approved the ${i.step} step (signed, verified).`, facts);
  }
  const note = ignored.length ? ` (not counted: ${ignored.join("; ")})` : "";
  return { ...unavailable(`Rollback was tested; the ${i.step} step waits for an authorized, signed approval${note}.`, facts), waitingOn: "approval" };
}

export function checkRollbackAndApproval({ receipt, decisions }: CheckInput): CheckOutcome {
  return judgeRollbackAndApproval({
    step: "canary",
    parent: receipt.stage1.parent,
    rollbackTest: receipt.stage3?.rollbackTest,
    environment: receipt.stage3?.canary?.environment,
    approvals: receipt.approvals,
    target: receipt.canaryApprovalTarget ?? receipt.stage3Digest,
    authority: receipt.stage1.approvers.canary,
    declaredBy: receipt.stage1.declaredBy,
    decisions,
  });
}
