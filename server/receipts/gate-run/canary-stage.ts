// The canary stage, Argo-style: after a signed canary-step approval moves the `canary` pointer, a run of kind
// "canary-stage" serves the candidate inside the declared boundary through runners (`lightgate.phase:
// "canary_stage"`), watched from its spans. It closes when the boundary's tasks or time are reached and seals a
// `canary-stage` link (checks 6–7 are then re-judged on it for the default step) — or aborts at the first
// breach, which moves the canary pointer back to the exact parent by itself: signed by the server, recorded as a
// decision, audited, and shown on the receipt (the sealed stage carries the stop and its reason).
import { appendAudit, AUDIT_LOCK, type AuditActor } from "@/server/audit/audit-log";
import { movePointer, pointerLock, readPointer } from "@/server/candidates/pointers";
import type { Database, Tx } from "@/server/db/client";
import { canonicalJson, newId } from "@/server/digest";
import { digestHex } from "@/server/gate/digest";
import { signEnvelope } from "@/server/gate/export/dsse";
import { IN_TOTO_PAYLOAD_TYPE, IN_TOTO_STATEMENT_TYPE } from "@/server/gate/export/statement";
import type { ResourceRef } from "@/server/gate/receipt/refs";
import type { Stage1 } from "@/server/gate/receipt/stage1";
import { recordDecision } from "@/server/candidates/decision-record";
import { decideAbortMove } from "@/server/promotion/guards";
import { receiptSigningKey } from "@/server/keys/signing-key";
import { announceGateRun } from "./news";

/** Who aborts a canary stage: the server's guard, not a person (the pointer history and audit log say so). */
export const CANARY_GUARD: AuditActor = { kind: "system", id: "lightgate-canary-guard", name: "Lightgate canary guard", grants: [] };

export const CANARY_ABORT_PREDICATE = "https://lightgate.dev/attestations/canary-abort/v1";

/**
 * Queues the canary stage inside the approval's transaction: the stage starts only if the approval commits.
 * A receipt whose canary set is not a published gate dataset (evidence imported from elsewhere) has nothing the
 * gate can ask runners for: no stage is queued, and its default step waits on a canary stage sealed some other way.
 */
export async function queueCanaryStage(tx: Tx, input: { candidateId: string; requestedById: string; deadlineSeconds: number; at: Date }) {
  const candidate = await tx.candidate.findUnique({ where: { id: input.candidateId }, select: { stage1: true } });
  if (!candidate) return null; // a receipt held elsewhere (an imported or in-memory source): nothing in this store to serve
  const canaryId = (JSON.parse(candidate.stage1) as { data?: { canary?: { id?: unknown } } }).data?.canary?.id;
  if (typeof canaryId !== "string" || !(await tx.gateDataset.findUnique({ where: { id: canaryId }, select: { id: true } }))) return null;
  const open = await tx.gateRun.findFirst({ where: { candidateId: input.candidateId, kind: "canary-stage", status: { in: ["queued", "running"] } } });
  if (open) return open;
  const run = await tx.gateRun.create({
    data: { id: newId("gr"), candidateId: input.candidateId, kind: "canary-stage", status: "queued", phase: "queued", requestedById: input.requestedById, requestedAt: input.at, deadlineSeconds: input.deadlineSeconds },
  });
  await announceGateRun(tx, run.id);
  return run;
}

export type AbortInput = { runId: string; candidateId: string; agent: string; candidate: ResourceRef; parent: ResourceRef; reason: string; at: Date };

/**
 * Moves the canary pointer back to the exact parent — only while it still names this candidate (a person may
 * have rolled it back or moved it meanwhile; then nothing moves and the abort says so). Returns what happened.
 */
