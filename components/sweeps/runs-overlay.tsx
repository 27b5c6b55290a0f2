"use client";

// Any training runs on one chart: each run's validation reward per update (the trainer's own split), the
// exact parent's level as a reference, and a legend naming each run's family, seed and sweep config.
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { CurveChart } from "@/components/charts/curve-chart";
import { Alert } from "@/components/ui/form";

/** Distinguishable on both themes; a run keeps its color by position. */
export const RUN_COLORS = ["#d97a06", "#2563eb", "#15803d", "#c2261d", "#7c3aed", "#0891b2", "#db2777", "#65a30d", "#b45309", "#4f46e5", "#0d9488", "#9333ea"];

export function RunsOverlay({ runIds, live = false }: { runIds: string[]; live?: boolean }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.trainers.compareRuns.queryOptions({ runIds }, { enabled: runIds.length > 0, refetchInterval: live ? 2_000 : false }));
  if (runIds.length === 0) return <p className="text-sm text-ink-3">Choose runs to overlay.</p>;
  if (q.error) return <Alert tone="fail" testId="overlay-error">{q.error.message}</Alert>;
  if (!q.data) return <p className="text-sm text-ink-3">Loading curves…</p>;
  const parent = q.data.find((r) => r.parentValidation !== null)?.parentValidation ?? null;
  const series = q.data.map((r, i) => ({ name: r.name ?? r.id, color: RUN_COLORS[i % RUN_COLORS.length]!, points: r.curve.flatMap((p) => (p.validation === null ? [] : [{ x: p.update, y: p.validation }])) }));
  // Runs with the very same curve (a restore that changed nothing) draw one line over the other: say so.
  const byCurve = new Map<string, string[]>();
  for (const s of series) {
    const key = JSON.stringify(s.points);
    if (s.points.length) byCurve.set(key, [...(byCurve.get(key) ?? []), s.name]);
  }
  const coincide = [...byCurve.values()].filter((names) => names.length > 1);
  return (
    <div data-testid="runs-overlay">
      <CurveChart
        xLabel="update"
        defaultSmoothing={0}
        showLegend={false}
        series={series}
        references={parent === null ? [] : [{ y: parent, label: "parent (validation)" }]}
      />
      {coincide.map((names) => (
        <p key={names.join()} className="mt-2 text-xs text-ink-3" data-testid="overlay-coincide">
          {names.join(" and ")} have the same curve, update for update: their lines lie on top of each other.
        </p>
      ))}
      <ul className="mt-3 grid gap-1 text-xs sm:grid-cols-2" data-testid="overlay-legend">
        {q.data.map((r, i) => (
          <li key={r.id} className="flex min-w-0 items-center gap-2">
            <span className="h-2.5 w-2.5 shrink-0 rounded-full" style={{ background: RUN_COLORS[i % RUN_COLORS.length] }} />
            <Link href={`/training/${r.id}`} className={r.name ? "text-ink hover:text-accent" : "font-mono text-ink hover:text-accent"}>{r.name ?? r.id}</Link>
            <span className="truncate text-ink-3">
              {r.family} · {r.seed}
              {r.sweep ? ` · ${r.sweep.label}` : ""} · {r.status}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
