// The watchdog (`scan_unhealthy_rollouts`): finds preparing/running rollouts whose latest attempt ran past
// timeout_seconds or went silent past unresponsive_seconds, and marks that attempt timeout/unresponsive
// (the rollout then retries or fails by its policy). Each verdict is re-checked under the rollout's lock,
// so several processes scanning one PostgreSQL store never apply it twice.
import { all, type Program, type SqlDialect } from "@/server/db/sql/program";
import { updateAttempt } from "./rollouts";
import { watchdogVerdict } from "./state-machine";

type Candidate = {
  rollout_id: string;
  attempt_id: string;
  timeout_seconds: number | null;
  unresponsive_seconds: number | null;
  start_time: number;
  last_heartbeat_time: number | null;
};

export type Verdict = { rollout_id: string; attempt_id: string; status: "timeout" | "unresponsive" };

export function* findUnhealthy(now: number): Program<Verdict[]> {
  const rows = yield* all<Candidate>(
    `SELECT r.rollout_id, a.attempt_id, r.timeout_seconds, r.unresponsive_seconds, a.start_time, a.last_heartbeat_time
     FROM store_rollouts r JOIN store_attempts a ON a.rollout_id = r.rollout_id AND a.attempt_id = r.latest_attempt_id
     WHERE r.status IN ('preparing', 'running') AND (r.timeout_seconds IS NOT NULL OR r.unresponsive_seconds IS NOT NULL)`,
  );
  const out: Verdict[] = [];
  for (const c of rows) {
    const status = watchdogVerdict({
      now,
      timeout_seconds: c.timeout_seconds === null ? null : Number(c.timeout_seconds),
      unresponsive_seconds: c.unresponsive_seconds === null ? null : Number(c.unresponsive_seconds),
      attempt_start_time: Number(c.start_time),
      last_heartbeat_time: c.last_heartbeat_time === null ? null : Number(c.last_heartbeat_time),
    });
    if (status) out.push({ rollout_id: c.rollout_id, attempt_id: c.attempt_id, status });
  }
  return out;
}

/** Applies one verdict if it still holds under the lock; returns whether it was applied. */
export function* applyVerdict(d: SqlDialect, v: Verdict, now: number): Program<boolean> {
  const done = yield* updateAttempt(d, v.rollout_id, v.attempt_id, { status: v.status }, now, (r, a) => {
    if (r.status !== "preparing" && r.status !== "running") return false;
    if (r.latest_attempt_id !== v.attempt_id) return false;
    const again = watchdogVerdict({
      now,
      timeout_seconds: r.config ? (JSON.parse(r.config) as { timeout_seconds: number | null }).timeout_seconds : null,
      unresponsive_seconds: (JSON.parse(r.config) as { unresponsive_seconds: number | null }).unresponsive_seconds,
      attempt_start_time: Number(a.start_time),
      last_heartbeat_time: a.last_heartbeat_time === null ? null : Number(a.last_heartbeat_time),
    });
    return again === v.status;
  });
  return done !== null;
}