export async function abortCanaryStage(database: Database, input: AbortInput): Promise<{ moved: boolean; detail: string }> {
  const key = await receiptSigningKey(database.db);
  return database.transaction(
    async (tx) => {
      const current = await readPointer(tx, input.agent, "canary");
      // The promotion state machine decides the move (back to the exact parent, or nothing when the pointer moved off).
      const decision = decideAbortMove(current?.digest ?? null, input.candidate.digest, input.parent.digest);
      if (!decision.allowed || !decision.move) {
        const detail = `the canary pointer no longer names ${input.candidate.resourceId} (it names ${current?.resourcesId ?? "nothing"}): nothing to move back`;
        await appendAudit(tx, { actor: CANARY_GUARD, action: "canary.stage.abort", target: { type: "candidate", id: input.candidateId }, after: { run: input.runId, reason: input.reason, moved: false, detail } });
        return { moved: false, detail };
      }
      const parentCandidate = await tx.candidate.findFirst({ where: { agent: input.agent, digest: input.parent.digest }, select: { id: true } });
      const earlier = await tx.pointerMove.findFirst({ where: { agent: input.agent, toDigest: input.parent.digest, receiptDigest: { not: null } }, orderBy: [{ at: "desc" }, { id: "desc" }] });
      const reason = `canary stage aborted: ${input.reason}`;
      await movePointer(tx, {
        agent: input.agent,
        kind: "canary",
        decision,
        to: { resourcesId: input.parent.resourceId, version: input.parent.version, digest: input.parent.digest, candidateId: parentCandidate?.id ?? null, receiptDigest: earlier?.receiptDigest ?? null },
        actor: CANARY_GUARD,
        reason,
        at: input.at,
      });
      const statement = {
        _type: IN_TOTO_STATEMENT_TYPE,
        subject: [{ name: input.parent.resourceId, digest: { sha256: digestHex(input.parent.digest as `sha256:${string}`) } }],
        predicateType: CANARY_ABORT_PREDICATE,
        predicate: { agent: input.agent, gateRun: input.runId, candidate: input.candidate, pointer: { kind: "canary", from: input.candidate, to: input.parent }, reason: input.reason, abortedAt: input.at.toISOString(), by: CANARY_GUARD.id },
      };
      const envelope = signEnvelope(Buffer.from(canonicalJson(statement), "utf8"), IN_TOTO_PAYLOAD_TYPE, key.privateKey, key.keyid);
      const row = await recordDecision(tx, CANARY_GUARD, input.at, {
        action: "rollback",
        agent: input.agent,
        candidateId: input.candidateId,
        step: "canary",
        pointerKind: "canary",
        fromDigest: input.candidate.digest,
        toDigest: input.parent.digest,
        toResourcesId: input.parent.resourceId,
        comment: reason,
        envelope,
      });
      await appendAudit(tx, {
        actor: CANARY_GUARD,
        action: "canary.stage.abort",
        target: { type: "candidate", id: input.candidateId },
        before: input.candidate,
        after: { run: input.runId, decisionId: row.id, to: input.parent, reason: input.reason, moved: true },
      });
      return { moved: true, detail: `the canary pointer is back on ${input.parent.resourceId} v${input.parent.version}` };
    },
    { locks: [AUDIT_LOCK, pointerLock(input.agent)] },
  );
}

/** The abort of a canary-stage run of this stage 1's candidate, back to its exact parent. */
export function abortStageOf(database: Database, run: { id: string; candidateId: string }, stage1: Stage1, reason: string, at: Date) {
  const candidate = { resourceId: stage1.candidate.resourceId, version: stage1.candidate.version ?? 1, digest: stage1.candidate.digest! };
  return abortCanaryStage(database, { runId: run.id, candidateId: run.candidateId, agent: stage1.agent, candidate, parent: stage1.parent, reason, at });
}

/** Why the canary stage must stop serving: the canary pointer no longer names the candidate (null: it does). */
export async function canaryPointerMovedOff(database: Database, ctx: { stage1: { agent: string; candidate: { resourceId: string; digest?: string | null } } }): Promise<string | null> {
  const { agent, candidate } = ctx.stage1;
  const pointer = await readPointer(database.db, agent, "canary");
  if (pointer?.digest === candidate.digest) return null;
  const move = await database.db.pointerMove.findFirst({ where: { agent, kind: "canary" }, orderBy: [{ at: "desc" }, { id: "desc" }], select: { actorId: true, reason: true } });
  const by = move ? ` by ${move.actorId}${move.reason ? ` (${move.reason.slice(0, 200)})` : ""}` : "";
  return `the canary pointer was moved off ${candidate.resourceId} to ${pointer?.resourcesId ?? "nothing"}${by}`;
}
