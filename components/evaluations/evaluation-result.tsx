"use client";

// The result of an evaluation: the seven metrics with how each was measured (and its 95 % interval where
// the units measured are independent), then each protocol's breakdown — learning curve, per fold, past vs
// future, per domain, adaptation steps, clean vs perturbed.
import type { EvaluationReport } from "@/server/evaluations/evaluation";
import { BarList } from "@/components/charts/bar-list";
import { CurveChart } from "@/components/charts/curve-chart";
import { Card } from "@/components/ui/card";
import { ScrollX } from "@/components/ui/scroll-x";
import { Stat } from "@/components/ui/stat";
import { CopyId } from "@/components/ui/copy-id";

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
const f3 = (v: number) => v.toFixed(3);
const pctCi = (c: [number, number] | null) => (c ? `95 % CI ${pct(c[0])} … ${pct(c[1])}` : undefined);
const f3Ci = (c: [number, number]) => `95 % CI ${f3(c[0])} … ${f3(c[1])}`;

export function EvaluationResult({ report: r }: { report: EvaluationReport }) {
  return (
    <div className="space-y-4">
      <Card title="Metrics" description="Each from the protocol that measures it; “not measured” names the protocol that would.">
        <ScrollX label="metrics">
          <table className="w-full text-left text-sm" data-testid="metrics-table">
            <thead className="border-b border-line text-xs text-ink-3">
              <tr>
                <th className="px-2 py-2 font-medium">Metric</th>
                <th className="px-2 py-2 font-medium">Value</th>
                <th className="px-2 py-2 font-medium">How it was measured</th>
              </tr>
            </thead>
            <tbody>
              {r.metrics.map((m) => (
                <tr key={m.key} className="border-b border-line last:border-0">
                  <td className="px-2 py-2 font-medium text-ink">{m.label}</td>
                  <td className={`px-2 py-2 tabular-nums whitespace-nowrap ${m.value === null ? "text-ink-3" : "text-ink"}`}>{m.display}</td>
                  <td className="px-2 py-2 text-xs text-ink-3">{m.basis}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      </Card>

      {r.heldOutResult && (
        <Card title="Held-out" description={`${r.heldOut.cases} evaluation tasks (not the gate's locked exam), the policy acting greedily as it would be published. Intervals: 95 %, over tasks.`}>
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="held-out-stats">
            <Stat label="Success rate" value={pct(r.heldOutResult.successRate)} hint={pctCi(r.heldOutResult.successRateCi)} />
            <Stat label="Mean reward" value={f3(r.heldOutResult.meanReward)} hint={f3Ci(r.heldOutResult.meanRewardCi)} />
            <Stat label="Outcome reached" value={pct(r.heldOutResult.outcomeRate)} hint={pctCi(r.heldOutResult.outcomeRateCi)} />
            <Stat label="Protected cases passed" value={`${r.heldOutResult.protectedPassed} / ${r.heldOutResult.protectedCases}`} hint={pctCi(r.heldOutResult.protectedPassedCi)} tone={r.heldOutResult.protectedPassed < r.heldOutResult.protectedCases ? "warn" : "pass"} />
          </div>
          {r.heldOutResult.byFamily.length > 0 && (
            <div className="mt-4">
              <div className="mb-2 text-xs font-medium text-ink-2">Protected cases passed, by family</div>
              <BarList domain={[0, 1]} bars={r.heldOutResult.byFamily.map((b) => ({ label: b.family, value: b.cases ? b.passed / b.cases : 0, display: `${b.passed} / ${b.cases}`, tone: b.passed === b.cases ? "pass" : "warn" }))} />
              <p className="mt-2 text-xs text-ink-3" data-testid="family-intervals">95 % intervals: {r.heldOutResult.byFamily.map((b) => (b.ci ? `${b.family} ${pct(b.ci[0])} … ${pct(b.ci[1])}` : null)).filter(Boolean).join(" · ")}</p>
            </div>
          )}
        </Card>
      )}

      {r.learningCurve && r.learningCurve.length > 0 && (
        <Card title="Learning curve" description="Evaluation reward and success rate after each update (a 60-task slice of its own, apart from the tasks above).">
          <CurveChart
            xLabel="update"
            defaultSmoothing={0}
            series={[
              { name: "mean reward", color: "var(--lg-accent)", points: r.learningCurve.map((p) => ({ x: p.update, y: p.meanReward })) },
              { name: "success rate", color: "var(--lg-pass)", points: r.learningCurve.map((p) => ({ x: p.update, y: p.successRate })) },
            ]}
          />
        </Card>
      )}

      <div className="grid gap-4 lg:grid-cols-2">
        {r.kFold && (
          <Card title={`${r.kFold.k}-fold cross-validation`} description={`Imitation accuracy on each held-out fold; mean ${pct(r.kFold.mean)} ± ${pct(r.kFold.sd)} (${pctCi(r.kFold.ci)}, t over folds).`}>
            <BarList testId="kfold-bars" domain={[0, 1]} bars={r.kFold.folds.map((x) => ({ label: `fold ${x.fold}`, value: x.accuracy, display: pct(x.accuracy) }))} />
          </Card>
        )}
        {r.temporal && (
          <Card title="Temporal validation" description={`Trained on demonstrations before ${r.temporal.cutAt.slice(0, 16).replace("T", " ")}, tested on the later ones.`}>
            <BarList domain={[0, 1]} bars={[{ label: "past (trained on)", value: r.temporal.past, display: pct(r.temporal.past), tone: "neutral" }, { label: "future (unseen)", value: r.temporal.future, display: pct(r.temporal.future) }]} />
          </Card>
        )}
        {r.domainTransfer && (
          <Card title="Domain transfer" description={`Trained on ${r.domainTransfer.trainedOn}; mean reward per domain (source: ${r.domainTransfer.source}).`}>
            <BarList testId="domain-bars" domain={[-1, 1]} bars={r.domainTransfer.domains.map((d) => ({ label: d.domain === r.domainTransfer!.source ? `${d.domain} (source)` : d.domain, value: d.meanReward, display: f3(d.meanReward), tone: d.domain === r.domainTransfer!.source ? "neutral" : d.gap > 0.1 ? "warn" : "accent" }))} />
            <table className="mt-3 w-full text-left text-xs">
              <thead className="text-ink-3"><tr><th className="py-1 font-medium">Domain</th><th className="py-1 font-medium">Mean reward (95 % CI)</th><th className="py-1 font-medium">Success</th><th className="py-1 font-medium">Gap to source</th></tr></thead>
              <tbody>
                {r.domainTransfer.domains.map((d) => (
                  <tr key={d.domain}><td className="py-1 text-ink-2">{d.domain}</td><td className="py-1 tabular-nums">{f3(d.meanReward)} ({f3(d.meanRewardCi[0])} … {f3(d.meanRewardCi[1])})</td><td className="py-1 tabular-nums">{pct(d.successRate)}</td><td className="py-1 tabular-nums">{f3(d.gap)}</td></tr>
                ))}
              </tbody>
            </table>
            <p className="mt-2 text-xs text-ink-3">Gap of the other domains to the source: {f3Ci(r.domainTransfer.gapCi)} (Welch, over tasks).</p>
          </Card>
        )}
        {r.fewShot && (
          <Card title={`Few-shot adaptation to ${r.fewShot.domain}`} description={`Query accuracy after each step on ${r.fewShot.support} support demonstrations; the other domains went ${pct(r.fewShot.otherDomainsBefore)} → ${pct(r.fewShot.otherDomainsAfter)}.`}>
            <CurveChart xLabel="step" height={200} yDomain={[0, 1]} defaultSmoothing={0} showSmoothingControl={false} series={[{ name: "query accuracy", color: "var(--lg-accent)", points: r.fewShot.curve.map((p) => ({ x: p.step, y: p.accuracy })) }]} />
          </Card>
        )}
        {r.adversarial && (
          <Card title="Adversarial perturbation" description={`Gaussian noise σ = ${r.adversarial.noise} on every feature; with probability ${r.adversarial.flip} one categorical feature flipped. Reward drop ${f3(r.adversarial.drop)} (${f3Ci(r.adversarial.dropCi)}, paired over the same tasks).`}>
            <BarList domain={[-1, 1]} bars={[{ label: "clean", value: r.adversarial.clean.meanReward, display: f3(r.adversarial.clean.meanReward), tone: "neutral" }, { label: "perturbed", value: r.adversarial.perturbed.meanReward, display: f3(r.adversarial.perturbed.meanReward), tone: r.adversarial.drop > 0.1 ? "warn" : "accent" }]} />
            <p className="mt-2 text-xs text-ink-3">Success {pct(r.adversarial.clean.successRate)} clean ({pctCi(r.adversarial.clean.successRateCi)}), {pct(r.adversarial.perturbed.successRate)} perturbed ({pctCi(r.adversarial.perturbed.successRateCi)}).</p>
          </Card>
        )}
      </div>
      <p className="flex flex-wrap items-center gap-2 text-xs text-ink-3">
        Subject {r.subject.label} · {r.subject.policyKind} policy <CopyId value={r.subject.policyDigest} /> · data {r.data.id} ({r.data.records} records) · held-out <CopyId value={r.heldOut.digest} />
      </p>
    </div>
  );
}
