// `POST /v1/gate/verifications`: the record of how one canary outcome was verified, by a verifier (a
// `verifier` key, or a person holding `canary:verify` for the agent) — never by the receipt's author.
// The rollout must be a canary task a gate run enqueued (gate_run_tasks, written by the orchestrator) and
// must have finished; one record per rollout, append-only.
import { AUDIT_LOCK, appendAudit } from "@/server/audit/audit-log";
import type { Actor } from "@/server/auth/actor";
import type { Database, Db } from "@/server/db/client";
import { canonicalJson, newId } from "@/server/digest";
import { TERMINAL_ROLLOUT_STATUSES, type RolloutStatus } from "@/server/store/types";
import { DomainError } from "@/server/errors";
import { rolloutVerified } from "@/server/store/ended";
import { badField } from "./answer";
import { MAX_VERIFICATION_TEXT, type RecordVerificationBody } from "./verifications.schema";

export const CANARY_PHASES = ["canary", "canary_stage"] as const;

/** What a canary task belongs to: its gate run, the candidate's agent, and who may not verify it. */
export async function canaryTaskOf(db: Db, rolloutId: string) {
  const task = await db.gateRunTask.findUnique({ where: { rolloutId } });
  if (!task || !(CANARY_PHASES as readonly string[]).includes(task.phase)) return null;
  const run = await db.gateRun.findUnique({ where: { id: task.gateRunId }, select: { id: true, candidateId: true } });
  const candidate = run && (await db.candidate.findUnique({ where: { id: run.candidateId }, select: { id: true, agent: true, stage1: true, createdById: true } }));
  if (!run || !candidate) return null;
  const declaredBy = (JSON.parse(candidate.stage1) as { declaredBy?: string }).declaredBy;
  return { task, gateRunId: run.id, agent: candidate.agent, authors: new Set([candidate.createdById, declaredBy].filter((x): x is string => typeof x === "string")) };
}

function evidenceText(field: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === "string" ? value : canonicalJson(value);
  if (text.length > MAX_VERIFICATION_TEXT) throw badField(field, `must be at most ${MAX_VERIFICATION_TEXT} characters (as JSON text)`);
  return text;
}

export async function recordVerification(database: Database, actor: Actor, body: RecordVerificationBody, authorize: (agent: string) => void): Promise<{ verificationId: string; gateRunId: string }> {
  const expected = evidenceText("expected", body.expected);
  const observed = evidenceText("observed", body.observed);
  const of = await canaryTaskOf(database.db, body.rollout_id);
  if (!of) throw badField("rollout_id", `${body.rollout_id.slice(0, 200)} is not a canary task of any gate run`);
  authorize(of.agent);
  if (of.authors.has(actor.id)) throw new DomainError("FORBIDDEN", `${actor.name} declared or registered this receipt and may not verify its canary outcomes`);
  const rollout = await database.db.storeRollout.findUnique({ where: { rolloutId: body.rollout_id }, select: { status: true } });
  if (!rollout || !TERMINAL_ROLLOUT_STATUSES.includes(rollout.status as RolloutStatus)) {
    throw new DomainError("PRECONDITION_FAILED", `rollout_id: ${body.rollout_id.slice(0, 200)} has not finished (${rollout?.status ?? "gone from the store"}); verify it once it has`, "rollout_id");
  }
  const id = newId("gv");
  await database.transaction(
    async (tx) => {
      const existing = await tx.gateVerification.findUnique({ where: { rolloutId: body.rollout_id }, select: { id: true } });
      if (existing) throw new DomainError("CONFLICT", `rollout_id: ${body.rollout_id.slice(0, 200)} already has a verification (${existing.id}); a record is never replaced`, "rollout_id");
      await tx.gateVerification.create({
        data: { id, rolloutId: body.rollout_id, gateRunId: of.gateRunId, method: body.method, matched: body.matched, confidence: body.confidence ?? null, expected, observed, note: body.note ?? null, verifierId: actor.id, verifierKind: actor.kind, createdAt: new Date() },
      });
      await appendAudit(tx, { actor, action: "gate.verification.record", target: { type: "rollout", id: body.rollout_id }, after: { id, gateRun: of.gateRunId, method: body.method, matched: body.matched, confidence: body.confidence ?? null } });
    },
    { locks: [AUDIT_LOCK, `gate-verification:${body.rollout_id}`] },
  );
  rolloutVerified(database, body.rollout_id);
  return { verificationId: id, gateRunId: of.gateRunId };
}
