// One agent's three pointers now and every move each one made, newest first: who moved it (by name), why, the
// candidates on either side, and whether a signed decision stands behind the move (an approval, a person's
// rollback, or the canary guard's abort — each commits its decision row in the move's own transaction, same `at`).
import { displayNames, nameOf } from "@/server/auth/display-names";
import type { Db } from "@/server/db/client";
import { POINTER_KINDS, type PointerKind } from "@/server/candidates/pointers";
import { CANARY_GUARD } from "./gate-run/canary-stage";

// Moves are append-only: roots adopted before `rootReason` said it once keep "lineage root: lineage root".
const ROOT_SAID_TWICE = /^lineage root: (?=lineage root\b)/;

export type PointerEnd = { label: string; digest: string; candidateId: string | null };

export type PointerNow = { kind: PointerKind; target: PointerEnd | null; movedBy: string | null; movedAt: Date | null };

export type PointerMoveView = {
  id: string;
  at: Date;
  pointer: PointerKind;
  from: PointerEnd | null;
  to: PointerEnd;
  by: string;
  reason: string;
  /** The signed decision committed with this move (null for an unsigned move, e.g. the latest candidate's). */
  decision: { id: string; action: string; step: string | null } | null;
  /** The canary guard moved it back to the exact parent (a breach or a run that went wrong). */
  guardAbort: boolean;
};

export type AgentPointerHistory = { agent: string; pointers: PointerNow[]; moves: PointerMoveView[]; counts: Record<PointerKind, number> };

export const isPointerKind = (v: string | undefined): v is PointerKind => (POINTER_KINDS as readonly string[]).includes(v ?? "");

/** null when the agent has no candidate and no pointer (an unknown agent). */
export async function agentPointerHistory(db: Db, agent: string, filter: { pointer?: PointerKind } = {}): Promise<AgentPointerHistory | null> {
  const [candidates, pointers, moves, decisions] = await Promise.all([
    db.candidate.findMany({ where: { agent }, select: { id: true, resourcesId: true, version: true, digest: true } }),
    db.pointer.findMany({ where: { agent } }),
    db.pointerMove.findMany({ where: { agent, ...(filter.pointer ? { kind: filter.pointer } : {}) }, orderBy: [{ at: "desc" }, { id: "desc" }] }),
    db.approvalDecision.findMany({ where: { agent, action: { in: ["approve", "rollback"] }, pointerKind: { not: null } }, select: { id: true, action: true, step: true, pointerKind: true, toDigest: true, actorName: true, at: true } }),
  ]);
  if (!candidates.length && !pointers.length) return null;
  const byVersion = new Map(candidates.map((c) => [`${c.resourcesId}\u0000${c.version}`, c.id]));
  const end = (resourcesId: string, version: number, digest: string, candidateId?: string | null): PointerEnd => ({
    label: `${resourcesId} v${version}`,
    digest,
    candidateId: candidateId ?? byVersion.get(`${resourcesId}\u0000${version}`) ?? null,
  });
  const names = await displayNames(db, [...moves.map((m) => m.actorId), ...pointers.map((p) => p.movedById)]);
  const who = (id: string) => (id === CANARY_GUARD.id ? CANARY_GUARD.name : nameOf(names, id));
  const decisionOf = (m: (typeof moves)[number]) =>
    decisions.find((d) => d.pointerKind === m.kind && d.toDigest === m.toDigest && d.at.getTime() === m.at.getTime()) ?? null;
  const counts = Object.fromEntries(POINTER_KINDS.map((k) => [k, 0])) as Record<PointerKind, number>;
  for (const g of await db.pointerMove.groupBy({ by: ["kind"], where: { agent }, _count: { _all: true } })) if (isPointerKind(g.kind)) counts[g.kind] = g._count._all;
  return {
    agent,
    pointers: POINTER_KINDS.map((kind) => {
      const p = pointers.find((x) => x.kind === kind);
      return { kind, target: p ? end(p.resourcesId, p.version, p.digest, p.candidateId) : null, movedBy: p ? who(p.movedById) : null, movedAt: p?.movedAt ?? null };
    }),
    moves: moves.flatMap((m): PointerMoveView[] => {
      if (!isPointerKind(m.kind)) return [];
      const d = decisionOf(m);
      return [{
        id: m.id,
        at: m.at,
        pointer: m.kind,
        from: m.fromResourcesId && m.fromVersion !== null && m.fromDigest ? end(m.fromResourcesId, m.fromVersion, m.fromDigest) : null,
        to: end(m.toResourcesId, m.toVersion, m.toDigest, m.candidateId),
        by: d?.actorName ?? who(m.actorId),
        reason: m.reason.replace(ROOT_SAID_TWICE, ""),
        decision: d && { id: d.id, action: d.action, step: d.step },
        guardAbort: m.actorId === CANARY_GUARD.id,
      }];
    }),
    counts,
  };
}
