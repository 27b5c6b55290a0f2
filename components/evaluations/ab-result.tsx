// The result of an A/B test: the verdict at the stated α, the difference with its confidence intervals,
// the p-value, the sample sizes and power in words, both arms' runs and intervals on one axis, and the
// same comparison for every metric measured.
import type { AbTestReport } from "@/server/evaluations/ab";
import { IntervalPlot } from "@/components/charts/interval-plot";
import { Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Stat } from "@/components/ui/stat";
import { JsonView } from "@/components/ui/json-view";

const f = (v: number | null | undefined, d = 3) => (v === null || v === undefined || !Number.isFinite(v) ? "—" : v.toFixed(d));
const sg = (v: number) => `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(3)}`;
const p = (v: number) => (v < 0.0001 ? v.toExponential(1) : v.toPrecision(2));
const COLORS = ["var(--lg-ink-2)", "var(--lg-accent)"];

type Arm = { name: string; family: string; config: Record<string, unknown>; updates: number };

export function AbResult({ report, request }: { report: AbTestReport; request: { a: Arm; b: Arm; seeds: number; alpha: number } }) {
  const m = report.metrics[0]!;
  const level = Math.round((1 - m.alpha) * 100);
  return (
    <div className="space-y-4">
      <div
        data-testid="ab-verdict"
        className={`rounded-lg border px-4 py-3 ${m.significant ? "border-accent/30 bg-accent/10 text-accent" : "border-line bg-panel-2 text-ink"}`}
      >
        <div className="font-medium">{m.significant ? `Significant difference at α = ${m.alpha}` : `No significant difference at α = ${m.alpha}`}</div>
        <div className="mt-0.5 text-sm opacity-90">{m.sentence}</div>
      </div>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label={`Δ ${m.metric} (B − A)`} value={sg(m.difference)} hint={`${m.b.name} − ${m.a.name}`} />
        <Stat label={`${level} % confidence interval`} value={<span data-testid="ab-ci">{`${f(m.welch.ci[0])} … ${f(m.welch.ci[1])}`}</span>} hint={`bootstrap ${f(m.bootstrap.ci[0])} … ${f(m.bootstrap.ci[1])}`} />
        <Stat label="p-value (Welch's t test)" value={p(m.welch.pValue)} hint={`t = ${f(m.welch.t, 2)}, df = ${f(m.welch.df, 1)}`} tone={m.significant ? "pass" : undefined} />
        <Stat label="Effect size" value={`d = ${f(m.effectSize.d, 2)}`} hint={`Hedges' g = ${f(m.effectSize.g, 2)}`} />
      </div>
      <Card title="Sample size and power">
        <p className="text-sm text-ink" data-testid="ab-power">{m.powerSentence}</p>
        {!m.significant && <p className="mt-1 text-xs text-ink-3">“No significant difference” is not “no difference”: smaller effects than the one above could go unseen with these sample sizes.</p>}
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title={`Both arms: ${m.metric}`} description={`Dots: one training run each. Diamond: mean. Whisker: ${level} % t interval of the mean.`}>
          <IntervalPlot testId="ab-arms-chart" axisLabel={m.metric} rows={m.arms.map((a, i) => ({ label: `${i === 0 ? "A" : "B"} · ${a.name}`, values: a.values, mean: a.mean, ci: a.ci, color: COLORS[i]! }))} />
        </Card>
        <Card title="The difference" description={`Whisker: Welch ${level} % interval; faint bar: bootstrap interval (${m.bootstrap.resamples.toLocaleString("en")} resamples). It is significant when the interval leaves zero.`}>
          <IntervalPlot testId="ab-difference-chart" zeroLine axisLabel={`Δ ${m.metric}`} rows={[{ label: "B − A", mean: m.difference, ci: m.welch.ci, color: m.significant ? "var(--lg-accent)" : "var(--lg-ink-2)", secondary: { label: "bootstrap", ci: m.bootstrap.ci } }]} />
        </Card>
      </div>
      <Card title="Every metric" description={`Each metric compared the same way; significance at α = ${m.alpha}. n = ${m.a.n} + ${m.b.n} training runs.`}>
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="ab-metrics-table">
            <thead className="border-b border-line text-xs text-ink-3">
              <tr>
                {["Metric", `A: ${m.a.name}`, `B: ${m.b.name}`, "Δ (B − A)", `${level} % CI`, "p", "Significant", "Power (observed)"].map((h) => (
                  <th key={h} className="px-2 py-2 font-medium whitespace-nowrap">{h}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {report.metrics.map((x) => (
                <tr key={x.key} className="border-b border-line last:border-0">
                  <td className="px-2 py-2 text-ink">{x.metric}{x.key === report.primary && <span className="ml-2"><Badge tone="accent">headline</Badge></span>}</td>
                  <td className="px-2 py-2 tabular-nums">{f(x.a.mean)} ± {f(x.a.sd)}</td>
                  <td className="px-2 py-2 tabular-nums">{f(x.b.mean)} ± {f(x.b.sd)}</td>
                  <td className="px-2 py-2 tabular-nums">{sg(x.difference)}</td>
                  <td className="px-2 py-2 tabular-nums whitespace-nowrap">{f(x.welch.ci[0])} … {f(x.welch.ci[1])}</td>
                  <td className="px-2 py-2 tabular-nums">{p(x.welch.pValue)}</td>
                  <td className="px-2 py-2">{x.significant ? <Badge tone="accent">yes</Badge> : <Badge>no</Badge>}</td>
                  <td className="px-2 py-2 tabular-nums">{f(x.power.observed, 2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        {[request.a, request.b].map((arm, i) => (
          <Card key={arm.name} title={`Arm ${i === 0 ? "A" : "B"}: ${arm.name}`} description={`${arm.family}, ${arm.updates} updates, ${request.seeds} seeds`}>
            <JsonView value={arm.config} />
          </Card>
        ))}
      </div>
      <p className="text-xs text-ink-3">
        Held-out set {report.heldOut.cases} tasks ({report.heldOut.digest.slice(0, 19)}…); data: {report.data.id}; seeds {report.seeds[0]} … {report.seeds.at(-1)}.
      </p>
    </div>
  );
}
