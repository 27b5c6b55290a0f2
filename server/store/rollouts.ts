// Rollout and attempt programs: enqueue, start, dequeue (FIFO, atomic), start_attempt, update_rollout,
// update_attempt (status passed on to the rollout, retries), and the reads.
import { all, one, placeholders, run, runAll, type Program, type SqlDialect, type Write } from "@/server/db/sql/program";
import { dequeueStatement } from "./dequeue-statement";
import { StoreForbiddenError, StoreNotFoundError } from "./errors";
import { newAttemptId, newRolloutId, nextPos } from "./ids";
import { insertAttempts, insertRollouts, insertRolloutsTakingLatest, LATEST_RESOURCES_ID, latestAttempts, lockRollout, lockRolloutWithAttempt, markWorkerIdleAfterEmptyDequeue, syncWorker, syncWorkerWrite, type LockedRollout, type NewAttempt, type NewRollout } from "./rollout-rows";
import { checkCreates, checkServer, viewerCond, viewerSees, type StoreViewer } from "./scope";
import { attemptFromRow, attemptRecordFromRow, rolloutFromRow, ROLLOUT_COLUMNS, type AttemptRow, type RolloutRow } from "./rows";
import { agentFrom, attemptReason, expectedAttemptsFrom, phaseFrom, isQueued, isTerminal, receiptTagFrom, requeueCauseFor, rolloutStatusFromAttempt, type RequeueCause } from "./state-machine";
import { isGatePhase, type Attempt, type AttemptReason, type AttemptedRollout, type AttemptRecord, type AttemptStatus, type EnqueueRolloutRequest, type Json, type JsonObject, type Rollout, type RolloutConfig, type RolloutMode, type RolloutStatus } from "./types";

export function normalizeConfig(c: Partial<RolloutConfig> | null | undefined): RolloutConfig {
  return {
    timeout_seconds: c?.timeout_seconds ?? null,
    unresponsive_seconds: c?.unresponsive_seconds ?? null,
    max_attempts: c?.max_attempts ?? 1,
    retry_condition: [...(c?.retry_condition ?? [])],
  };
}

function* latestResourcesId(): Program<string | null> {
  const row = yield* one<{ resources_id: string }>(LATEST_RESOURCES_ID);
  return row?.resources_id ?? null;
}

function wireRollout(r: NewRollout, status: RolloutStatus = r.status): Rollout {
  return { rollout_id: r.rollout_id, input: r.input, start_time: r.start_time, end_time: null, mode: r.mode, resources_id: r.resources_id, status, config: r.config, metadata: r.metadata };
}

function newRollout(req: EnqueueRolloutRequest, now: number, latest: string | null, status: RolloutStatus): NewRollout {
  return {
    rollout_id: newRolloutId(),
    input: req.input ?? null,
    start_time: now,
    mode: req.mode ?? null,
    resources_id: req.resources_id ?? latest,
    status,
    config: normalizeConfig(req.config),
    metadata: { ...(req.metadata ?? {}) },
    queued: status === "queuing",
    attempt_count: 0,
    latest_attempt_id: null,
  };
}

/** enqueue_many_rollouts: rollouts in `queuing`, appended to the FIFO tail in request order. */
export function* enqueueRollouts(d: SqlDialect, reqs: EnqueueRolloutRequest[], now: number, viewer?: StoreViewer): Program<Rollout[]> {
  checkCreates(viewer, reqs.map((r) => agentFrom(r.metadata)));
  if (d.name === "postgresql" && reqs.some((r) => r.resources_id == null)) {
    const rows = reqs.map((r) => newRollout(r, now, null, "queuing"));
    yield* insertRolloutsTakingLatest(rows, { last: true });
    return rows.map((r) => wireRollout(r));
  }
  const latest = reqs.some((r) => r.resources_id == null) ? yield* latestResourcesId() : null;
  const rows = reqs.map((r) => newRollout(r, now, latest, "queuing"));
  yield* insertRollouts(rows, { last: true });
  return rows.map((r) => wireRollout(r));
}

