// update_attempt on PostgreSQL as ONE statement for the common case: a runner reporting its attempt's
// progress or end. The careful program (rollouts.ts updateAttempt) is BEGIN + lock and read, then the writes
// + COMMIT: two round trips, each costing both processes CPU on every dequeue + complete cycle. This statement
// locks the rollout, writes the attempt, its rollout and its worker, and answers the attempt, in one.
//
// It decides nothing the careful program decides: it applies only when the rollout's next status does not
// depend on the rollout's retry policy (state-machine.ts, probed below) and the patch names no worker, and it
// writes only training work whose attempt exists. Everything else — a rollout or attempt not found, gate
// work (whose writer must be the identity that served it), a failure the policy may retry — writes nothing
// here and answers no row, and the caller runs the careful program, which names the refusal or applies the
// policy. tests/integration/store/update-attempt-statement.test.ts compares the two over every case.
import { all, type Program } from "@/server/db/sql/program";
import { nextPos } from "./ids";
import { attemptColumns, statusColumns, type AttemptPatch } from "./rollouts";
import { SYNC_WORKER_CONFLICT, SYNC_WORKER_INSERT } from "./rollout-rows";
import { ATTEMPT_COLUMNS, type AttemptRow } from "./rows";
import { isQueued, rolloutStatusFromAttempt, workerPatchForAttempt } from "./state-machine";
import { trainingWorkSql } from "./scope";
import { ATTEMPT_STATUSES, type AttemptStatus, type RolloutStatus } from "./types";

const RETURNED = ATTEMPT_COLUMNS.split(", ").map((c) => `a.${c}`).join(", ");

/**
 * The rollout status an attempt's new status leads to whatever the rollout's retry policy and attempt number,
 * or null when those decide it (a failure may be retried). Asked of the state machine itself, over policies
 * that allow no retry, a retry of this status, a retry of every status, and attempts before and at the limit.
 */
function probePolicies(status: AttemptStatus): RolloutStatus | null {
  const outcomes = new Set<RolloutStatus>();
  for (const retry_condition of [[], [status], [...ATTEMPT_STATUSES]])
    for (const max_attempts of [1, 2, 5]) for (const seq of [1, 2, 5]) outcomes.add(rolloutStatusFromAttempt(status, seq, { max_attempts, retry_condition }));
  return outcomes.size === 1 ? [...outcomes][0]! : null;
}
/** Probed once per status at load, not on every update (it is on the runners' hot path). */
const POLICY_FREE = new Map(ATTEMPT_STATUSES.map((s) => [s, probePolicies(s)] as const));

/** probePolicies' answer for this status (see there). */
export function policyFreeRolloutStatus(status: AttemptStatus): RolloutStatus | null {
  return POLICY_FREE.get(status) ?? null;
}

/** Whether the one statement can apply this patch (else the careful program must). */
export function updateAttemptAtOnceApplies(patch: AttemptPatch): boolean {
  if (patch.worker_id !== undefined) return false;
  if (patch.status === undefined) return Object.keys(attemptColumns(patch, 0)).length > 0;
  const next = policyFreeRolloutStatus(patch.status);
  return next !== null && !isQueued(next);
}

/**
 * The attempt after the patch, or null when the statement wrote nothing (see above: the careful program then
 * decides). `attemptId` may be "latest". Only for patches `updateAttemptAtOnceApplies` accepts.
 */
export function* updateAttemptAtOnce(rolloutId: string, attemptId: string, patch: AttemptPatch, now: number): Program<AttemptRow | null> {
  if (!updateAttemptAtOnceApplies(patch)) throw new Error("updateAttemptAtOnce: this patch needs the careful program");
  const cols = Object.entries(attemptColumns(patch, now));
  const params: unknown[] = [rolloutId, ...cols.map(([, v]) => v), attemptId === "latest" ? null : attemptId];
  let sql = `WITH r AS (
       SELECT rollout_id, latest_attempt_id, phase FROM store_rollouts WHERE rollout_id = ? FOR UPDATE
     ), a AS (
       UPDATE store_attempts a SET ${cols.map(([k]) => `${k} = ?`).join(", ")} FROM r
       WHERE a.rollout_id = r.rollout_id AND a.attempt_id = COALESCE(CAST(? AS text), r.latest_attempt_id)
         AND ${trainingWorkSql("r.")}
       RETURNING ${RETURNED}, a.attempt_id = r.latest_attempt_id AS is_latest
     )`;
  if (patch.status !== undefined) {
    // The rollout follows its latest attempt (the status is the same under every policy: checked above) …
    const next = policyFreeRolloutStatus(patch.status)!;
    const rollout = Object.entries(statusColumns(null, next, "manual", now));
    params.push(...rollout.map(([, v]) => v), next);
    sql += `, rollout AS (
       UPDATE store_rollouts x SET ${rollout.map(([k]) => `${k} = ?`).join(", ")} FROM a
       WHERE x.rollout_id = a.rollout_id AND a.is_latest AND x.status IS DISTINCT FROM CAST(? AS text)
     )`;
    // … and the worker running it follows the attempt (rollout-rows.ts syncWorkerWrite, with the attempt's worker).
    const w = workerPatchForAttempt(patch.status, rolloutId, "", now);
    params.push(w.status, w.current_rollout_id, w.current_attempt_id !== null, w.last_busy_time ?? null, w.last_idle_time ?? null, nextPos());
    sql += `, worker AS (
       ${SYNC_WORKER_INSERT}
       SELECT a.worker_id, CAST(? AS text), CAST(? AS text), CASE WHEN CAST(? AS boolean) THEN a.attempt_id END,
         CAST(? AS double precision), CAST(? AS double precision), CAST(NULL AS double precision), CAST(? AS double precision)
       FROM a WHERE a.worker_id <> ''
       ${SYNC_WORKER_CONFLICT}
     )`;
  }
  sql += ` SELECT ${ATTEMPT_COLUMNS} FROM a`;
  const [row] = yield* all<AttemptRow>(sql, params, { last: true });
  return row ?? null;
}
