// An external training over time and the runners working on it: reward and throughput in time buckets (at most
// ~200 per chart, grouped in the database), and the workers that served attempts of its newest version.
import type { Database } from "@/server/db/client";
import { all } from "@/server/db/sql/program";
import { sqlRunnerFor } from "@/server/db/sql/runner";
import { bucketSeconds } from "@/lib/training/external-figures";
import { rolloutsOfSql, type Lineage } from "./trials";
import { rewardSql } from "./versions";

export type TimePoint = { at: number; mode: "train" | "val"; rollouts: number; rewarded: number; meanReward: number | null };

/** Rollouts (train and val; test is not training) per time bucket of their start, with their mean final reward. */
export async function rewardOverTime(database: Database, lineage: Lineage): Promise<{ bucketSeconds: number; points: TimePoint[] }> {
  const sql = sqlRunnerFor(database);
  const rollouts = rolloutsOfSql(lineage, 0);
  const [range] = await sql.read(() => all<{ lo: number | null; hi: number | null }>(`SELECT MIN(r.start_time) AS lo, MAX(r.start_time) AS hi FROM store_rollouts r WHERE ${rollouts.sql}`, rollouts.params));
  if (!range || range.lo === null || range.hi === null) return { bucketSeconds: 60, points: [] };
  const lo = Number(range.lo);
  const width = bucketSeconds(Number(range.hi) - lo, 200, 1);
  const rows = await sql.read((d) => {
    // Whole buckets from the first start: FLOOR on PostgreSQL (its CAST rounds), truncation on SQLite (non-negative here).
    const bucket = d.name === "sqlite" ? `CAST((r.start_time - ?) / ? AS INTEGER)` : `FLOOR((r.start_time - ?) / ?)`;
    return all<{ b: number; m: string; n: number; k: number; mean: number | null }>(
      `SELECT ${bucket} AS b, CASE WHEN r.mode = 'val' THEN 'val' ELSE 'train' END AS m, COUNT(*) AS n, COUNT(${rewardSql(d)}) AS k, AVG(${rewardSql(d)}) AS mean
       FROM store_rollouts r LEFT JOIN rollout_rollups rr ON rr.rollout_id = r.rollout_id
       WHERE ${rollouts.sql} AND (r.mode IS NULL OR r.mode <> 'test')
       GROUP BY 1, 2 ORDER BY 1, 2`,
      [lo, width, ...rollouts.params],
    );
  });
  return {
    bucketSeconds: width,
    points: rows.map((r) => ({ at: lo + Number(r.b) * width, mode: r.m === "val" ? "val" : "train", rollouts: Number(r.n), rewarded: Number(r.k), meanReward: r.mean === null ? null : Number(r.mean) })),
  };
}

export type RunnerAtWork = {
  workerId: string;
  status: string;
  attempts: number;
  failedAttempts: number;
  lastAttemptAt: number;
  lastHeartbeatAt: number | null;
  /** The rollout it holds now, when that rollout is this training's. */
  currentRolloutId: string | null;
};

/** Workers that served attempts of rollouts started since `fromSeconds` (the newest version), most recent first. */
export async function runnersAtWork(database: Database, lineage: Lineage, fromSeconds: number, limit = 50): Promise<RunnerAtWork[]> {
  const rollouts = rolloutsOfSql(lineage, fromSeconds);
  const rows = await sqlRunnerFor(database).read(() =>
    all<{ worker_id: string; n: number; failed: number; last: number }>(
      `SELECT a.worker_id, COUNT(*) AS n, SUM(CASE WHEN a.status IN ('failed', 'timeout', 'unresponsive') THEN 1 ELSE 0 END) AS failed, MAX(a.start_time) AS last
       FROM store_rollouts r JOIN store_attempts a ON a.rollout_id = r.rollout_id
       WHERE ${rollouts.sql} AND a.worker_id IS NOT NULL
       GROUP BY a.worker_id ORDER BY MAX(a.start_time) DESC, a.worker_id LIMIT ${limit}`,
      rollouts.params,
    ),
  );
  if (rows.length === 0) return [];
  const workers = await database.db.storeWorker.findMany({ where: { workerId: { in: rows.map((r) => r.worker_id) } }, select: { workerId: true, status: true, lastHeartbeatTime: true, currentRolloutId: true } });
  const byId = new Map(workers.map((w) => [w.workerId, w]));
  const current = workers.map((w) => w.currentRolloutId).filter((id): id is string => id !== null);
  const ours = new Set(
    current.length ? (await database.db.storeRollout.findMany({ where: { rolloutId: { in: current }, resourcesId: { in: [lineage.id, ...lineage.trials.keys()] } }, select: { rolloutId: true } })).map((r) => r.rolloutId) : [],
  );
  return rows.map((r) => {
    const w = byId.get(r.worker_id);
    return {
      workerId: r.worker_id,
      status: w?.status ?? "unknown",
      attempts: Number(r.n),
      failedAttempts: Number(r.failed),
      lastAttemptAt: Number(r.last),
      lastHeartbeatAt: w?.lastHeartbeatTime ?? null,
      currentRolloutId: w?.currentRolloutId && ours.has(w.currentRolloutId) ? w.currentRolloutId : null,
    };
  });
}
