// Gate runs over HTTP: `POST /v1/gate/receipts/{receipt_id}/gate-runs` queues one for the bound candidate
// through the product's own queue (`requestGateRun`, which refuses a receipt that cannot be gated through
// runners), and `GET /v1/gate/gate-runs/{id}` reads where it is and — once judged — the check results it
// recorded against the link it sealed, with what that link says produced it (`judged_with`: the evaluator and the
// versions the run judged with). Read-only beyond the queueing.
import type { Actor } from "@/server/auth/actor";
import type { Database, Db } from "@/server/db/client";
import { requestGateRun } from "@/server/receipts/gate-queue";
import type { DeclarationRecord } from "@/server/receipts/declarations";
import { DomainError } from "@/server/errors";
import type { RequestGateRunBody } from "./gate-runs.schema";

export async function requestRunForReceipt(database: Database, actor: Actor, declaration: DeclarationRecord, input: RequestGateRunBody) {
  if (!declaration.candidateId) {
    throw new DomainError("PRECONDITION_FAILED", `receipt_id: receipt ${declaration.id} has no candidate yet: bind one first (POST /v1/gate/receipts/${declaration.id}/candidate)`, "receipt_id");
  }
  const run = await requestGateRun(database, { candidateId: declaration.candidateId, actor, deadlineSeconds: input.deadline_seconds });
  return { gate_run_id: run.id, receipt_id: declaration.id, candidate_id: run.candidateId, status: run.status, deadline_seconds: run.deadlineSeconds };
}

const parsed = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));

export type CheckView = { id: number; status: string; explanation: string };

/** The admission check results recorded against the link a run sealed (latest per check), with their verdict. */
export async function recordedChecks(db: Db, candidateId: string, linkDigest: string | null): Promise<{ verdict: string | null; checks: CheckView[] | null }> {
  if (!linkDigest) return { verdict: null, checks: null };
  const rows = await db.gateCheckResult.findMany({ where: { candidateId, headDigest: linkDigest, scope: "admission" }, orderBy: [{ evaluatedAt: "desc" }, { id: "desc" }] });
  if (rows.length === 0) return { verdict: null, checks: null };
  const latest = new Map<number, (typeof rows)[number]>();
  for (const r of rows) if (!latest.has(r.check)) latest.set(r.check, r);
  const checks = [...latest.values()].sort((a, b) => a.check - b.check).map((r) => ({ id: r.check, status: r.status, explanation: r.sentence }));
  return { verdict: rows[0]!.verdict, checks };
}

/** What the link a run sealed records as having produced it: the evaluator that judged and the versions it ran with. */
async function judgedWith(db: Db, linkDigest: string | null) {
  if (!linkDigest) return null;
  const link = await db.receiptLink.findUnique({ where: { digest: linkDigest }, select: { content: true } });
  if (!link) return null;
  const content = JSON.parse(link.content) as { versions?: unknown; producedBy?: { evaluator?: { id: string; version: string; digest: string }; evaluatorBodyDigest?: string | null } };
  const e = content.producedBy?.evaluator;
  return {
    evaluator: e ? `${e.id}@${e.version}` : null,
    evaluator_digest: e?.digest ?? null,
    evaluator_body_digest: content.producedBy?.evaluatorBodyDigest ?? null,
    versions: content.versions ?? null,
  };
}

export async function gateRunView(database: Database, id: string) {
  const run = await database.db.gateRun.findUnique({ where: { id } });
  if (!run) return null;
  const declaration = await database.db.receiptDeclaration.findUnique({ where: { candidateId: run.candidateId }, select: { id: true } });
  const { verdict, checks } = await recordedChecks(database.db, run.candidateId, run.linkDigest);
  const judged = await judgedWith(database.db, run.linkDigest);
  return {
      gate_run_id: run.id,
      receipt_id: declaration?.id ?? null,
      candidate_id: run.candidateId,
      kind: run.kind,
      status: run.status,
      phase: run.phase,
      progress: parsed(run.progress),
      requested_at: run.requestedAt.toISOString(),
      started_at: run.startedAt?.toISOString() ?? null,
      finished_at: run.finishedAt?.toISOString() ?? null,
      error: run.error,
      deadline_seconds: run.deadlineSeconds,
      deadline_at: run.deadlineAt?.toISOString() ?? null,
      orchestration_ms: run.orchestrationMs,
      verdict,
      checks,
      judged_with: judged,
  };
}
