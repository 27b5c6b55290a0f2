"use client";

// Any training runs side by side (W&B's run comparer), all of it in the URL: the runs (`?runs=a,b,c`), the
// metrics drawn as small multiples, one chart per metric with every run on it (`&metrics=validation,entropy`,
// chosen from what the runs record: the update columns and each family's figures), and the configs' keys with
// those that differ marked (`&keys=differ` shows only them).
import { useState, type FormEvent } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { Alert, Button, Field, TextInput } from "@/components/ui/form";
import { useUrlState } from "@/components/ui/url-state";
import { metricInfo, parseMetricList } from "@/lib/training/metrics";
import { ConfigDiffTable } from "./config-diff-table";
import { MetricOverlay, RunsLegend } from "./runs-overlay";

const parse = (text: string) => [...new Set(text.split(/[\s,]+/).map((x) => x.trim()).filter(Boolean))].slice(0, 12);
const MAX_METRICS = 8;

export function CompareRuns() {
  const trpc = useTRPC();
  const url = useUrlState();
  const runIds = parse(url.get("runs") ?? "");
  const metrics = parseMetricList(url.get("metrics"), MAX_METRICS);
  const [text, setText] = useState(runIds.join(", "));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    url.set({ runs: parse(text).join(",") || null });
  };
  const q = useQuery(trpc.trainers.compareRuns.queryOptions({ runIds, metrics }, { enabled: runIds.length > 0, placeholderData: keepPreviousData }));
  const runs = q.data ?? [];
  // What the runs record, in the order the first run that has it lists it (columns first, then figures), and
  // whatever the URL names besides, so it can be unticked.
  const available = [...new Set([...runs.flatMap((r) => r.available), ...metrics])];
  const toggle = (key: string) => {
    const next = metrics.includes(key) ? metrics.filter((m) => m !== key) : [...metrics, key].slice(-MAX_METRICS);
    url.set({ metrics: next.length === 1 && next[0] === "validation" ? null : next.join(",") || "validation" });
  };
  return (
    <div className="space-y-4">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label="Runs to compare">
        <div className="min-w-0 flex-1 sm:min-w-64">
          <Field label="Run ids (up to 12, comma-separated)" htmlFor="compare-runs">
            <TextInput id="compare-runs" value={text} onChange={(e) => setText(e.target.value)} placeholder="run-…, run-…" />
          </Field>
        </div>
        <Button type="submit" variant="secondary">
          Compare
        </Button>
      </form>
      {runIds.length === 0 ? (
        <p className="text-sm text-ink-2">Choose runs to compare: tick them in the runs list, or paste their ids.</p>
      ) : q.error ? (
        <Alert tone="fail" testId="overlay-error">
          {q.error.message}
        </Alert>
      ) : !q.data ? (
        <p className="text-sm text-ink-2">Loading the runs…</p>
      ) : (
        <>
          <Card title="Metrics" description="Each chosen metric is drawn on its own chart with every run on it; the runs' colours are the same on every chart.">
            <fieldset>
              <legend className="sr-only">Metrics to draw</legend>
              <div className="flex flex-wrap gap-x-4 gap-y-2 text-sm" data-testid="metric-picker">
                {available.map((key) => (
                  <label key={key} className="flex items-center gap-1.5 text-ink-2" title={metricInfo(key).hint}>
                    <input type="checkbox" className="h-4 w-4 accent-[var(--lg-accent)]" checked={metrics.includes(key)} onChange={() => toggle(key)} disabled={!metrics.includes(key) && metrics.length >= MAX_METRICS} />
                    {metricInfo(key).label}
                  </label>
                ))}
              </div>
            </fieldset>
          </Card>
          <div data-testid="runs-overlay">
            <div className={`grid gap-4 ${metrics.length > 1 ? "lg:grid-cols-2" : ""}`} data-testid="metric-charts">
              {metrics.map((key) => (
                <Card key={key} title={metricInfo(key).label} description={metricInfo(key).hint + (key === "validation" ? "; the dashed line is the exact parent's level" : "")}>
                  <MetricOverlay runs={runs} metric={key} height={metrics.length > 1 ? 200 : 260} yDomain={metricInfo(key).domain} />
                </Card>
              ))}
            </div>
            <RunsLegend runs={runs} />
          </div>
          <Card title="Config" description="Every key of the runs' configs (nested settings as dotted paths); the keys where the runs differ are marked.">
            <ConfigDiffTable runs={runs} />
          </Card>
        </>
      )}
    </div>
  );
}