/** start_rollout: a rollout in `preparing` with attempt 1, never queued. */
export function* startRollout(req: EnqueueRolloutRequest & { worker_id?: string | null }, now: number, viewer?: StoreViewer): Program<AttemptedRollout> {
  checkCreates(viewer, [agentFrom(req.metadata)]);
  const latest = req.resources_id ? null : yield* latestResourcesId();
  const row = newRollout(req, now, latest, "preparing");
  const attempt: NewAttempt = { rollout_id: row.rollout_id, attempt_id: newAttemptId(), sequence_id: 1, start_time: now, worker_id: req.worker_id ?? null, reason: "first", served_by: viewer?.identity ?? null };
  row.attempt_count = 1;
  row.latest_attempt_id = attempt.attempt_id;
  yield* insertRollouts([row]);
  yield* insertAttempts([attempt]);
  if (attempt.worker_id) yield* syncWorker(attempt.worker_id, "preparing", row.rollout_id, attempt.attempt_id, now, false);
  return { ...wireRollout(row), attempt: newAttemptWire(attempt) };
}

function newAttemptWire(a: NewAttempt): Attempt {
  return { rollout_id: a.rollout_id, attempt_id: a.attempt_id, sequence_id: a.sequence_id, start_time: a.start_time, end_time: null, status: "preparing", worker_id: a.worker_id, last_heartbeat_time: null, metadata: null };
}

type QueuedRow = RolloutRow & { expected_attempts: number; requeue_cause: string | null; attempt_count: number };

/**
 * dequeue_many_rollouts: claims up to `limit` rollouts in FIFO order and starts attempt n+1 on each.
 * Atomic: SQLite runs it as one writer transaction; PostgreSQL as one statement claiming with FOR UPDATE SKIP
 * LOCKED (dequeue-statement.ts), so two runners never get the same rollout. A `viewer` is handed only what it may serve (scope.ts) — the same one
 * statement with its condition; each attempt records who started it (`served_by`).
 */
export function* dequeueRollouts(d: SqlDialect, limit: number, workerId: string | null, now: number, viewer?: StoreViewer): Program<AttemptedRollout[]> {
  if (d.name === "postgresql") {
    const claimed = yield* dequeueStatement(limit, workerId, now, viewer);
    return claimed.map((r) => ({
      ...rolloutFromRow(r),
      attempt: newAttemptWire({ rollout_id: r.rollout_id, attempt_id: r.attempt_id, sequence_id: Number(r.sequence_id), start_time: now, worker_id: workerId, reason: r.reason as AttemptReason, served_by: viewer?.identity ?? null }),
    }));
  }
  const only = viewerCond(viewer);
  const rows = yield* all<QueuedRow>(
    `SELECT ${ROLLOUT_COLUMNS}, expected_attempts, requeue_cause, attempt_count FROM store_rollouts WHERE queue_pos IS NOT NULL${only ? ` AND ${only.sql}` : ""} ORDER BY queue_pos LIMIT ?${d.skipLocked}`,
    [...(only?.params ?? []), limit],
  );
  if (rows.length === 0) {
    if (workerId) yield* markWorkerIdleAfterEmptyDequeue(workerId, now);
    return [];
  }
  const attempts: NewAttempt[] = rows.map((r) => {
    const seq = Number(r.attempt_count) + 1;
    return { rollout_id: r.rollout_id, attempt_id: newAttemptId(), sequence_id: seq, start_time: now, worker_id: workerId, reason: attemptReason(seq, Number(r.expected_attempts), r.requeue_cause as RequeueCause | null), served_by: viewer?.identity ?? null };
  });
  for (const a of attempts) {
    yield* run("UPDATE store_rollouts SET status = 'preparing', queue_pos = NULL, requeue_cause = NULL, attempt_count = ?, latest_attempt_id = ? WHERE rollout_id = ?", [a.sequence_id, a.attempt_id, a.rollout_id]);
  }
  yield* insertAttempts(attempts);
  const last = attempts[attempts.length - 1]!;
  // One worker runs one attempt at a time: it is busy with the last one it claimed.
  if (workerId) yield* syncWorker(workerId, "preparing", last.rollout_id, last.attempt_id, now, true);
  return rows.map((r, i) => ({ ...rolloutFromRow({ ...r, status: "preparing" }), attempt: newAttemptWire(attempts[i]!) }));
}

