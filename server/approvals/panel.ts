// What the approval UI shows: for one candidate, whether the viewer may approve and why not, what the
// approval would change (pointer from → to, scope, canary boundary) and where a rollback may go; for
// /approvals, the candidates awaiting a decision and the recent decisions (refusals included).
import { approvalAvailability, STEP_POINTERS, STEP_SCOPES, type Availability, type StaleCheckSummary } from "@/lib/approvals/availability";
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import type { ResourceRef } from "@/server/gate/receipt/refs";
import type { CanaryBoundary } from "@/server/gate/receipt/stage1";
import { rollbackOptions, type RollbackOptions } from "./rollback";
import { approvalSnapshot, viewerOf, type ApprovalSnapshot } from "./snapshot";
import type { ReceiptSource } from "./source";

export type ApprovalPanel = {
  candidateId: string;
  agent: string;
  candidate: ResourceRef;
  verdict: string;
  step: "canary" | "default";
  sentence: string;
  scoreGain: number | null;
  stale: StaleCheckSummary[];
  decided: "approve" | "reject" | null;
  availability: Availability;
  canReject: boolean;
  confirm: { pointer: { kind: string; from: ResourceRef | null; to: ResourceRef }; scope: string; boundary: CanaryBoundary };
};

function panelOf(snap: ApprovalSnapshot, actor: Actor | null): ApprovalPanel {
  const c = snap.state.candidate;
  const availability = approvalAvailability(snap.situation, viewerOf(actor));
  const canReject =
    !!actor && !!snap.target && snap.situation.decided === null && !snap.situation.excluded.includes(actor.id) && actor.grants.some((g) => (g.agent === null || g.agent === c.agent) && ["canary_approver", "release_approver"].includes(g.role));
  return {
    candidateId: c.id,
    agent: c.agent,
    candidate: snap.candidate,
    verdict: snap.report.verdict,
    step: snap.step,
    sentence: snap.report.sentence,
    scoreGain: snap.report.scoreGain,
    stale: [...snap.situation.stale],
    decided: snap.situation.decided,
    availability,
    canReject,
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
  return { panel: panelOf(snap, actor), rollback };
}

/** Waiting for a decision: nothing decided yet on the open step, and only approval (or a re-run of stale evidence) stands in the way. */
const awaiting = (snap: ApprovalSnapshot) =>
  snap.target !== null &&
  snap.situation.decided === null &&
  (snap.report.verdict === "READY FOR APPROVAL" || (snap.situation.stale.length > 0 && snap.report.blocking.every((b) => b.status === "stale" || (b.check === 7 && b.status === "unavailable"))));

export async function listApprovals(db: Db, source: ReceiptSource, actor: Actor | null, input: { agent?: string; limit?: number }, now = new Date()) {
  const ids = await source.listCandidateIds(db, input.agent);
  const pending: ApprovalPanel[] = [];
  for (const id of ids.slice(0, 200)) {
    const snap = await approvalSnapshot(db, source, id, now).catch((e) => {
      if (e instanceof DomainError && e.code === "NOT_FOUND") return null;
      throw e;
    });
    if (snap && awaiting(snap)) pending.push(panelOf(snap, actor));
  }
  const recent = await db.approvalDecision.findMany({
    where: input.agent ? { agent: input.agent } : {},
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: input.limit ?? 50,
    select: { id: true, action: true, agent: true, candidateId: true, step: true, pointerKind: true, fromDigest: true, toDigest: true, toResourcesId: true, actorId: true, actorName: true, actorKind: true, comment: true, refusal: true, linkDigest: true, at: true },
  });
  const agents = [...new Set((await db.pointer.findMany({ where: { kind: { in: ["canary", "approved_default"] } }, select: { agent: true } })).map((p) => p.agent))].sort();
  const rollback: RollbackOptions[] = [];
  for (const agent of agents) {
    if (input.agent && agent !== input.agent) continue;
    rollback.push(await rollbackOptions(db, source, agent, "canary", actor), await rollbackOptions(db, source, agent, "approved_default", actor));
  }
  return { pending, recent, rollback: rollback.filter((r) => r.current) };
}
