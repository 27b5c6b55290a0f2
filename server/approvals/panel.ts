// What the approval UI shows for one candidate: whether the viewer may approve and why not (the same rule
// the server applies at commit), what the approval would change (pointer from → to, scope, canary boundary),
// who already decided the step and what comes next, and where a rollback may go. /approvals is inbox.ts.
import { approvalAvailability, STEP_POINTERS, STEP_SCOPES, type Availability, type StaleCheckSummary, type StepDecision, type Viewer } from "@/lib/approvals/availability";
import { candidateStatus, staleSaid, type CandidateStatus, type OpenCheck } from "@/lib/candidates/status";
import { signingCost } from "@/server/promotion/guards";
import type { PromotionStateName } from "@/server/promotion/state";
import { actorCan, type Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db/client";
import type { ResourceRef } from "@/server/gate/receipt/refs";
import type { CanaryBoundary } from "@/server/gate/receipt/stage1";
import { candidateLabel } from "@/server/receipts/candidate-names";
import { rollbackOptions, type RollbackOptions } from "./rollback";
import { approvalSnapshot, viewerOf, type ApprovalSnapshot } from "./snapshot";
import type { ReceiptSource } from "./source";

export type ApprovalPanel = {
  candidateId: string;
  agent: string;
  candidate: ResourceRef;
  /** "<agent> · <resources> v<n>", and "reference A" etc. for the spec's four reference candidates. */
  title: string;
  label: string | null;
  verdict: string;
  /** The verdict as people read it: STALE when only stale evidence stands in the way. */
  status: CandidateStatus;
  step: "canary" | "default";
  /** The step the promotion state machine says is open in this cycle; null when none is (promoted, rolled back,
   *  declared, gating…): the card then names the state, never "both steps approved" beside READY FOR APPROVAL. */
  pendingStep: "canary" | "default" | null;
  /** The promotion state (server/promotion) and its sentence of what comes next. */
  promotion: { state: PromotionStateName; label: string; cycle: number };
  /** STALE: what each stale check said before it went stale ("" when nothing is stale). */
  said: string;
  /** What signing this step will cost the signer, shown before the signature. */
  cost: string;
  sentence: string;
  scoreGain: number | null;
  open: OpenCheck[];
  stale: StaleCheckSummary[];
  decided: StepDecision | null;
  /** After an approval: what happens next. */
  next: string | null;
  availability: Availability;
  canReject: boolean;
  /** May the viewer queue a gate re-run (gate:run for this agent)? */
  canRerun: boolean;
  confirm: { pointer: { kind: string; from: ResourceRef | null; to: ResourceRef }; scope: string; boundary: CanaryBoundary };
};

function nextStep(snap: ApprovalSnapshot): string | null {
  if (snap.promotion.name === "rolled-back" || snap.promotion.name === "superseded" || snap.promotion.name === "canary-aborted") return snap.promotion.next;
  if (snap.situation.decided?.decision !== "approve" || snap.situation.open.length) return null;
  const b = snap.receipt.stage1.expectedEvidence.canaryBoundary;
  if (snap.step === "canary") {
    return `the bounded canary runs inside its boundary (≤ ${b.maxTasks} tasks, ≤ ${Math.round(b.maxWallTimeSeconds / 60)} min, ≤ $${b.maxCostUsd}); its outcomes are verified and checks 6–7 are judged again on the canary's own receipt, then a release approver decides the approved-default step.`;
  }
  return "the approved default names this candidate; rolling it back to its exact parent stays available below.";
}

export function panelOf(snap: ApprovalSnapshot, actor: Actor | null, viewer: Viewer): ApprovalPanel {
  const c = snap.state.candidate;
  const availability = approvalAvailability(snap.situation, viewer);
  const canReject =
    !!actor && !!snap.target && snap.situation.decided === null && !snap.situation.excluded.includes(actor.id) && actor.grants.some((g) => (g.agent === null || g.agent === c.agent) && ["canary_approver", "release_approver"].includes(g.role));
  const name = candidateLabel(c);
  return {
    candidateId: c.id,
    agent: c.agent,
    candidate: snap.candidate,
    title: name.title,
    label: name.label,
    verdict: snap.report.verdict,
    status: candidateStatus(snap.report.verdict, snap.situation.open, snap.promotion),
    step: snap.step,
    pendingStep: snap.promotion.step,
    promotion: { state: snap.promotion.name, label: snap.promotion.label, cycle: snap.promotion.cycle },
    said: staleSaid(snap.situation.open),
    cost: signingCost(snap.facts, snap.step),
    sentence: snap.report.sentence,
    scoreGain: snap.report.scoreGain,
    open: [...snap.situation.open],
    stale: [...snap.situation.stale],
    decided: snap.situation.decided,
    next: nextStep(snap),
    availability,
    canReject,
    canRerun: !!actor && actorCan(actor, "gate:run", c.agent),
    confirm: {
      pointer: { kind: STEP_POINTERS[snap.step], from: snap.pointerFrom, to: snap.candidate },
      scope: STEP_SCOPES[snap.step],
      boundary: snap.receipt.stage1.expectedEvidence.canaryBoundary,
    },
  };
}

export async function approvalPanel(db: Db, source: ReceiptSource, actor: Actor | null, candidateId: string, now = new Date()) {
  const snap = await approvalSnapshot(db, source, candidateId, now);
  const agent = snap.state.candidate.agent;
  const rollback: RollbackOptions[] = [await rollbackOptions(db, source, agent, "canary", actor), await rollbackOptions(db, source, agent, "approved_default", actor)];
  return { panel: panelOf(snap, actor, await viewerOf(db, actor)), rollback };
}