/** start_attempt: a manual new attempt (ignores max_attempts); gate work only by an identity that may serve it. */
export function* startAttempt(d: SqlDialect, rolloutId: string, workerId: string | null, now: number, viewer?: StoreViewer): Program<AttemptedRollout> {
  const r = yield* lockRollout(d, rolloutId);
  if (!r) throw new StoreNotFoundError(`Rollout ${rolloutId} not found`);
  if (isGatePhase(r.phase) && !viewerSees(viewer, r)) throw new StoreForbiddenError(`rollout ${rolloutId} is gate work (${r.phase}): ${viewer!.identity} may not serve it`);
  const seq = Number(r.attempt_count) + 1;
  const attempt: NewAttempt = { rollout_id: rolloutId, attempt_id: newAttemptId(), sequence_id: seq, start_time: now, worker_id: workerId, reason: attemptReason(seq, Number(r.expected_attempts), "manual"), served_by: viewer?.identity ?? null };
  yield* run("UPDATE store_rollouts SET status = 'preparing', queue_pos = NULL, requeue_cause = NULL, attempt_count = ?, latest_attempt_id = ? WHERE rollout_id = ?", [seq, attempt.attempt_id, rolloutId]);
  yield* insertAttempts([attempt]);
  if (workerId) yield* syncWorker(workerId, "preparing", rolloutId, attempt.attempt_id, now, false);
  return { ...rolloutFromRow({ ...r, status: "preparing" }), attempt: newAttemptWire(attempt) };
}

export type RolloutPatch = {
  input?: Json;
  mode?: RolloutMode | null;
  resources_id?: string | null;
  status?: RolloutStatus;
  config?: Partial<RolloutConfig>;
  metadata?: JsonObject | null;
};

/**
 * Columns that follow a rollout status change: end time, queue membership and requeue cause. `queuePos` is the
 * rollout's place in the queue now (null: not queued).
 */
export function statusColumns(queuePos: number | null, status: RolloutStatus, cause: RequeueCause, now: number): Record<string, unknown> {
  const cols: Record<string, unknown> = { status };
  if (isTerminal(status)) cols.end_time = now;
  if (isQueued(status)) {
    if (queuePos === null) {
      cols.queue_pos = nextPos();
      cols.requeue_cause = cause;
    }
  } else {
    cols.queue_pos = null;
    cols.requeue_cause = null;
  }
  return cols;
}

/** An UPDATE of these columns of one row, or null when there are none. */
function columnsWrite(table: string, cols: Record<string, unknown>, where: string, key: unknown[]): Write | null {
  const keys = Object.keys(cols);
  if (keys.length === 0) return null;
  return { sql: `UPDATE ${table} SET ${keys.map((k) => `${k} = ?`).join(", ")} WHERE ${where}`, params: [...keys.map((k) => cols[k]), ...key] };
}

function* updateRolloutColumns(rolloutId: string, cols: Record<string, unknown>): Program<void> {
  const w = columnsWrite("store_rollouts", cols, "rollout_id = ?", [rolloutId]);
  if (w) yield* run(w.sql, w.params);
}

/**
 * update_rollout: absent keys are left alone; a queuing status puts the rollout back on the queue (once).
 * Gate work only by the identity that served its latest attempt.
 */
