// One candidate's approval situation, read on the caller's client (inside the approval's transaction when
// committing): the sealed receipt, the gate evaluated against the versions in force now, the step waiting,
// who may never approve it, and the pointer the step would move.
import { approvalAvailability, staleSentence, STEP_POINTERS, type ApprovalSituation, type Viewer } from "@/lib/approvals/availability";
import { openChecks } from "@/lib/candidates/status";
import { timestamp } from "@/lib/format/time";
import type { Actor } from "@/server/auth/actor";
import { displayNames, nameOf } from "@/server/auth/display-names";
import { readPointer } from "@/server/candidates/pointers";
import type { Db, Tx } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import type { Digest } from "@/server/gate/digest";
import { evaluateGate, type GateReport } from "@/server/gate/gate";
import { canaryApproversOf, decisionOn } from "@/server/gate/receipt/approval";
import type { ActorRef, ResourceRef } from "@/server/gate/receipt/refs";
import { approvalTarget } from "@/server/gate/receipt/seal";
import { receiptView, type Receipt } from "@/server/gate/receipt/view";
import { approversInCycle, promotionState, type PromotionState } from "@/server/promotion/state";
import { pointerGuard, STEP_POINTER } from "@/server/promotion/guards";
import type { PromotionFacts } from "@/server/promotion/facts";
import { promotionFacts } from "@/server/receipts/promotion-facts";
import type { ReceiptSource, ReceiptState } from "./source";

export type ApprovalSnapshot = {
  state: ReceiptState;
  receipt: Receipt;
  head: Digest;
  report: GateReport;
  step: "canary" | "default";
  /** The sealed link an approval of `step` must name; null while there is nothing to decide on. */
  target: Digest | null;
  situation: ApprovalSituation;
  candidate: ResourceRef;
  pointerFrom: ResourceRef | null;
  /** The promotion state machine's facts and the state they put the candidate in. */
  facts: PromotionFacts;
  promotion: PromotionState;
};

/** Machine states in which no approval step is open, whatever the receipt's last decision says. */
const CLOSED = new Set(["rolled-back", "canary-aborted", "promoted", "superseded"]);

export async function approvalSnapshot(db: Db | Tx, source: ReceiptSource, candidateId: string, now: Date): Promise<ApprovalSnapshot> {
  const state = await source.load(db, candidateId, now);
  if (!state) throw new DomainError("NOT_FOUND", `candidateId: no candidate ${candidateId}`, "candidateId");
  const { chain, candidate: c } = state;
  const judged = state.judged?.now.getTime() === now.getTime() ? state.judged : null;
  const receipt = judged?.receipt ?? receiptView(chain);
  const report = judged?.report ?? evaluateGate({ receipt, policy: state.policy, currentVersions: state.currentVersions, now, decisions: state.decisions, lateEvidence: state.lateEvidence, parentLoad: state.parentLoad });
  const step = report.step;
  const target = approvalTarget(chain, step);
  const authority = receipt.stage1.approvers[step];
  const decision = target ? decisionOn(receipt.approvals, step, target, authority, receipt.stage1.declaredBy, state.decisions, receipt.cycle).decision : null;
  const stale = report.freshness.stale.map((s) => ({ check: s.check, sentences: s.reasons.map((r) => r.sentence) }));
  // Separation of duties, as the source gathered it with the decisions; the default step also excludes whoever
  // approved the canary step in this promotion cycle (the gate core ignores such an approval: decisionOn).
  const { excluded } = state.decisions;
  const facts = await promotionFacts(db, { ...state, excluded: state.decisions.excluded }, receipt, report, now);
  const promotion = promotionState(facts);
  const canaryApprovers = step === "default" ? [...new Set([...canaryApproversOf(receipt.approvals, receipt.cycle), ...approversInCycle(facts.history, "canary")])] : [];
  const [from, fromCandidateId] = step === "canary" ? [facts.pointers.canary, facts.pointers.canaryCandidateId] : [facts.pointers.approvedDefault, facts.pointers.approvedDefaultCandidateId];
  const noop = pointerGuard({ pointer: STEP_POINTER[step], from, to: c.digest, fromCandidateId, toCandidateId: c.id });
  const names = decision ? await displayNames(db, [decision.actor.id]) : new Map<string, string>();
  const decided = decision && { decision: decision.decision, by: nameOf(names, decision.actor.id), at: timestamp(decision.at) };
  const pointer = await readPointer(db, c.agent, STEP_POINTERS[step]);
  return {
    state,
    receipt,
    head: chain.at(-1)!.digest,
    report,
    step,
    target,
    situation: { agent: c.agent, verdict: report.verdict, verdictStep: step, open: openChecks(report), stale, excluded, canaryApprovers, decided, closed: CLOSED.has(promotion.name) ? { state: promotion.name, next: promotion.next } : null, pointer: noop && !noop.allowed ? `${noop.reason}${step === "canary" ? ": roll the canary back to the exact parent before a new canary step" : ""}` : null },
    candidate: { resourceId: c.resourcesId, version: c.version, digest: c.digest },
    pointerFrom: pointer && { resourceId: pointer.resourcesId, version: pointer.version, digest: pointer.digest },
    facts,
    promotion,
  };
}

/** The actor as the receipt's authority rules see it: only the roles it holds for this agent. */
export function actorRefFor(actor: Actor, agent: string): ActorRef {
  const roles = [...new Set(actor.grants.filter((g) => g.agent === null || g.agent === agent).map((g) => g.role))];
  return { id: actor.id, kind: actor.kind, roles };
}

/** The viewer as the approval rule sees it: a person also needs a registered passkey to sign. */
export async function viewerOf(db: Db | Tx, actor: Actor | null): Promise<Viewer> {
  if (!actor) return null;
  const hasPasskey = actor.kind === "user" && (await db.passkey.count({ where: { userId: actor.id } })) > 0;
  return { id: actor.id, grants: actor.grants, kind: actor.kind, hasPasskey };
}

export { approvalAvailability, staleSentence };
