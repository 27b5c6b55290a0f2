// Writing rollout and attempt rows, shared by the queue, start and update programs.
import { all, one, placeholders, run, valuesSql, type OpOptions, type Program, type SqlDialect, type Write } from "@/server/db/sql/program";
import { nextPos } from "./ids";
import { ATTEMPT_COLUMNS, ROLLOUT_COLUMNS, type AttemptRow, type RolloutRow } from "./rows";
import { agentFrom, expectedAttemptsFrom, phaseFrom, receiptTagFrom, workerPatchForAttempt } from "./state-machine";
import type { AttemptReason, AttemptStatus, Json, JsonObject, RolloutConfig, RolloutMode, RolloutStatus } from "./types";

export type NewRollout = {
  rollout_id: string;
  input: Json;
  start_time: number;
  mode: RolloutMode | null;
  resources_id: string | null;
  status: RolloutStatus;
  config: RolloutConfig;
  metadata: JsonObject;
  queued: boolean;
  attempt_count: number;
  latest_attempt_id: string | null;
};

const INSERT_ROLLOUTS =
  "INSERT INTO store_rollouts (rollout_id, input, start_time, end_time, mode, resources_id, status, config, metadata, timeout_seconds, unresponsive_seconds, max_attempts, retry_condition, expected_attempts, queue_pos, requeue_cause, attempt_count, latest_attempt_id, span_seq, created_pos, receipt_tag, agent, phase)";
const ROLLOUT_WIDTH = 23;
const INSERT_ATTEMPTS = "INSERT INTO store_attempts (rollout_id, attempt_id, sequence_id, start_time, status, worker_id, reason, served_by)";
/** Rows per INSERT: 100 × 23 values stays far below both dialects' parameter limits. */
const CHUNK = 100;

function rolloutParams(chunk: NewRollout[]): unknown[] {
  const params: unknown[] = [];
  for (const r of chunk) {
    params.push(
      r.rollout_id,
      JSON.stringify(r.input),
      r.start_time,
      null,
      r.mode,
      r.resources_id,
      r.status,
      JSON.stringify(r.config),
      JSON.stringify(r.metadata),
      r.config.timeout_seconds,
      r.config.unresponsive_seconds,
      r.config.max_attempts,
      JSON.stringify(r.config.retry_condition),
      expectedAttemptsFrom(r.metadata),
      r.queued ? nextPos() : null,
      null,
      r.attempt_count,
      r.latest_attempt_id,
      0,
      nextPos(),
      receiptTagFrom(r.metadata),
      agentFrom(r.metadata),
      phaseFrom(r.metadata),
    );
  }
  return params;
}

/** `last`: these inserts end the program (the last one carries the COMMIT on PostgreSQL). */
export function* insertRollouts(rows: NewRollout[], o?: OpOptions): Program<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    yield* run(valuesSql(INSERT_ROLLOUTS, ROLLOUT_WIDTH, chunk.length), rolloutParams(chunk), { last: o?.last && i + CHUNK >= rows.length });
  }
}

/** The latest resources' id: what a rollout enqueued without one is bound to. */
export const LATEST_RESOURCES_ID = "SELECT resources_id FROM store_resources WHERE latest_pos > 0 ORDER BY latest_pos DESC LIMIT 1";
const RESOURCES_COLUMN = 5; // resources_id's place in INSERT_ROLLOUTS
const takingLatest = new Map<number, string>();

/**
 * PostgreSQL: inserts the rows, those with no resources_id taking the latest resources' id, and answers that id —
 * one statement for a batch of up to 100, so no transaction and one round trip (it was BEGIN + the SELECT, then
 * the INSERT + COMMIT). The statement reads the latest id in the same snapshot it inserts with; later chunks are
 * given the id the first one answered. Sets resources_id on the rows that had none.
 */
