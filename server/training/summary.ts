// A run's summary (W&B's run summary): latest and best validation reward, retry debt and runtime, kept on the
// run's row so the runs list sorts and pages in the database instead of aggregating every run's metrics on
// each poll. Always recomputed from the metric rows (never incremented), so a resumed run that re-does updates
// after its checkpoint, or a restored run that copied a prefix of another's rows, cannot drift.
import type { Db, Tx } from "@/server/db/client";

export type RunSummaryFigures = { latestValidation: number | null; bestValidation: number | null; retryDebt: number; runtimeSeconds: number | null };

/** Seconds from `startedAt` to `endAt` (whole, never negative); null before the run started. */
export function runtimeOf(startedAt: Date | null, endAt: Date | null): number | null {
  if (!startedAt) return null;
  return Math.max(0, Math.round(((endAt ?? startedAt).getTime() - startedAt.getTime()) / 1000));
}

/** Recomputes the summary of one run from its metric rows and writes it; returns what it wrote. */
export async function refreshRunSummary(db: Db | Tx, runId: string): Promise<RunSummaryFigures | null> {
  const run = await db.trainingRun.findUnique({ where: { id: runId }, select: { startedAt: true, finishedAt: true } });
  if (!run) return null;
  const [agg, latest] = await Promise.all([
    db.trainingMetric.aggregate({ where: { runId }, _max: { heldOutReward: true, at: true }, _sum: { retries: true } }),
    db.trainingMetric.findFirst({ where: { runId, heldOutReward: { not: null } }, orderBy: { update: "desc" }, select: { heldOutReward: true } }),
  ]);
  const figures: RunSummaryFigures = {
    latestValidation: latest?.heldOutReward ?? null,
    bestValidation: agg._max.heldOutReward ?? null,
    retryDebt: agg._sum.retries ?? 0,
    runtimeSeconds: runtimeOf(run.startedAt, run.finishedAt ?? agg._max.at ?? null),
  };
  // Spelled out: a run's writes outside the lifecycle name their fields (tests/unit/training/run-status-writers.test.ts).
  const { latestValidation, bestValidation, retryDebt, runtimeSeconds } = figures;
  await db.trainingRun.update({ where: { id: runId }, data: { latestValidation, bestValidation, retryDebt, runtimeSeconds } });
  return figures;
}
