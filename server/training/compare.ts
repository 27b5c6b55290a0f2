// Any runs side by side (/training/compare): for each, the metrics asked for per update — the columns every
// update row has (validation and batch reward, coverage, retries, failed rollouts) or a figure its family
// records (PPO's KL and entropy, a fitter's losses, …) — which metrics it has at all, its config and the sweep
// config it belongs to. Only the asked metrics travel: twelve runs × every figure × thousands of updates would not.
import type { Database } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { FIGURES_REPEATING_COLUMNS, METRIC_COLUMNS, type MetricColumn } from "@/lib/training/metrics";
import { ownValue } from "@/lib/own";

type Json = Record<string, unknown>;
export type MetricSeries = { metric: string; points: { update: number; value: number }[] };
export type ComparedRun = {
  id: string;
  name: string | null;
  family: string;
  seed: string;
  status: string;
  config: Json;
  sweep: { id: string; label: string } | null;
  parentValidation: number | null;
  /** Every metric key this run recorded a value for: the columns first, then its family's figures by name. */
  available: string[];
  series: MetricSeries[];
};

type MetricRow = { update: number; meanReward: number | null; heldOutReward: number | null; coverage: number | null; retries: number; failed: number; figures: string };

const COLUMN: Record<MetricColumn, (m: MetricRow) => number | null> = {
  validation: (m) => m.heldOutReward,
  batch_reward: (m) => m.meanReward,
  coverage: (m) => m.coverage,
  retries: (m) => m.retries,
  failed: (m) => m.failed,
};
const isColumn = (key: string): key is MetricColumn => (METRIC_COLUMNS as readonly string[]).includes(key);
const finite = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);

/** One run's asked series and available keys, from its metric rows in update order. */
export function runSeries(rows: readonly MetricRow[], metrics: readonly string[]): { available: string[]; series: MetricSeries[] } {
  const series = metrics.map((metric) => ({ metric, points: [] as MetricSeries["points"] }));
  const columns = new Set<string>();
  const figureKeys = new Set<string>();
  for (const row of rows) {
    for (const key of METRIC_COLUMNS) if (COLUMN[key](row) !== null) columns.add(key);
    const figures = JSON.parse(row.figures) as Json;
    for (const [k, v] of Object.entries(figures)) if (finite(v) && !FIGURES_REPEATING_COLUMNS.has(k)) figureKeys.add(k);
    for (const s of series) {
      const value = isColumn(s.metric) ? COLUMN[s.metric](row) : FIGURES_REPEATING_COLUMNS.has(s.metric) ? null : ownValue(figures, s.metric);
      if (finite(value)) s.points.push({ update: row.update, value });
    }
  }
  return { available: [...METRIC_COLUMNS.filter((k) => columns.has(k)), ...[...figureKeys].sort()], series };
}

/** The runs in the order asked (an unknown id is refused, naming it), each with the asked metrics' series. */
export async function compareRuns(database: Database, runIds: readonly string[], metrics: readonly string[]): Promise<ComparedRun[]> {
  const runs = new Map((await database.db.trainingRun.findMany({ where: { id: { in: [...runIds] } } })).map((r) => [r.id, r]));
  const missing = runIds.find((id) => !runs.has(id));
  if (missing) throw new DomainError("NOT_FOUND", `runIds: no training run ${missing.slice(0, 200)}`, "runIds");
  const rows = await database.db.trainingMetric.findMany({
    where: { runId: { in: [...runIds] } },
    orderBy: [{ runId: "asc" }, { update: "asc" }],
    select: { runId: true, update: true, meanReward: true, heldOutReward: true, coverage: true, retries: true, failed: true, figures: true },
  });
  const byRun = new Map<string, MetricRow[]>();
  for (const r of rows) {
    const mine = byRun.get(r.runId);
    if (mine) mine.push(r);
    else byRun.set(r.runId, [r]);
  }
  const links = new Map((await database.db.trainingSweepRun.findMany({ where: { runId: { in: [...runIds] } } })).map((l) => [l.runId, l]));
  return runIds.map((id) => {
    const r = runs.get(id)!;
    const link = links.get(id);
    return {
      id,
      name: r.name,
      family: r.family,
      seed: r.seed,
      status: r.status,
      config: JSON.parse(r.config) as Json,
      sweep: link ? { id: link.sweepId, label: link.configLabel } : null,
      parentValidation: r.parentHeldOutReward,
      ...runSeries(byRun.get(id) ?? [], metrics),
    };
  });
}