export function* insertRolloutsTakingLatest(rows: NewRollout[], o?: OpOptions): Program<string | null> {
  const first = rows.slice(0, CHUNK);
  let text = takingLatest.get(first.length);
  if (text === undefined) {
    const row = `(${Array.from({ length: ROLLOUT_WIDTH }, (_, i) => (i === RESOURCES_COLUMN ? "COALESCE(?, (SELECT resources_id FROM latest))" : "?")).join(", ")})`;
    text = `WITH latest AS (${LATEST_RESOURCES_ID}),
      inserted AS (${INSERT_ROLLOUTS} VALUES ${Array.from({ length: first.length }, () => row).join(", ")})
      SELECT resources_id FROM latest`;
    takingLatest.set(first.length, text);
  }
  const answer = yield* one<{ resources_id: string }>(text, rolloutParams(first), { last: o?.last && rows.length <= CHUNK });
  const latest = answer?.resources_id ?? null;
  for (const r of rows) if (r.resources_id === null) r.resources_id = latest;
  if (rows.length > CHUNK) yield* insertRollouts(rows.slice(CHUNK), o);
  return latest;
}

export type NewAttempt = {
  rollout_id: string;
  attempt_id: string;
  sequence_id: number;
  start_time: number;
  worker_id: string | null;
  reason: AttemptReason;
  /** The identity that started it (store_attempts.served_by); null for in-process callers. */
  served_by: string | null;
};

export function* insertAttempts(rows: NewAttempt[]): Program<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const params = chunk.flatMap((a) => [a.rollout_id, a.attempt_id, a.sequence_id, a.start_time, "preparing", a.worker_id, a.reason, a.served_by]);
    yield* run(valuesSql(INSERT_ATTEMPTS, 8, chunk.length), params);
  }
}

/** The state every rollout-changing program reads first; PostgreSQL locks the row for the transaction. */
export type LockedRollout = RolloutRow & {
  max_attempts: number;
  retry_condition: string;
  expected_attempts: number;
  queue_pos: number | null;
  requeue_cause: string | null;
  attempt_count: number;
  latest_attempt_id: string | null;
  /** Who may see and serve it (scope.ts). */
  agent: string | null;
  phase: string | null;
};

const LOCKED_COLUMNS = `${ROLLOUT_COLUMNS}, max_attempts, retry_condition, expected_attempts, queue_pos, requeue_cause, attempt_count, latest_attempt_id, agent, phase`;

export function* lockRollout(d: SqlDialect, rolloutId: string): Program<LockedRollout | null> {
  return yield* one<LockedRollout>(
    `SELECT ${LOCKED_COLUMNS} FROM store_rollouts WHERE rollout_id = ?${d.forUpdate}`,
    [rolloutId],
  );
}

const ATTEMPT_ALIASES = [...ATTEMPT_COLUMNS.split(", "), "served_by"].map((c) => `a.${c} AS a_${c}`).join(", ");
const LOCKED_JOIN_COLUMNS = LOCKED_COLUMNS.split(", ").map((c) => `r.${c}`).join(", ");

/**
 * lockRollout and the attempt (`null` = its latest) in one statement: one round trip fewer on every
 * update_attempt, which on PostgreSQL costs both processes CPU. `attempt` is null when there is no such attempt.
 */
export function* lockRolloutWithAttempt(d: SqlDialect, rolloutId: string, attemptId: string | null): Program<{ rollout: LockedRollout; attempt: (AttemptRow & { served_by: string | null }) | null } | null> {
  const row = yield* one<Record<string, unknown>>(
    `SELECT ${LOCKED_JOIN_COLUMNS}, ${ATTEMPT_ALIASES} FROM store_rollouts r
     LEFT JOIN store_attempts a ON a.rollout_id = r.rollout_id AND a.attempt_id = COALESCE(?, r.latest_attempt_id)
     WHERE r.rollout_id = ?${d.forUpdateOf("r")}`,
    [attemptId, rolloutId],
  );
  if (!row) return null;
  const rollout: Record<string, unknown> = {};
  const attempt: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (k.startsWith("a_")) attempt[k.slice(2)] = v;
    else rollout[k] = v;
  }
  return { rollout: rollout as LockedRollout, attempt: attempt.attempt_id == null ? null : (attempt as AttemptRow & { served_by: string | null }) };
}

