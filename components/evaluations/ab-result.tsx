// The result of an A/B test: the verdict at the stated α (Holm-adjusted over the metrics compared), the
// difference with the chosen test's interval, the p-values, prospective power and the runs a chosen
// difference needs, both arms' runs and intervals on one axis, and the same comparison for every metric.
import type { AbMetricResult, AbTestReport } from "@/server/evaluations/ab";
import { IntervalPlot } from "@/components/charts/interval-plot";
import { Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Stat } from "@/components/ui/stat";
import { JsonView } from "@/components/ui/json-view";

const f = (v: number | null | undefined, d = 3) => (v === null || v === undefined || !Number.isFinite(v) ? "—" : v.toFixed(d));
const sg = (v: number) => `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(3)}`;
const p = (v: number) => (v < 0.0001 ? v.toExponential(1) : v.toPrecision(2));
const ci = (c: [number, number] | null) => (c ? `${f(c[0])} … ${f(c[1])}` : "too few runs");
const COLORS = ["var(--lg-ink-2)", "var(--lg-accent)"];
const TEST_NAME = { welch: "Welch's t test", "mann-whitney": "Mann–Whitney U" } as const;

type Arm = { name: string; family: string; config: Record<string, unknown>; updates: number };

/** Runs per arm the chosen difference needs, for the table. */
const need = (m: AbMetricResult) => (m.planning.d === null ? "2" : m.planning.runsPerArm === null ? "> 10,000" : String(m.planning.runsPerArm));