export function* updateRollout(d: SqlDialect, rolloutId: string, patch: RolloutPatch, now: number, viewer?: StoreViewer): Program<Rollout> {
  const r = yield* lockRollout(d, rolloutId);
  if (!r) throw new StoreNotFoundError(`Rollout ${rolloutId} not found`);
  if (patch.metadata) checkCreates(viewer, [agentFrom(patch.metadata)]);
  if (viewer && isGatePhase(r.phase)) {
    const latest = r.latest_attempt_id ? yield* one<{ served_by: string | null }>("SELECT served_by FROM store_attempts WHERE rollout_id = ? AND attempt_id = ?", [rolloutId, r.latest_attempt_id]) : null;
    checkServer(viewer, rolloutId, r, latest?.served_by);
    // Gate work stays gate work of its agent: re-tagging would hand it (and its input) to other identities.
    if ("metadata" in patch && (phaseFrom(patch.metadata) !== r.phase || agentFrom(patch.metadata) !== r.agent)) {
      throw new StoreForbiddenError(`rollout ${rolloutId} is gate work (${r.phase}): its lightgate.phase and lightgate.agent cannot be changed over the API`);
    }
  }
  const cols: Record<string, unknown> = {};
  if ("input" in patch) cols.input = JSON.stringify(patch.input ?? null);
  if ("mode" in patch) cols.mode = patch.mode ?? null;
  if ("resources_id" in patch) cols.resources_id = patch.resources_id ?? null;
  if ("metadata" in patch) {
    cols.metadata = patch.metadata === null || patch.metadata === undefined ? null : JSON.stringify(patch.metadata);
    cols.expected_attempts = expectedAttemptsFrom(patch.metadata);
    cols.receipt_tag = receiptTagFrom(patch.metadata);
    cols.agent = agentFrom(patch.metadata);
    cols.phase = phaseFrom(patch.metadata);
  }
  if (patch.config) {
    const c = normalizeConfig(patch.config);
    Object.assign(cols, { config: JSON.stringify(c), timeout_seconds: c.timeout_seconds, unresponsive_seconds: c.unresponsive_seconds, max_attempts: c.max_attempts, retry_condition: JSON.stringify(c.retry_condition) });
  }
  if (patch.status) Object.assign(cols, statusColumns(r.queue_pos, patch.status, "manual", now));
  yield* updateRolloutColumns(rolloutId, cols);
  const row = (yield* one<RolloutRow>(`SELECT ${ROLLOUT_COLUMNS} FROM store_rollouts WHERE rollout_id = ?`, [rolloutId]))!;
  return rolloutFromRow(row);
}

export type AttemptPatch = { status?: AttemptStatus; worker_id?: string; last_heartbeat_time?: number; metadata?: JsonObject };

/** The attempt columns a patch sets (metadata as stored text; a final status stamps the end time). */
export function attemptColumns(patch: AttemptPatch, now: number): Partial<AttemptRow> {
  const cols: Partial<AttemptRow> = {};
  if (patch.worker_id !== undefined) cols.worker_id = patch.worker_id;
  if (patch.status !== undefined) {
    cols.status = patch.status;
    if (patch.status === "failed" || patch.status === "succeeded") cols.end_time = now;
  }
  if (patch.last_heartbeat_time !== undefined) cols.last_heartbeat_time = patch.last_heartbeat_time;
  if (patch.metadata !== undefined) cols.metadata = JSON.stringify(patch.metadata);
  return cols;
}

/**
 * update_attempt: changes one attempt (or "latest"); when it is the latest attempt and its status
 * changed, the rollout follows (`rollout_status_from_attempt`): retries requeue it with the cause, a
 * final status ends it. `guard` lets the watchdog re-check its verdict under the lock.
 */
