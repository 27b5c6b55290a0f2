"use client";

// Any training runs on shared axes: one metric per chart, each run in its own colour (kept by position), the
// exact parent's level as the validation chart's reference, and a legend naming each run's family, seed and
// sweep config. RunsOverlay is the sweep page's validation chart; the compare page lays out one MetricOverlay per
// chosen metric (small multiples) over the same legend.
import Link from "next/link";
import type { inferRouterOutputs } from "@trpc/server";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { CurveChart } from "@/components/charts/curve-chart";
import { Alert } from "@/components/ui/form";
import type { AppRouter } from "@/server/routers/_app";

export type ComparedRun = inferRouterOutputs<AppRouter>["trainers"]["compareRuns"][number];

/** Distinguishable on both themes; a run keeps its color by position. */
export const RUN_COLORS = ["#d97a06", "#2563eb", "#15803d", "#c2261d", "#7c3aed", "#0891b2", "#db2777", "#65a30d", "#b45309", "#4f46e5", "#0d9488", "#9333ea"];
const colorOf = (i: number) => RUN_COLORS[i % RUN_COLORS.length]!;

/** One metric of every run on one chart; the parent's level on the validation chart. */
export function MetricOverlay({ runs, metric, height = 260, yDomain }: { runs: ComparedRun[]; metric: string; height?: number; yDomain?: [number | "auto", number | "auto"] }) {
  const series = runs.map((r, i) => ({ name: r.name ?? r.id, color: colorOf(i), points: (r.series.find((s) => s.metric === metric)?.points ?? []).map((p) => ({ x: p.update, y: p.value })) }));
  if (series.every((s) => s.points.length === 0)) return <p className="text-sm text-ink-3">None of these runs recorded it yet.</p>;
  const parent = metric === "validation" ? (runs.find((r) => r.parentValidation !== null)?.parentValidation ?? null) : null;
  // Runs with the very same curve (a restore that changed nothing) draw one line over the other: say so.
  const byCurve = new Map<string, string[]>();
  for (const s of series) {
    const key = JSON.stringify(s.points);
    if (s.points.length) byCurve.set(key, [...(byCurve.get(key) ?? []), s.name]);
  }
  const coincide = metric === "validation" ? [...byCurve.values()].filter((names) => names.length > 1) : [];
  return (
    <div data-metric={metric}>
      <CurveChart xLabel="update" height={height} defaultSmoothing={0} showLegend={false} yDomain={yDomain} series={series} references={parent === null ? [] : [{ y: parent, label: "parent (validation)" }]} />
      {coincide.map((names) => (
        <p key={names.join()} className="mt-2 text-xs text-ink-2" data-testid="overlay-coincide">
          {names.join(" and ")} have the same curve, update for update: their lines lie on top of each other.
        </p>
      ))}
    </div>
  );
}

/** Each run's colour, name (its link), family, seed, sweep config and status. */
export function RunsLegend({ runs }: { runs: ComparedRun[] }) {
  return (
    <ul className="mt-3 grid gap-1 text-xs sm:grid-cols-2" data-testid="overlay-legend">
      {runs.map((r, i) => (
        <li key={r.id} className="flex min-w-0 items-center gap-2">
          <span className="h-2.5 w-2.5 shrink-0 rounded-full" style={{ background: colorOf(i) }} />
          <Link href={`/training/${r.id}`} className={r.name ? "text-ink hover:text-accent" : "font-mono text-ink hover:text-accent"}>
            {r.name ?? r.id}
          </Link>
          <span className="truncate text-ink-2">
            {r.family} · {r.seed}
            {r.sweep ? ` · ${r.sweep.label}` : ""} · {r.status}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The runs' validation reward per update (the trainer's own split), with the legend. */
export function RunsOverlay({ runIds, live = false }: { runIds: string[]; live?: boolean }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.trainers.compareRuns.queryOptions({ runIds }, { enabled: runIds.length > 0, refetchInterval: live ? 2_000 : false }));
  if (runIds.length === 0) return <p className="text-sm text-ink-3">Choose runs to overlay.</p>;
  if (q.error) return <Alert tone="fail" testId="overlay-error">{q.error.message}</Alert>;
  if (!q.data) return <p className="text-sm text-ink-3">Loading curves…</p>;
  return (
    <div data-testid="runs-overlay">
      <MetricOverlay runs={q.data} metric="validation" />
      <RunsLegend runs={q.data} />
    </div>
  );
}
