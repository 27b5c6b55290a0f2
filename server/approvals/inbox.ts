// /approvals, the approver's inbox, read from the same sealed receipts the candidate pages judge (one source
// of truth): what needs the viewer's signature, what waits on a gate re-run or on someone else, what is in
// each agent's bounded canary now, and the recent decisions by name — the approvals sealed on receipts
// together with the rollbacks and refused attempts recorded beside them.
import { candidateStatus, type CandidateStatus } from "@/lib/candidates/status";
import type { Actor } from "@/server/auth/actor";
import { displayNames, nameOf } from "@/server/auth/display-names";
import type { Db } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import type { Approval } from "@/server/gate/receipt/approval";
import { candidateLabel } from "@/server/receipts/candidate-names";
import type { PromotionStateName } from "@/server/promotion/state";
import { panelOf, type ApprovalPanel } from "./panel";
import { rollbackOptions, type RollbackOptions } from "./rollback";
import { approvalSnapshot, viewerOf, type ApprovalSnapshot } from "./snapshot";
import type { ReceiptSource } from "./source";

export type CanaryNow = {
  agent: string;
  candidateId: string | null;
  title: string;
  label: string | null;
  since: Date;
  by: string;
  status: CandidateStatus | null;
  sentence: string;
};

export type RecentDecision = {
  id: string;
  action: string;
  agent: string;
  candidateId: string | null;
  /** The candidate's name, or the resources the pointer moved to; its reference letter in the demo. */
  title: string | null;
  label: string | null;
  step: string | null;
  pointerKind: string | null;
  actorName: string;
  at: Date;
  comment: string | null;
  refusal: string | null;
  linkDigest: string | null;
};

/** The promotion machine's states that wait on a person: a step ready for approval, or stale evidence waiting on a re-run. */
const WAITING = new Set<PromotionStateName>(["ready-for-canary", "ready-for-default", "stale"]);
/** Waiting for a decision, as the promotion machine reads the candidate, with nothing decided yet on the open step. */
const awaiting = (snap: ApprovalSnapshot) => snap.target !== null && snap.situation.decided === null && WAITING.has(snap.promotion.name);

const loadSnapshot = (db: Db, source: ReceiptSource, id: string, now: Date) =>
  approvalSnapshot(db, source, id, now).catch((e) => {
    if (e instanceof DomainError && (e.code === "NOT_FOUND" || e.code === "PRECONDITION_FAILED")) return null;
    throw e;
  });

/** Approvals sealed on the receipts that no decision row records (a fixture's, or one sealed by a script). */
function sealedOnly(snaps: readonly ApprovalSnapshot[], recorded: ReadonlySet<string>) {
  const out: { snap: ApprovalSnapshot; approval: Approval; digest: string }[] = [];
  for (const snap of snaps) {
    for (const link of snap.state.chain) {
      if (link.kind !== "approval" || recorded.has(link.digest)) continue;
      out.push({ snap, approval: link.content as unknown as Approval, digest: link.digest });
    }
  }
  return out;
}

export async function listApprovals(db: Db, source: ReceiptSource, actor: Actor | null, input: { agent?: string; limit?: number }, now = new Date()) {
  const limit = input.limit ?? 50;
  const viewer = await viewerOf(db, actor);
  const ids = (await source.listCandidateIds(db, input.agent)).slice(0, 200);
  const snaps: ApprovalSnapshot[] = [];
  for (const id of ids) {
    const snap = await loadSnapshot(db, source, id, now);
    if (snap) snaps.push(snap);
  }
  const needsYou: ApprovalPanel[] = [];
  const waitingOnRerun: ApprovalPanel[] = [];
  const awaitingOthers: ApprovalPanel[] = [];
  for (const snap of snaps.filter(awaiting)) {
    const panel = panelOf(snap, actor, viewer);
    const a = panel.availability;
    if (snap.promotion.name === "stale") waitingOnRerun.push(panel);
    else if (a.enabled || a.code === "passkey") needsYou.push(panel);
    else awaitingOthers.push(panel);
  }

  const rows = await db.approvalDecision.findMany({
    where: input.agent ? { agent: input.agent } : {},
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, action: true, agent: true, candidateId: true, step: true, pointerKind: true, toResourcesId: true, actorName: true, comment: true, refusal: true, linkDigest: true, at: true },
  });
  const byId = new Map(snaps.map((s) => [s.state.candidate.id, s]));
  const nameFor = (candidateId: string | null, fallback: string | null) => {
    const c = candidateId ? byId.get(candidateId)?.state.candidate : undefined;
    return c ? candidateLabel(c) : { title: fallback, label: null };
  };
  const titleOf = (candidateId: string | null, fallback: string | null) => nameFor(candidateId, fallback).title;
  const recorded = new Set((await db.approvalDecision.findMany({ where: { candidateId: { in: [...byId.keys()] }, linkDigest: { not: null } }, select: { linkDigest: true } })).map((r) => r.linkDigest!));
  const sealed = sealedOnly(snaps, recorded);
  const names = await displayNames(db, sealed.map((s) => s.approval.actor.id));
  const recent: RecentDecision[] = [
    ...rows.map((r) => ({ ...r, ...nameFor(r.candidateId, r.toResourcesId) })),
    ...sealed.map(({ snap, approval, digest }) => ({
      id: digest,
      action: approval.decision,
      agent: snap.state.candidate.agent,
      candidateId: snap.state.candidate.id,
      ...candidateLabel(snap.state.candidate),
      step: approval.step,
      pointerKind: null,
      actorName: nameOf(names, approval.actor.id),
      at: new Date(approval.at),
      comment: approval.comment || null,
      refusal: null,
      linkDigest: digest,
    })),
  ]
    .sort((a, b) => b.at.getTime() - a.at.getTime() || b.id.localeCompare(a.id))
    .slice(0, limit);

  const pointers = await db.pointer.findMany({ where: { kind: { in: ["canary", "approved_default"] }, ...(input.agent ? { agent: input.agent } : {}) }, orderBy: { agent: "asc" } });
  const movers = await displayNames(db, pointers.map((p) => p.movedById));
  const inCanary: CanaryNow[] = pointers
    .filter((p) => p.kind === "canary")
    .map((p) => {
      const snap = p.candidateId ? byId.get(p.candidateId) : undefined;
      return {
        agent: p.agent,
        candidateId: p.candidateId,
        title: titleOf(p.candidateId, `${p.agent} · ${p.resourcesId} v${p.version}`)!,
        label: candidateLabel({ agent: p.agent, resourcesId: p.resourcesId, version: p.version }).label,
        since: p.movedAt,
        by: nameOf(movers, p.movedById),
        status: snap ? candidateStatus(snap.report.verdict, snap.situation.open, snap.promotion) : null,
        sentence: snap?.report.sentence ?? "Not a candidate with a receipt (a rollback target).",
      };
    });
  const rollback: RollbackOptions[] = [];
  for (const agent of [...new Set(pointers.map((p) => p.agent))]) {
    rollback.push(await rollbackOptions(db, source, agent, "canary", actor), await rollbackOptions(db, source, agent, "approved_default", actor));
  }
  return { needsYou, waitingOnRerun, awaitingOthers, inCanary, recent, rollback: rollback.filter((r) => r.current) };
}