export function* updateAttempt(
  d: SqlDialect,
  rolloutId: string,
  attemptId: string,
  patch: AttemptPatch,
  now: number,
  guard?: (r: LockedRollout, a: AttemptRow) => boolean,
  viewer?: StoreViewer,
): Program<AttemptRecord | null> {
  const locked = yield* lockRolloutWithAttempt(d, rolloutId, attemptId === "latest" ? null : attemptId);
  if (!locked) throw new StoreNotFoundError(`Rollout ${rolloutId} not found`);
  const { rollout: r, attempt: row } = locked;
  if (!r.latest_attempt_id) throw new StoreNotFoundError(`No attempts found for rollout ${rolloutId}`);
  const resolved = attemptId === "latest" ? r.latest_attempt_id : attemptId;
  if (!row) throw new StoreNotFoundError(`Attempt ${attemptId} not found for rollout ${rolloutId}`);
  checkServer(viewer, rolloutId, r, row.served_by);
  if (guard && !guard(r, row)) return null;

  const cols = attemptColumns(patch, now);
  Object.assign(row, cols);
  // The worker follows the attempt when one is named now, or when the status changed under a known worker.
  const syncRequired = Boolean(patch.worker_id) || (patch.status !== undefined && Boolean(row.worker_id));
  // The attempt, its rollout and its worker are different rows: one statement on PostgreSQL, COMMIT behind it.
  const writes: (Write | null)[] = [columnsWrite("store_attempts", cols, "rollout_id = ? AND attempt_id = ?", [rolloutId, resolved])];
  if (patch.status !== undefined && resolved === r.latest_attempt_id) {
    const policy = { max_attempts: Number(r.max_attempts), retry_condition: JSON.parse(r.retry_condition) as AttemptStatus[] };
    const next = rolloutStatusFromAttempt(patch.status, Number(row.sequence_id), policy);
    if (next !== r.status) writes.push(columnsWrite("store_rollouts", statusColumns(r.queue_pos, next, requeueCauseFor(patch.status), now), "rollout_id = ?", [rolloutId]));
  }
  if (syncRequired && row.worker_id) writes.push(syncWorkerWrite(row.worker_id, row.status as AttemptStatus, rolloutId, resolved, now, false));
  yield* runAll(d, writes.filter((w): w is Write => w !== null), { last: true });
  return attemptRecordFromRow(row);
}

// ── Reads ────────────────────────────────────────────────────────────────────────────────────────────

/** Rollouts with their latest attempt attached when they have one (the `attempt` key is omitted otherwise). */
export function* attachLatest(rows: RolloutRow[]): Program<(Rollout | AttemptedRollout)[]> {
  const latest = yield* latestAttempts(rows.map((r) => r.rollout_id));
  return rows.map((row) => {
    const rollout = rolloutFromRow(row);
    const a = latest.get(row.rollout_id);
    return a ? { ...rollout, attempt: attemptFromRow(a) } : rollout;
  });
}

/** A rollout the viewer may see, else null (as if missing). */
export function* getRollout(rolloutId: string, viewer?: StoreViewer): Program<Rollout | AttemptedRollout | null> {
  const only = viewerCond(viewer);
  const row = yield* one<RolloutRow>(`SELECT ${ROLLOUT_COLUMNS} FROM store_rollouts WHERE rollout_id = ?${only ? ` AND ${only.sql}` : ""}`, [rolloutId, ...(only?.params ?? [])]);
  if (!row) return null;
  return (yield* attachLatest([row]))[0]!;
}

/** The terminal ones among these rollouts (unknown ids are left out, as in the reference). */
export function* finishedRollouts(ids: string[], viewer?: StoreViewer): Program<Rollout[]> {
  const out: Rollout[] = [];
  const only = viewerCond(viewer);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = yield* all<RolloutRow>(
      `SELECT ${ROLLOUT_COLUMNS} FROM store_rollouts WHERE rollout_id IN (${placeholders(chunk.length)}) AND status IN ('failed', 'succeeded', 'cancelled')${only ? ` AND ${only.sql}` : ""}`,
      [...chunk, ...(only?.params ?? [])],
    );
    out.push(...rows.map(rolloutFromRow));
  }
  const order = new Map(ids.map((id, i) => [id, i]));
  return out.sort((a, b) => order.get(a.rollout_id)! - order.get(b.rollout_id)!);
}
