"use client";

// Operational evidence from stage 2 (per-rollout rollups): reward curve raw and smoothed, span coverage and
// retry debt by reason. Missing evidence is shown as unavailable, never as healthy.
import { CurveChart } from "@/components/charts/curve-chart";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Stat } from "@/components/ui/stat";
import { percent } from "@/components/ui/format";
import type { GateReportView } from "./types";

type Evidence = GateReportView["evidence"];

export function RewardCard({ evidence, parent }: { evidence: Evidence; parent?: Pick<Evidence, "rewards"> | null }) {
  const { rewards, comparison } = evidence;
  const points = rewards.points.map((p, i) => ({ x: i + 1, y: p.y }));
  const parentPoints = parent?.rewards.points.map((p, i) => ({ x: i + 1, y: p.y })) ?? [];
  const references = [
    ...(comparison.parentMean !== null ? [{ y: comparison.parentMean, label: `parent locked gate ${comparison.parentMean.toFixed(3)}`, color: "var(--lg-ink-3)" }] : []),
    ...(comparison.candidateMean !== null ? [{ y: comparison.candidateMean, label: `candidate locked gate ${comparison.candidateMean.toFixed(3)}`, color: "var(--lg-accent)" }] : []),
  ];
  const series = [{ name: "candidate reward", points, color: "var(--lg-accent)" }, ...(parentPoints.length ? [{ name: "parent reward", points: parentPoints, color: "var(--lg-ink-3)" }] : [])];
  const parentNote = parentPoints.length ? "The parent's own training curve (grey) from its receipt. " : "The parent has no training curve of its own (no receipt); its locked-gate level is the dashed line. ";
  return (
    <Card title="Reward during training" description={`Final reward of each finished rollout, in time order (raw faint, debiased EMA bold). ${parentNote}${rewards.missingReward ? `${rewards.missingReward} finished rollouts recorded no reward.` : ""}`}>
      {points.length ? (
        <CurveChart series={series} references={references} xLabel="rollout" height={220} />
      ) : (
        <p className="text-sm text-unavailable">No rewards recorded: unavailable.</p>
      )}
    </Card>
  );
}

export function CoverageCard({ evidence }: { evidence: Evidence }) {
  const c = evidence.coverage;
  const ok = c.status === "available" && c.fullyCovered === c.considered;
  return (
    <Card title="Span coverage" description={`Declared families every succeeded rollout must have: ${c.expectedFamilies.join(", ") || "none"}.`}>
      {c.status === "unavailable" ? (
        <p className="text-sm text-unavailable">Unavailable: no succeeded rollout to judge or nothing declared.</p>
      ) : (
        <div className="space-y-3">
          <Stat label="Fully covered rollouts" value={`${c.fullyCovered} / ${c.considered}`} hint={c.ratio === null ? undefined : percent(c.ratio, 1)} tone={ok ? "pass" : "fail"} />
          {Object.values(c.missingByFamily).some((n) => n > 0) && (
            <table className="w-full text-sm" data-testid="coverage-missing">
              <thead className="text-xs text-ink-3">
                <tr>
                  <th className="py-1 text-left font-medium">Missing family</th>
                  <th className="py-1 text-right font-medium">Rollouts</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(c.missingByFamily)
                  .filter(([, n]) => n > 0)
                  .map(([family, n]) => (
                    <tr key={family} className="border-t border-line">
                      <td className="py-1 font-mono text-xs">{family}</td>
                      <td className="py-1 text-right tabular-nums text-fail">{n}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          )}
          <p className="text-xs text-ink-3">
            Not judged: {c.excluded.failed} failed, {c.excluded.cancelled} cancelled, {c.excluded.unfinished} unfinished.
          </p>
        </div>
      )}
    </Card>
  );
}

const REASON_LABEL: Record<string, string> = {
  first: "first attempt",
  expected_resample: "planned resample",
  retry_after_failed: "retry after failure",
  retry_after_timeout: "retry after timeout",
  retry_after_unresponsive: "retry after unresponsive",
  manual: "manual retry",
  unknown: "reason not recorded",
};
const EXPECTED = new Set(["first", "expected_resample"]);

export function RetryDebtCard({ evidence }: { evidence: Evidence }) {
  const r = evidence.retryDebt;
  const over = r.debt > r.budget;
  return (
    <Card title="Retry debt" description={`Attempts by the reason each one started. Budget: ${r.budget} unexpected retries.`}>
      {r.status === "unavailable" && <p className="mb-2 text-sm text-unavailable">Unavailable: some retries have no recorded reason, or there are no attempts.</p>}
      <div className="mb-3 grid grid-cols-2 gap-2">
        <Stat label="Debt" value={r.debt} hint={`${r.unexpectedRetries} unexpected + ${r.excessResamples} excess resamples`} tone={over ? "fail" : "pass"} />
        <Stat label="Attempts" value={r.attempts} hint={`${r.rollouts} rollouts`} />
      </div>
      <table className="w-full text-sm" data-testid="retry-reasons">
        <tbody>
          {Object.entries(r.byReason)
            .filter(([, n]) => n > 0)
            .map(([reason, n]) => (
              <tr key={reason} className="border-t border-line">
                <td className="py-1">{REASON_LABEL[reason] ?? reason}</td>
                <td className="py-1 text-right">{EXPECTED.has(reason) ? <Badge>expected</Badge> : <Badge tone="warn">debt</Badge>}</td>
                <td className="w-16 py-1 text-right tabular-nums">{n}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </Card>
  );
}
