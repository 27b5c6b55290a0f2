// Evaluation and A/B-test jobs: recorded (with an audit row) when started, then run in this server
// process with their progress written as they go — they take seconds to a few minutes, well inside one
// process's life. A job that was queued or running when the process stopped shows as interrupted.
import { canonicalJson, newId } from "@/server/digest";
import type { Database } from "@/server/db/client";
import { appendAudit, AUDIT_LOCK, type AuditActor } from "@/server/audit/audit-log";
import { DomainError } from "@/server/errors";
import { checkAbTestRequest, runAbTest, type AbTestReport, type AbTestRequest } from "./ab";
import { assertDataExists, storedPolicy } from "./setup";
import { checkEvaluationRequest, runEvaluation, type EvaluationReport, type EvaluationRequest, type Progress } from "./evaluation";

export type JobKind = "evaluation" | "ab-test";
export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "interrupted";

type Row = { id: string; kind: string; name: string; status: string; progress: number; progressNote: string; request: string; result: string | null; error: string | null; createdBy: string; createdAt: Date; startedAt: Date | null; finishedAt: Date | null };

export type JobSummary = { id: string; kind: JobKind; name: string; status: JobStatus; progress: number; progressNote: string; error: string | null; createdBy: string; createdAt: Date; startedAt: Date | null; finishedAt: Date | null; headline: string | null };
export type JobDetail = JobSummary & { request: unknown; result: EvaluationReport | AbTestReport | null };

const PROCESS_STARTED = new Date();
const running = new Map<string, Promise<void>>();

function status(row: Row): JobStatus {
  // A job this process does not hold, left unfinished by an earlier process, will never finish.
  if ((row.status === "queued" || row.status === "running") && !running.has(row.id) && row.createdAt < PROCESS_STARTED) return "interrupted";
  return row.status as JobStatus;
}

/** One line for the list: the A/B verdict on the headline metric, or the evaluation's success rate. */
function headline(kind: string, result: unknown): string | null {
  if (!result) return null;
  if (kind === "ab-test") {
    const m = (result as AbTestReport).metrics[0]!;
    return m.significant ? `significant: Δ ${m.difference >= 0 ? "+" : "−"}${Math.abs(m.difference).toFixed(3)} (p = ${m.welch.pValue.toPrecision(2)})` : `no significant difference (p = ${m.welch.pValue.toPrecision(2)})`;
  }
  const sr = (result as EvaluationReport).metrics.find((m) => m.key === "success-rate");
  return sr && sr.value !== null ? `success ${sr.display}` : ((result as EvaluationReport).metrics.find((m) => m.value !== null)?.display ?? null);
}

function summary(row: Row, result: unknown): JobSummary {
  const { request: _r, result: _x, ...rest } = row;
  return { ...rest, kind: row.kind as JobKind, status: status(row), headline: headline(row.kind, result) };
}

async function execute(database: Database, id: string, work: (progress: Progress) => Promise<unknown>): Promise<void> {
  let lastWrite = 0;
  const progress: Progress = async (fraction, note) => {
    // Progress is for people watching: a write every quarter second is plenty.
    if (Date.now() - lastWrite < 250) return;
    lastWrite = Date.now();
    await database.db.evaluationJob.update({ where: { id }, data: { progress: fraction, progressNote: note } });
  };
  try {
    await database.db.evaluationJob.update({ where: { id }, data: { status: "running", startedAt: new Date() } });
    const result = await work(progress);
    await database.db.evaluationJob.update({ where: { id }, data: { status: "succeeded", progress: 1, progressNote: "done", result: canonicalJson(result), finishedAt: new Date() } });
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    // Nobody awaits a job: a failure to record the failure (database gone) must not become an unhandled rejection.
    await database.db.evaluationJob.update({ where: { id }, data: { status: "failed", error, finishedAt: new Date() } }).catch(() => undefined);
  }
}

async function start(database: Database, actor: AuditActor, kind: JobKind, name: string, request: unknown, work: (progress: Progress) => Promise<unknown>): Promise<{ id: string }> {
  const id = newId(kind === "evaluation" ? "ev" : "ab");
  await database.transaction(
    async (tx) => {
      await tx.evaluationJob.create({ data: { id, kind, name, status: "queued", request: canonicalJson(request), createdById: actor.id, createdBy: actor.name } });
      await appendAudit(tx, { actor, action: `${kind}.start`, target: { type: kind, id }, after: { name, request } });
    },
    { locks: [AUDIT_LOCK] },
  );
  const job = execute(database, id, work).finally(() => running.delete(id));
  running.set(id, job);
  return { id };
}

export async function startEvaluation(database: Database, actor: AuditActor, request: EvaluationRequest) {
  checkEvaluationRequest(request);
  await assertDataExists(database, request.data);
  const s = request.subject;
  if (s.kind === "resource") await storedPolicy(database, s.resourcesId, s.version);
  const name = request.name ?? `${s.kind === "family" ? s.family : `${s.resourcesId} v${s.version}`}: ${request.protocols.join(", ")}`;
  return start(database, actor, "evaluation", name, request, (p) => runEvaluation(database, request, p));
}

export async function startAbTest(database: Database, actor: AuditActor, request: AbTestRequest) {
  checkAbTestRequest(request);
  await assertDataExists(database, request.data);
  return start(database, actor, "ab-test", request.name ?? `${request.a.name} vs ${request.b.name}`, request, (p) => runAbTest(database, request, p));
}

/** Resolves when the job this process runs has finished (at once when it is not running here). */
export function jobSettled(id: string): Promise<void> {
  return running.get(id) ?? Promise.resolve();
}

export async function listJobs(database: Database, o: { kind?: JobKind; offset: number; limit: number }): Promise<{ rows: JobSummary[]; total: number }> {
  const where = o.kind ? { kind: o.kind } : {};
  const [rows, total] = await Promise.all([database.db.evaluationJob.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: o.offset, take: o.limit }), database.db.evaluationJob.count({ where })]);
  return { rows: rows.map((r) => summary(r, r.result ? JSON.parse(r.result) : null)), total };
}

export async function getJob(database: Database, id: string): Promise<JobDetail> {
  const row = await database.db.evaluationJob.findUnique({ where: { id } });
  if (!row) throw new DomainError("NOT_FOUND", `no evaluation or A/B test ${id}`, "id");
  const result = row.result ? (JSON.parse(row.result) as EvaluationReport | AbTestReport) : null;
  return { ...summary(row, result), request: JSON.parse(row.request), result };
}