/** Upserts a worker so that it follows the attempt it runs (busy / idle / unknown). */
export function* syncWorker(workerId: string, status: AttemptStatus, rolloutId: string, attemptId: string, now: number, dequeued: boolean): Program<void> {
  const w = syncWorkerWrite(workerId, status, rolloutId, attemptId, now, dequeued);
  yield* run(w.sql, w.params);
}

/** syncWorker's row: its columns, then what an existing worker keeps (a time left NULL keeps the one it had). */
export const SYNC_WORKER_INSERT =
  "INSERT INTO store_workers (worker_id, status, current_rollout_id, current_attempt_id, last_busy_time, last_idle_time, last_dequeue_time, created_pos)";
export const SYNC_WORKER_CONFLICT = `ON CONFLICT (worker_id) DO UPDATE SET status = excluded.status, current_rollout_id = excluded.current_rollout_id,
       current_attempt_id = excluded.current_attempt_id,
       last_busy_time = COALESCE(excluded.last_busy_time, store_workers.last_busy_time),
       last_idle_time = COALESCE(excluded.last_idle_time, store_workers.last_idle_time),
       last_dequeue_time = COALESCE(excluded.last_dequeue_time, store_workers.last_dequeue_time)`;

/** syncWorker's statement, for a program that sends it together with others (runAll). */
export function syncWorkerWrite(workerId: string, status: AttemptStatus, rolloutId: string, attemptId: string, now: number, dequeued: boolean): Write {
  const p = workerPatchForAttempt(status, rolloutId, attemptId, now);
  const dequeueTime = dequeued ? now : null;
  return {
    sql: `${SYNC_WORKER_INSERT} VALUES (?, ?, ?, ?, ?, ?, ?, ?) ${SYNC_WORKER_CONFLICT}`,
    params: [workerId, p.status, p.current_rollout_id, p.current_attempt_id, p.last_busy_time ?? null, p.last_idle_time ?? null, dequeueTime, nextPos()],
  };
}

/** An empty dequeue: the worker is idle (idle time stamped only when it was not idle already). */
export function* markWorkerIdleAfterEmptyDequeue(workerId: string, now: number): Program<void> {
  yield* run(
    `INSERT INTO store_workers (worker_id, status, last_idle_time, last_dequeue_time, created_pos) VALUES (?, 'idle', ?, ?, ?)
     ON CONFLICT (worker_id) DO UPDATE SET last_dequeue_time = excluded.last_dequeue_time,
       last_idle_time = CASE WHEN store_workers.status = 'idle' THEN store_workers.last_idle_time ELSE excluded.last_idle_time END,
       status = 'idle'`,
    [workerId, now, now, nextPos()],
  );
}

/** Rows of the latest attempts of these rollouts, keyed by rollout id. */
export function* latestAttempts(rolloutIds: string[]): Program<Map<string, AttemptRow>> {
  const out = new Map<string, AttemptRow>();
  for (let i = 0; i < rolloutIds.length; i += 500) {
    const ids = rolloutIds.slice(i, i + 500);
    const rows = yield* all<AttemptRow>(
      `SELECT ${ATTEMPT_COLUMNS.split(", ").map((c) => `a.${c}`).join(", ")} FROM store_attempts a JOIN store_rollouts r
         ON r.rollout_id = a.rollout_id AND r.latest_attempt_id = a.attempt_id WHERE r.rollout_id IN (${placeholders(ids.length)})`,
      ids,
    );
    for (const row of rows) out.set(row.rollout_id, row);
  }
  return out;
}