export function AbResult({ report, request }: { report: AbTestReport; request: { a: Arm; b: Arm; seeds: number; alpha: number } }) {
  const m = report.metrics[0]!;
  const level = Math.round((1 - m.alpha) * 100);
  const welch = m.decision.test === "welch";
  const estimate = welch ? "Δ" : "shift";
  const holm = m.comparedMetrics > 1;
  // The other test's interval, faint, for comparison.
  const other = welch ? (m.mannWhitney.ci ? { label: "Mann–Whitney (Hodges–Lehmann)", ci: m.mannWhitney.ci } : undefined) : { label: "Welch", ci: m.welch.ci };
  return (
    <div className="space-y-4">
      <div
        data-testid="ab-verdict"
        className={`rounded-lg border px-4 py-3 ${m.significant ? "border-accent/30 bg-accent/10 text-accent" : "border-line bg-panel-2 text-ink"}`}
      >
        <div className="font-medium">{m.significant ? `Significant difference at α = ${m.alpha}` : `No significant difference at α = ${m.alpha}`}{holm ? ` (Holm-adjusted over ${m.comparedMetrics} metrics)` : ""}</div>
        <div className={`mt-0.5 text-sm ${m.significant ? "text-ink" : ""}`}>{m.sentence}</div>
      </div>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label={`${estimate} ${m.metric} (B − A)`} value={sg(m.decision.estimate)} hint={welch ? `${m.b.name} − ${m.a.name}` : "Hodges–Lehmann: median of the pairwise differences"} />
        <Stat label={`${level} % confidence interval`} value={<span data-testid="ab-ci">{ci(m.decision.ci)}</span>} hint={welch ? "Welch t interval" : `Moses interval (exact ${f(m.decision.confidence * 100, 1)} %)`} />
        <Stat label={`p-value (${TEST_NAME[m.decision.test]})`} value={p(m.decision.pValue)} hint={holm ? `Holm-adjusted ${p(m.adjustedP)}` : welch ? `t = ${f(m.welch.t, 2)}, df = ${f(m.welch.df, 1)}` : `U = ${m.mannWhitney.u}, ${m.mannWhitney.method}`} tone={m.significant ? "pass" : undefined} />
        <Stat label="Effect size" value={`d = ${f(m.effectSize.d, 2)}`} hint={`Hedges' g = ${f(m.effectSize.g, 2)}`} />
      </div>
      <Card title="Sample size and power" description="Prospective: against the difference worth detecting, chosen before the test ran — not the difference observed.">
        <p className="text-sm text-ink" data-testid="ab-power">{m.powerSentence}</p>
        {!m.significant && <p className="mt-1 text-xs text-ink-3">“No significant difference” is not “no difference”: smaller effects than the one above could go unseen with these sample sizes.</p>}
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title={`Both arms: ${m.metric}`} description={`Dots: one training run each. Diamond: mean. Whisker: ${level} % t interval of the mean.`}>
          <IntervalPlot testId="ab-arms-chart" axisLabel={m.metric} rows={m.arms.map((a, i) => ({ label: `${i === 0 ? "A" : "B"} · ${a.name}`, values: a.values, mean: a.mean, ci: a.ci, color: COLORS[i]! }))} />
        </Card>
        <Card title="The difference" description={`Whisker: ${TEST_NAME[m.decision.test]} ${level} % interval${other ? `; faint bar: ${other.label}` : ""}. Significant when the deciding interval leaves zero${holm ? " and the Holm-adjusted p stays below α" : ""}.`}>
          <IntervalPlot testId="ab-difference-chart" zeroLine axisLabel={`${estimate} ${m.metric}`} rows={[{ label: "B − A", mean: m.decision.estimate, ci: m.decision.ci ?? [NaN, NaN], color: m.significant ? "var(--lg-accent)" : "var(--lg-ink-2)", secondary: other }]} />
        </Card>
      </div>
      <Card title="Every metric" description={`Each metric compared with ${TEST_NAME[m.decision.test]}; significance at α = ${m.alpha} on Holm-adjusted p. n = ${m.a.n} + ${m.b.n} training runs. Runs needed: per arm, for 80 % power against the chosen difference at the spread seen.`}>
        {/* Focusable: a keyboard can scroll the table on a phone (axe: scrollable-region-focusable). */}
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="every metric compared">
          <table className="w-full text-left text-sm" data-testid="ab-metrics-table">
            <thead className="border-b border-line text-xs text-ink-3">
              <tr>
                {["Metric", `A: ${m.a.name}`, `B: ${m.b.name}`, `${estimate} (B − A)`, `${level} % CI`, "p", "Holm p", "Significant", "Runs needed"].map((h) => (
                  <th key={h} className="px-2 py-2 font-medium whitespace-nowrap">{h}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {report.metrics.map((x) => (
                <tr key={x.key} className="border-b border-line last:border-0">
                  <td className="px-2 py-2 text-ink">{x.metric}{x.key === report.primary && <span className="ml-2"><Badge tone="accent">headline</Badge></span>}</td>
                  <td className="px-2 py-2 tabular-nums whitespace-nowrap">{f(x.a.mean)} ± {f(x.a.sd)}</td>
                  <td className="px-2 py-2 tabular-nums whitespace-nowrap">{f(x.b.mean)} ± {f(x.b.sd)}</td>
                  <td className="px-2 py-2 tabular-nums">{sg(x.decision.estimate)}</td>
                  <td className="px-2 py-2 tabular-nums whitespace-nowrap">{ci(x.decision.ci)}</td>
                  <td className="px-2 py-2 tabular-nums">{p(x.decision.pValue)}</td>
                  <td className="px-2 py-2 tabular-nums">{p(x.adjustedP)}</td>
                  <td className="px-2 py-2">{x.significant ? <Badge tone="accent">yes</Badge> : <Badge>no</Badge>}</td>
                  <td className="px-2 py-2 tabular-nums whitespace-nowrap" title={`difference ${f(x.planning.effect)}; this test's power ${f(x.planning.power, 2)}`}>{need(x)} for {f(x.planning.effect)}</td>
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
        Evaluation set {report.heldOut.cases} tasks ({report.heldOut.digest.slice(0, 19)}…); data: {report.data.id}; seeds {report.seeds[0]} … {report.seeds.at(-1)}.
      </p>
    </div>
  );
}
