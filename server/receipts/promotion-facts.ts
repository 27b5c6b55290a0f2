// The promotion state machine's facts for one candidate (server/promotion/facts.ts), read from the sealed chain,
// the gate report, the gate runs, the pointers and the signed rollbacks — on the caller's client, so inside an
// approval's transaction the machine decides on what commits.
import type { CheckSaid, PromotionEvent, PromotionFacts } from "@/server/promotion/facts";
import type { RollbackFacts } from "@/server/promotion/guards";
import { canaryStageFacts } from "@/server/promotion/rerun";
import { CANARY_GUARD } from "./gate-run/canary-stage";
import type { Db, Tx } from "@/server/db/client";
import type { GateReport } from "@/server/gate/gate";
import type { SealedLink } from "@/server/gate/receipt/seal";
import type { Receipt } from "@/server/gate/receipt/view";
import { openChecks } from "@/lib/candidates/status";
import type { GatePolicy } from "@/server/gate/policy";
import type { LateEvidence } from "@/server/gate/freshness";
import type { VersionSet } from "@/server/gate/versions";

/** What the receipt edge knows of the candidate (approvals' ReceiptState and the stored gate report both have it). */
export type PromotionInput = {
  candidate: { id: string; agent: string; digest: string; resourcesId: string; parent: { digest: string } };
  chain: readonly SealedLink[];
  excluded: readonly string[];
  currentVersions: VersionSet;
  policy: GatePolicy;
  lateEvidence?: readonly LateEvidence[];
};

const CANARY_STOPS_THAT_ABORT = new Set(["breach", "rolled_back"]);

function chainEvents(chain: readonly SealedLink[]): PromotionEvent[] {
  return chain.flatMap((l): PromotionEvent[] => {
    if (l.kind === "stage3") return [{ kind: "gate-run", at: l.sealedAt }];
    if (l.kind === "approval") {
      const a = l.content as { step: "canary" | "default"; decision: "approve" | "reject"; actor: { id: string } };
      return [{ kind: "approval", step: a.step, decision: a.decision, actorId: a.actor.id, at: l.sealedAt }];
    }
    if (l.kind === "canary-stage") {
      const stop = (l.content as { canary?: { stop?: { kind: string; reason: string } } }).canary?.stop;
      return [stop && CANARY_STOPS_THAT_ABORT.has(stop.kind) ? { kind: "canary-aborted", at: l.sealedAt, reason: stop.reason } : { kind: "canary-sealed", at: l.sealedAt }];
    }
    return [];
  });
}

/** What each open check says now and — stale — what it said before. */
export function checksSaid(report: GateReport): CheckSaid[] {
  const all = [...report.checks, ...(report.canaryStageChecks ?? [])];
  return openChecks(report).map((c) => {
    const r = all.find((x) => x.id === c.check && x.status === c.status);
    return { check: c.check, title: c.title, status: c.status, ...(r?.stale ? { was: r.stale.was, said: r.stale.said, staleBecause: r.stale.reasons.map((x) => x.sentence) } : {}) };
  });
}

/** The order in which values first became `pointer`'s value, and the values a rollback (or the guard's abort) moved it away from. */
export async function rollbackFactsOf(db: Db | Tx, agent: string, pointer: "canary" | "approved_default", current: string | null): Promise<RollbackFacts> {
  const moves = await db.pointerMove.findMany({ where: { agent, kind: pointer }, orderBy: [{ at: "asc" }, { id: "asc" }], select: { fromDigest: true, toDigest: true } });
  const arrivals: string[] = [];
  for (const m of moves) {
    if (m.fromDigest && !arrivals.includes(m.fromDigest)) arrivals.push(m.fromDigest);
    if (!arrivals.includes(m.toDigest)) arrivals.push(m.toDigest);
  }
  const rollbacks = await db.approvalDecision.findMany({ where: { agent, action: "rollback", pointerKind: pointer }, select: { fromDigest: true } });
  return { pointer, current, arrivals, rolledBackFrom: [...new Set(rollbacks.flatMap((r) => (r.fromDigest ? [r.fromDigest] : [])))] };
}

export async function promotionFacts(db: Db | Tx, state: PromotionInput, receipt: Receipt, report: GateReport, now: Date): Promise<PromotionFacts> {
  const c = state.candidate;
  const [canary, approvedDefault] = await Promise.all([
    db.pointer.findUnique({ where: { agent_kind: { agent: c.agent, kind: "canary" } }, select: { digest: true, candidateId: true } }),
    db.pointer.findUnique({ where: { agent_kind: { agent: c.agent, kind: "approved_default" } }, select: { digest: true, candidateId: true, movedAt: true } }),
  ]);
  const runs = await db.gateRun.findMany({ where: { candidateId: c.id, status: { in: ["queued", "running"] } }, select: { kind: true } });
  // Rollbacks away from this candidate: only after a pointer first named it (another candidate may share its digest).
  const first = await db.pointerMove.findFirst({ where: { agent: c.agent, candidateId: c.id }, orderBy: [{ at: "asc" }, { id: "asc" }], select: { at: true } });
  // The guard's abort is recorded as a rollback decision too, but it is the canary stage's own end (the chain's
  // aborted canary-stage link says so): the candidate reads CANARY ABORTED, not ROLLED BACK.
  const rollbacks = first
    ? await db.approvalDecision.findMany({ where: { agent: c.agent, action: "rollback", fromDigest: c.digest, at: { gte: first.at }, actorId: { not: CANARY_GUARD.id } }, orderBy: [{ at: "asc" }, { id: "asc" }] })
    : [];
  const history = [
    ...chainEvents(state.chain),
    ...rollbacks.map((r): PromotionEvent => ({ kind: "rollback", pointer: r.pointerKind === "canary" ? "canary" : "approved_default", at: r.at.toISOString(), by: r.actorId })),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const defaults = await rollbackFactsOf(db, c.agent, "approved_default", approvedDefault?.digest ?? null);
  const stage = canaryStageFacts(receipt, { versions: state.currentVersions, policy: state.policy, now, lateEvidence: state.lateEvidence });
  const stageRunning = runs.some((r) => r.kind === "canary-stage");
  const lastRun = history.findLast((e) => e.kind === "gate-run")?.at;
  const other = approvedDefault && approvedDefault.digest !== c.digest && approvedDefault.digest !== c.parent.digest;
  return {
    candidate: { id: c.id, digest: c.digest, resourceId: c.resourcesId, parentDigest: c.parent.digest },
    excluded: state.excluded,
    history,
    gate: receipt.stage3 ? { verdict: report.verdict, step: report.step, open: checksSaid(report) } : null,
    gateRunning: runs.some((r) => r.kind === "admission"),
    // A stage run open now is the current cycle's: it reads running even when an earlier cycle's stage sealed.
    canaryStage: stageRunning ? { state: "running", fresh: true, staleBecause: [] } : stage,
    pointers: { canary: canary?.digest ?? null, approvedDefault: approvedDefault?.digest ?? null, canaryCandidateId: canary?.candidateId ?? null, approvedDefaultCandidateId: approvedDefault?.candidateId ?? null },
    approvedDefaults: defaults.arrivals,
    rolledBackFrom: defaults.rolledBackFrom,
    supersededBy: other && lastRun && approvedDefault.movedAt.toISOString() > lastRun ? approvedDefault.digest : null,
  };
}
