"use client";

// One external (Agent Lightning) training, live from the store: reward curves over versions and over time (faint
// raw, bold debiased EMA), throughput, a table of versions where every figure stands beside the previous version's
// with its change, and the runners at work on the newest version. Polls every 3 s (react-query pauses while the
// tab is hidden); nothing here writes.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { CurveChart } from "@/components/charts/curve-chart";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Alert } from "@/components/ui/form";
import { Badge } from "@/components/ui/badge";
import { Stat } from "@/components/ui/stat";
import { Time } from "@/components/ui/time";
import { percent } from "@/components/ui/format";

type Compared = { value: number | null; previous: number | null; delta: number | null };
type Format = (n: number) => string;
const fixed3: Format = (n) => n.toFixed(3);
const pct: Format = (n) => percent(n, 1);
const count: Format = (n) => n.toLocaleString();
const perMin: Format = (n) => `${n < 10 ? n.toFixed(2) : n.toFixed(0)}/min`;

/** A figure with its change from the previous version, coloured by whether the change is good. */
function WithDelta({ c, format, higherIsBetter }: { c: Compared; format: Format; higherIsBetter: boolean | null }) {
  const d = c.delta;
  const tone = d === null || d === 0 || higherIsBetter === null ? "text-ink-3" : d > 0 === higherIsBetter ? "text-pass" : "text-fail";
  const sign = d === null ? "" : d > 0 ? "+" : d < 0 ? "−" : "±";
  return (
    <span className="flex flex-col items-end whitespace-nowrap">
      <span className="tabular-nums text-ink">{c.value === null ? "—" : format(c.value)}</span>
      {c.previous !== null || c.delta !== null ? (
        <span className={`text-[11px] tabular-nums ${tone}`} title={c.previous === null ? "the previous version has no value" : `previous version: ${format(c.previous)}`}>
          {d === null ? "Δ —" : `Δ ${sign}${format(Math.abs(d))}`}
        </span>
      ) : null}
    </span>
  );
}

type Point = { x: number; y: number };

/** Train and validation reward, raw and smoothed (the house CurveChart), or a line saying there is none yet. */
function RewardCurve({ testId, xLabel, train, val, smoothing = 0.8 }: { testId: string; xLabel: string; train: Point[]; val: Point[]; smoothing?: number }) {
  if (train.length + val.length === 0) return <p className="text-sm text-ink-3">No rewarded rollout yet.</p>;
  const series = [
    { name: "train", points: train, color: "var(--lg-accent)" },
    { name: "validation", points: val, color: "var(--lg-pass)" },
  ];
  return (
    <div data-testid={testId}>
      <CurveChart xLabel={xLabel} series={series} defaultSmoothing={smoothing} />
    </div>
  );
}

