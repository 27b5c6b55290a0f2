// Workers (runners): heartbeats upsert the worker; attempts move it between busy, idle and unknown.
import { one, run, type Program } from "@/server/db/sql/program";
import { nextPos } from "./ids";
import { WORKER_COLUMNS, workerFromRow, type WorkerRow } from "./rows";
import type { JsonObject, Worker } from "./types";

/** update_worker: stamps last_heartbeat_time, replaces heartbeat_stats when given, creates the worker if new. */
export function* heartbeatWorker(workerId: string, stats: JsonObject | undefined, now: number): Program<Worker> {
  const statsText = stats === undefined ? null : JSON.stringify(stats);
  yield* run(
    `INSERT INTO store_workers (worker_id, status, heartbeat_stats, last_heartbeat_time, created_pos) VALUES (?, 'unknown', ?, ?, ?)
     ON CONFLICT (worker_id) DO UPDATE SET last_heartbeat_time = excluded.last_heartbeat_time,
       heartbeat_stats = ${stats === undefined ? "store_workers.heartbeat_stats" : "excluded.heartbeat_stats"}`,
    [workerId, statsText, now, nextPos()],
  );
  return workerFromRow((yield* one<WorkerRow>(`SELECT ${WORKER_COLUMNS} FROM store_workers WHERE worker_id = ?`, [workerId]))!);
}
