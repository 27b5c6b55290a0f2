// One source for "failed" on the Runners and Rollouts pages, from the store itself. They count different
// things and both pages say so: a rollout's status is where it ended after its retries (failed = it gave up),
// while a runner fails attempts — and an attempt that failed, timed out or went unresponsive is retried when
// the rollout's retry policy allows, so its rollout may still succeed. A runner's own heartbeat stats count
// only what that process saw since it started.
import type { Db } from "@/server/db/client";

const FAILED = ["failed", "timeout", "unresponsive"];

export type FailureCounts = {
  rolloutsFailed: number;
  attemptsFailed: { failed: number; timeout: number; unresponsive: number };
  /** Rollouts that had a failed/timed-out/unresponsive attempt and still succeeded on a retry. */
  rolloutsRecovered: number;
  /** Failed attempts per runner (worker id; attempts no runner claimed are under "(none)"). */
  byWorker: { workerId: string; failed: number; total: number }[];
};

export async function failureCounts(db: Db): Promise<FailureCounts> {
  const rolloutsFailed = await db.storeRollout.count({ where: { status: "failed" } });
  const rolloutsRecovered = await db.storeRollout.count({ where: { status: "succeeded", attempts: { some: { status: { in: FAILED } } } } });
  const byStatus = await db.storeAttempt.groupBy({ by: ["workerId", "status"], _count: { _all: true } });
  const attemptsFailed = { failed: 0, timeout: 0, unresponsive: 0 };
  const workers = new Map<string, { failed: number; total: number }>();
  for (const g of byStatus) {
    const id = g.workerId ?? "(none)";
    const w = workers.get(id) ?? { failed: 0, total: 0 };
    w.total += g._count._all;
    if (FAILED.includes(g.status)) {
      w.failed += g._count._all;
      attemptsFailed[g.status as keyof typeof attemptsFailed] += g._count._all;
    }
    workers.set(id, w);
  }
  return { rolloutsFailed, attemptsFailed, rolloutsRecovered, byWorker: [...workers].map(([workerId, w]) => ({ workerId, ...w })).sort((a, b) => a.workerId.localeCompare(b.workerId)) };
}