export function ExternalTrainingDetail({ resourcesId }: { resourcesId: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.external.getTraining.queryOptions({ resourcesId }, { refetchInterval: 3_000 }));
  if (q.isLoading) return <p className="text-sm text-ink-3">Loading…</p>;
  if (q.error) return <Alert tone="fail">{q.error.message}</Alert>;
  const t = q.data!;
  type Version = (typeof t.versions)[number];
  const newest = t.versions.at(-1);
  const byVersion = (key: "trainReward" | "valReward") => t.versions.flatMap((v) => (v.figures[key].value === null ? [] : [{ x: v.version, y: v.figures[key].value! }]));
  const t0 = t.overTime.points[0]?.at ?? t.createdAt;
  const overTime = (mode: "train" | "val") => t.overTime.points.flatMap((p) => (p.mode !== mode || p.meanReward === null ? [] : [{ x: (p.at - t0) / 60, y: p.meanReward }]));
  const perBucket = new Map<number, number>();
  for (const p of t.overTime.points) perBucket.set(p.at, (perBucket.get(p.at) ?? 0) + p.rollouts);
  const throughput = [...perBucket.entries()].sort((a, b) => a[0] - b[0]).map(([at, n]) => ({ x: (at - t0) / 60, y: (n * 60) / t.overTime.bucketSeconds }));

  const columns: Column<Version>[] = [
    {
      key: "version",
      header: "Version",
      cell: (v) => (
        <div className="whitespace-nowrap">
          <span className="font-medium text-ink">v{v.version}</span>
          <div className="text-[11px] text-ink-3">
            <Time at={v.createdAt} />
          </div>
        </div>
      ),
    },
    { key: "train", header: "Train reward", align: "right", cell: (v) => <WithDelta c={v.figures.trainReward} format={fixed3} higherIsBetter /> },
    { key: "val", header: "Validation reward", align: "right", cell: (v) => <WithDelta c={v.figures.valReward} format={fixed3} higherIsBetter /> },
    { key: "rollouts", header: "Rollouts", align: "right", cell: (v) => <WithDelta c={v.figures.rollouts} format={count} higherIsBetter={null} /> },
    { key: "failure", header: "Failed", align: "right", cell: (v) => <WithDelta c={v.figures.failureRate} format={pct} higherIsBetter={false} /> },
    { key: "retry", header: "Retried", align: "right", cell: (v) => <WithDelta c={v.figures.retryRate} format={pct} higherIsBetter={false} /> },
    { key: "coverage", header: "Span coverage", align: "right", cell: (v) => <WithDelta c={v.figures.coverage} format={pct} higherIsBetter /> },
    { key: "debt", header: "Retry debt", align: "right", cell: (v) => <WithDelta c={v.figures.retryDebt} format={count} higherIsBetter={false} /> },
    { key: "throughput", header: "Throughput", align: "right", cell: (v) => <WithDelta c={v.figures.throughput} format={perMin} higherIsBetter /> },
  ];

  return (
    <div className="space-y-4" data-testid="external-training" data-versions={t.versions.length}>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label="Versions" value={t.versions.length + t.olderVersions} hint={newest ? <>newest v{newest.version}, <Time at={newest.createdAt} /></> : "none yet"} />
        <Stat label="Rollouts" value={t.rollouts.toLocaleString()} hint={t.pendingRollups > 0 ? `${t.pendingRollups.toLocaleString()} still being read` : t.trials > 0 ? `with ${t.trials.toLocaleString()} trial ${t.trials === 1 ? "id" : "ids"} whose content became a version` : "train, validation and test"} />
        <Stat label="Validation reward (newest)" value={newest?.figures.valReward.value == null ? "—" : newest.figures.valReward.value.toFixed(3)} hint={newest ? `${newest.valRewarded} of ${newest.valRollouts} validation rollouts rewarded` : undefined} />
        <Stat
          label="Span coverage (newest)"
          value={newest?.figures.coverage.value == null ? "unavailable" : percent(newest.figures.coverage.value, 1)}
          tone={newest?.figures.coverage.value == null ? "warn" : newest.figures.coverage.value < 1 ? "fail" : "pass"}
          hint="succeeded rollouts whose last attempt exported a reward span"
        />
      </div>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Reward over versions" description="Mean final reward of the rollouts that ran each version. Faint: raw; bold: debiased EMA.">
          <RewardCurve testId="reward-by-version" xLabel="version" train={byVersion("trainReward")} val={byVersion("valReward")} smoothing={0.5} />
        </Card>
        <Card title="Reward over time" description={`Mean final reward of the rollouts started in each ${t.overTime.bucketSeconds}-second window, minutes since the first.`}>
          <RewardCurve testId="reward-over-time" xLabel="minutes" train={overTime("train")} val={overTime("val")} />
        </Card>
      </div>

      <Card title="Versions" description="Each version's rollouts are those started while it was the newest, and its trials'. Every figure shows its change from the previous version (green: better).">
        <DataTable testId="external-versions" label="Versions" rows={[...t.versions].reverse()} columns={columns} rowKey={(v) => String(v.version)} empty="No version yet." />
        {t.trials > 0 && (
          <p className="mt-2 text-xs text-ink-3">
            A version&apos;s figures include the rollouts of the trial ids (<code>add_resources</code>) that ran its exact content before it was published: the evidence that made the algorithm keep it.
          </p>
        )}
        {t.olderVersions > 0 && <p className="mt-2 text-xs text-ink-3">{t.olderVersions} older versions are not shown.</p>}
      </Card>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Throughput" description="Train and validation rollouts started per minute.">
          {throughput.length === 0 ? (
            <p className="text-sm text-ink-3">No rollout yet.</p>
          ) : (
            <div data-testid="throughput">
              <CurveChart xLabel="minutes" height={180} showSmoothingControl={false} defaultSmoothing={0.6} series={[{ name: "rollouts / min", points: throughput, color: "var(--lg-accent)" }]} />
            </div>
          )}
        </Card>
        <Card title="Runners at work" description="Workers that served attempts of the newest version's rollouts (all runners: /runners).">
          {t.runners.length === 0 ? (
            <p className="text-sm text-ink-3">No runner has served the newest version yet.</p>
          ) : (
            <ul className="divide-y divide-line text-sm" data-testid="external-runners">
              {t.runners.map((r) => (
                <li key={r.workerId} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span className="flex min-w-0 items-center gap-2">
                    <span className="font-mono text-xs text-ink [overflow-wrap:anywhere]">{r.workerId}</span>
                    <Badge tone={r.status === "busy" ? "accent" : "neutral"}>{r.status}</Badge>
                  </span>
                  <span className="text-xs text-ink-3">
                    {r.attempts} attempts{r.failedAttempts ? `, ${r.failedAttempts} failed` : ""} · last <Time at={r.lastAttemptAt} />
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </div>
  );
}
