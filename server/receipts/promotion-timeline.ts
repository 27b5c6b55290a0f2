// The promotion timeline's database edge: the sealed chain's links (stage 1's declaration, each stage 3 with the
// versions that produced it, approvals, canary stages) and the signed rollbacks off this candidate (the canary
// guard's aborts among them), with people by name — handed to the pure builder (server/promotion/timeline.ts).
import { displayNames, nameOf } from "@/server/auth/display-names";
import type { Db, Tx } from "@/server/db/client";
import type { SealedLink } from "@/server/gate/receipt/seal";
import type { Stage1 } from "@/server/gate/receipt/stage1";
import type { CanaryStage, ProducedBy, Stage3 } from "@/server/gate/receipt/stage3";
import type { Approval } from "@/server/gate/receipt/approval";
import type { VersionSet } from "@/server/gate/versions";
import type { PromotionFacts } from "@/server/promotion/facts";
import type { PromotionState } from "@/server/promotion/state";
import { buildTimeline, type ProducedWith, type Timeline, type TimelineFact } from "@/server/promotion/timeline";
import { CANARY_GUARD } from "./gate-run/canary-stage";

const produced = (versions: VersionSet, by: ProducedBy | undefined): ProducedWith => ({
  versions,
  evaluator: by?.evaluator ?? null,
  parent: by ? { resourceId: by.parent.resourceId, version: by.parent.version } : null,
});

/** The rollbacks that moved a pointer off this candidate — as promotion-facts.ts counts them (after a pointer first named it). */
async function rollbacksOff(db: Db | Tx, candidate: { id: string; agent: string; digest: string }) {
  const firstNamed = await db.pointerMove.findFirst({ where: { agent: candidate.agent, candidateId: candidate.id }, orderBy: [{ at: "asc" }, { id: "asc" }], select: { at: true } });
  if (!firstNamed) return [];
  return db.approvalDecision.findMany({
    where: { agent: candidate.agent, action: "rollback", fromDigest: candidate.digest, at: { gte: firstNamed.at } },
    orderBy: [{ at: "asc" }, { id: "asc" }],
    select: { pointerKind: true, actorId: true, actorName: true, comment: true, toResourcesId: true, at: true },
  });
}

export async function promotionTimeline(
  db: Db | Tx,
  input: { candidate: { id: string; agent: string; digest: string }; chain: readonly SealedLink[]; facts: PromotionFacts; state: PromotionState },
): Promise<Timeline> {
  const { chain, facts, state } = input;
  const stage1 = chain.find((l) => l.kind === "stage1")?.content as Stage1 | undefined;
  const approvals = chain.filter((l) => l.kind === "approval").map((l) => l.content as Approval);
  const names = await displayNames(db, [...(stage1 ? [stage1.declaredBy] : []), ...approvals.map((a) => a.actor.id)]);
  const out: TimelineFact[] = [];
  for (const l of chain) {
    if (l.kind === "stage1" && stage1) out.push({ kind: "declared", by: nameOf(names, stage1.declaredBy), at: stage1.declaredAt });
    else if (l.kind === "stage3") {
      const s = l.content as Stage3;
      out.push({ kind: "gate-run", at: l.sealedAt, runId: s.producedBy?.gateRun ?? null, produced: produced(s.versions, s.producedBy), carriesCanaryStage: Boolean(s.carriesCanaryStage) });
    } else if (l.kind === "approval") {
      const a = l.content as Approval;
      out.push({ kind: "approval", step: a.step, decision: a.decision, by: nameOf(names, a.actor.id), at: l.sealedAt, ...(a.comment ? { comment: a.comment } : {}) });
    } else if (l.kind === "canary-stage") {
      const c = l.content as CanaryStage;
      const stop = c.canary.stop;
      const aborted = stop?.kind === "breach" || stop?.kind === "rolled_back";
      out.push({ kind: "canary-stage", at: l.sealedAt, outcome: aborted ? "aborted" : "sealed", ...(aborted ? { reason: stop.reason } : {}), produced: produced(c.versions, c.producedBy) });
    }
  }
  for (const r of await rollbacksOff(db, input.candidate)) {
    out.push({
      kind: "rollback",
      pointer: r.pointerKind === "canary" ? "canary" : "approved_default",
      by: r.actorName,
      at: r.at.toISOString(),
      reason: r.comment ?? "no reason recorded",
      guard: r.actorId === CANARY_GUARD.id,
      to: r.toResourcesId,
    });
  }
  return buildTimeline({ candidateId: input.candidate.id, state, facts: out, open: facts.gate?.open ?? [], supersededBy: facts.supersededBy });
}
