"use client";

// One sweep: its configs ranked by the mean final validation reward of their runs, with a 95 % t interval
// over the seeds (dots: the runs), each run's status, and any configs' runs overlaid. Polls while runs are
// queued or running.
import Link from "next/link";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { IntervalPlot } from "@/components/charts/interval-plot";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Stat } from "@/components/ui/stat";
import { RunStatusBadge } from "@/components/training/run-status";
import { RUN_COLORS, RunsOverlay } from "./runs-overlay";

const f = (v: number | null) => (v === null ? "—" : v.toFixed(3));
/** "ppo.learningRate=0.05 · epochs=4" → "0.05 · 4": the chart's row labels are short. */
const valuesOf = (label: string) => label.split(" · ").map((x) => x.slice(x.indexOf("=") + 1)).join(" · ");

export function SweepDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.sweeps.get.queryOptions({ id }, { refetchInterval: (x) => (x.state.data?.configs.some((c) => c.runs.some((r) => r.status === "queued" || r.status === "running")) ? 2_000 : false) }));
  const [picked, setPicked] = useState<number[] | null>(null);
  if (q.error) return <p className="text-sm text-fail">{q.error.message}</p>;
  const s = q.data;
  if (!s) return <p className="text-sm text-ink-3">Loading…</p>;
  const ranked = [...s.configs].sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity) || a.index - b.index);
  // By default the best and the worst ranked configs are overlaid.
  const shown = picked ?? [...new Set([ranked[0]?.index, ranked.filter((c) => c.rank !== null).at(-1)?.index].filter((x): x is number => x !== undefined))];
  const runIds = ranked.filter((c) => shown.includes(c.index)).flatMap((c) => c.runs.map((r) => r.runId)).slice(0, 12);
  const runs = s.configs.flatMap((c) => c.runs);
  const live = runs.some((r) => r.status === "queued" || r.status === "running");
  const finished = runs.filter((r) => r.status === "finished").length;
  const toggle = (i: number) => setPicked(shown.includes(i) ? shown.filter((x) => x !== i) : [...shown, i]);
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Configs" value={s.configs.length} hint={`${s.mode} over ${s.family}`} />
        <Stat label="Runs finished" value={`${finished} / ${runs.length}`} hint={runs.some((r) => r.status === "failed") ? `${runs.filter((r) => r.status === "failed").length} failed` : live ? "workers are on it" : undefined} tone={finished === runs.length ? "pass" : undefined} />
        <Stat label="Best config" value={<span className="text-base">{f(ranked[0]?.mean ?? null)}</span>} hint={ranked[0]?.rank ? ranked[0].label : "no finished runs yet"} />
        <Stat label="Parent on validation" value={f(s.parentValidation)} hint="the exact parent's level, before training" />
      </div>
      <Card title="Ranking" description="Final validation reward of each run (the trainer's own split, not the gate's exam); mean with a 95 % t interval over the seeds. Tick configs to overlay their runs.">
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="sweep-ranking">
            <thead className="border-b border-line text-xs text-ink-3">
              <tr>
                {["", "Rank", "Config", "Mean (95 % CI)", "Runs"].map((h) => (
                  <th key={h} className="px-2 py-2 font-medium whitespace-nowrap">{h}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {ranked.map((c) => (
                <tr key={c.index} className="border-b border-line align-top last:border-0">
                  <td className="px-2 py-2"><input type="checkbox" aria-label={`Overlay ${c.label}`} checked={shown.includes(c.index)} onChange={() => toggle(c.index)} /></td>
                  <td className="px-2 py-2 tabular-nums">{c.rank === null ? "—" : c.rank === 1 ? <Badge tone="accent">1</Badge> : c.rank}</td>
                  <td className="px-2 py-2 font-mono text-xs text-ink">{c.label}</td>
                  <td className="px-2 py-2 tabular-nums whitespace-nowrap">{c.mean === null ? "—" : `${f(c.mean)}${c.ci ? ` (${f(c.ci[0])} … ${f(c.ci[1])})` : ""}`}<span className="ml-1 text-xs text-ink-3">n = {c.n}</span></td>
                  <td className="px-2 py-2">
                    <div className="flex flex-wrap gap-1.5">
                      {c.runs.map((r) => (
                        <Link key={r.runId} href={`/training/${r.runId}`} title={`${r.runId}: ${r.updatesDone}/${r.updatesTotal} updates${r.final === null ? "" : `, final ${f(r.final)}`}`} className="inline-flex items-center gap-1">
                          <RunStatusBadge status={r.status} />
                        </Link>
                      ))}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      <div className="grid gap-4 xl:grid-cols-2">
        <Card title="Configs side by side" description="Dots: each run's final validation reward. Diamond: mean. Whisker: 95 % t interval over the seeds.">
          {ranked.some((c) => c.mean !== null) ? (
            <IntervalPlot testId="sweep-intervals" axisLabel="final validation reward" rows={ranked.filter((c) => c.mean !== null).map((c, i) => ({ label: `#${c.rank} ${valuesOf(c.label)}`, values: c.runs.flatMap((r) => (r.final === null ? [] : [r.final])), mean: c.mean!, ci: c.ci ?? [NaN, NaN], color: i === 0 ? "var(--lg-accent)" : "var(--lg-ink-2)" }))} />
          ) : (
            <p className="text-sm text-ink-3">No run has finished yet.</p>
          )}
        </Card>
        <Card title="Overlay" description="Validation reward per update of the ticked configs' runs." actions={runIds.length > 0 && <Link href={`/training/compare?runs=${runIds.join(",")}`} className="text-xs text-accent hover:underline">Open in compare</Link>}>
          <RunsOverlay runIds={runIds} live={live} />
        </Card>
      </div>
      <p className="text-xs text-ink-3">
        Started by {s.createdBy} · {s.createdAt.toISOString().slice(0, 16).replace("T", " ")} · colors follow the order of the overlay legend ({RUN_COLORS.length} at most).
      </p>
    </div>
  );
}
