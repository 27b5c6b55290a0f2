// dequeue_many_rollouts on PostgreSQL as ONE statement (no transaction: a statement is atomic by itself):
// claim up to n queued rollouts with FOR UPDATE SKIP LOCKED, start attempt k+1 on each, record the attempts
// and the worker. It was six round trips (BEGIN, claim, update, insert, worker, COMMIT), each costing both
// processes CPU. The LIMIT is written into the text (a handful of texts, each a named statement): with a
// parameter PostgreSQL's generic plan could not know the limit is small, so it planned the statement afresh on
// every call (590 µs of the database's CPU per dequeue, pg_stat_statements). The rules are the ones rollouts.ts
// applies on SQLite; `reasonSql` mirrors state-machine.ts's attemptReason (tests/integration/store/
// dequeue-statement.test.ts holds them together).
import { all, type Program } from "@/server/db/sql/program";
import { newAttemptId, nextPos } from "./ids";
import { ROLLOUT_COLUMNS, type RolloutRow } from "./rows";
import { viewerCond, type StoreViewer } from "./scope";
import { workerPatchForAttempt } from "./state-machine";

/** attemptReason(seq, expected, cause) in SQL, over the claimed row's columns. */
export const reasonSql = (seq: string, expected: string, cause: string) =>
  `CASE WHEN ${seq} <= 1 THEN 'first' WHEN ${seq} <= ${expected} THEN 'expected_resample' ELSE COALESCE(${cause}, 'manual') END`;

const RETURNED = ROLLOUT_COLUMNS.split(", ").map((c) => `r.${c}`).join(", ");

export type ClaimedRow = RolloutRow & { attempt_id: string; sequence_id: number; reason: string };

/**
 * The claimed rollouts in queue order, each with its new attempt's id, sequence id and reason. `ids` are
 * attempt ids made up front (one per possible claim; the k-th claimed rollout takes the k-th).
 */
export function* dequeueStatement(limit: number, workerId: string | null, now: number, viewer?: StoreViewer): Program<ClaimedRow[]> {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`dequeue limit must be a positive integer, not ${limit}`);
  const only = viewerCond(viewer);
  const ids = Array.from({ length: limit }, newAttemptId);
  const busy = workerPatchForAttempt("preparing", "", "", now);
  const worker = workerId; // six placeholders below
  return yield* all<ClaimedRow>(
    `WITH picked AS (
       SELECT rollout_id, queue_pos, attempt_count + 1 AS seq, expected_attempts, requeue_cause FROM store_rollouts
       WHERE queue_pos IS NOT NULL${only ? ` AND ${only.sql}` : ""} ORDER BY queue_pos LIMIT ${limit} FOR UPDATE SKIP LOCKED
     ), numbered AS (
       SELECT p.*, row_number() OVER (ORDER BY p.queue_pos) AS k FROM picked p
     ), claimed AS (
       UPDATE store_rollouts r SET status = 'preparing', queue_pos = NULL, requeue_cause = NULL, attempt_count = n.seq,
         latest_attempt_id = (CAST(? AS text[]))[n.k]
       FROM numbered n WHERE r.rollout_id = n.rollout_id
       RETURNING ${RETURNED}, r.latest_attempt_id AS attempt_id, n.seq AS sequence_id, n.k,
         ${reasonSql("n.seq", "n.expected_attempts", "n.requeue_cause")} AS reason
     ), attempts AS (
       INSERT INTO store_attempts (rollout_id, attempt_id, sequence_id, start_time, status, worker_id, reason, served_by)
       SELECT rollout_id, attempt_id, sequence_id, ?, 'preparing', CAST(? AS text), reason, CAST(? AS text) FROM claimed
     ), busy AS (
       INSERT INTO store_workers (worker_id, status, current_rollout_id, current_attempt_id, last_busy_time, last_dequeue_time, created_pos)
       SELECT CAST(? AS text), ?, rollout_id, attempt_id, ?, ?, ? FROM claimed WHERE CAST(? AS text) IS NOT NULL ORDER BY k DESC LIMIT 1
       ON CONFLICT (worker_id) DO UPDATE SET status = excluded.status, current_rollout_id = excluded.current_rollout_id,
         current_attempt_id = excluded.current_attempt_id, last_busy_time = excluded.last_busy_time, last_dequeue_time = excluded.last_dequeue_time
     ), idle AS (
       INSERT INTO store_workers (worker_id, status, last_idle_time, last_dequeue_time, created_pos)
       SELECT CAST(? AS text), 'idle', ?, ?, ? WHERE CAST(? AS text) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM claimed)
       ON CONFLICT (worker_id) DO UPDATE SET last_dequeue_time = excluded.last_dequeue_time,
         last_idle_time = CASE WHEN store_workers.status = 'idle' THEN store_workers.last_idle_time ELSE excluded.last_idle_time END,
         status = 'idle'
     )
     SELECT * FROM claimed ORDER BY k`,
    [
      ...(only?.params ?? []),
      ids,
      now,
      worker,
      viewer?.identity ?? null,
      worker,
      busy.status,
      busy.last_busy_time ?? now,
      now,
      nextPos(),
      worker,
      worker,
      now,
      now,
      nextPos(),
      worker,
    ],
    { last: true },
  );
}
