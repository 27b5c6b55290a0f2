"use client";

// The decision at a glance (verdict, its sentence, what blocks it), the freshness banner (data cutoff,
// evaluator, parent, canary window, and anything that went stale), and the candidate beside its exact parent.
import Link from "next/link";
import { AlertTriangle, CheckCircle2, Clock, ShieldAlert } from "lucide-react";
import { Card } from "@/components/ui/card";
import { CopyId } from "@/components/ui/copy-id";
import { signed, timestamp } from "@/components/ui/format";
import { LockedGateSummary } from "./cases-card";
import { OpenChecks, VERDICT_TONE, VerdictBadge } from "./verdict";
import type { CandidateDetail } from "./types";

const BANNER: Record<string, string> = {
  fail: "border-fail/40 bg-fail/10",
  warn: "border-warn/40 bg-warn/10",
  accent: "border-accent/40 bg-accent/10",
  pass: "border-pass/40 bg-pass/10",
};

export function DecisionBanner({ detail }: { detail: CandidateDetail }) {
  const { summary, report } = detail;
  const tone = summary.verdict ? VERDICT_TONE[summary.verdict] : "fail";
  const Icon = summary.verdict === "QUARANTINED" || !summary.verdict ? ShieldAlert : summary.verdict === "READY FOR APPROVAL" ? Clock : CheckCircle2;
  return (
    <div className={`flex items-start gap-4 rounded-lg border px-5 py-4 ${BANNER[tone] ?? BANNER.fail}`} data-testid="decision">
      <Icon className="mt-1 h-7 w-7 shrink-0 text-ink" />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-3">
          <span className="text-lg font-semibold tracking-tight text-ink" data-testid="verdict-text">
            {summary.verdict ?? "NOT JUDGED"}
          </span>
          {summary.scoreGain !== null && <span className="text-sm text-ink-2">score vs parent {signed(summary.scoreGain)}</span>}
        </div>
        <p className="mt-1 text-sm text-ink" data-testid="verdict-sentence">
          {summary.sentence}
        </p>
        {report && report.blocking.length > 0 && (
          <ul className="mt-2 space-y-1 text-sm" data-testid="blocking">
            {report.blocking.map((b) => {
              const check = (b.scope === "canary-stage" ? report.canaryStageChecks : report.checks)?.find((c) => c.id === b.check);
              return (
                <li key={`${b.scope}-${b.check}`} className="flex gap-2">
                  <OpenChecks checks={check ? [check] : []} />
                  <span className="text-ink-2">
                    <b className="text-ink">{check?.title}</b> — {check?.explanation}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </div>
  );
}

export function FreshnessBanner({ detail }: { detail: CandidateDetail }) {
  const { report, stage1, stage2, stage3, versions } = detail;
  const stale = report?.freshness.stale ?? [];
  const canary = stage3?.canary?.window;
  const items: [string, string][] = [
    ["Data cutoff", stage2 ? timestamp(new Date(stage2.dataCutoff)) : "no stage 2"],
    ["Evaluator", stage1 ? `${stage1.evaluator.id} v${stage1.evaluator.version}${versions.evaluator.includes(`@${stage1.evaluator.version}#`) ? "" : " (superseded)"}` : "—"],
    ["Parent", stage1 ? `${stage1.parent.resourceId} v${stage1.parent.version}${detail.parent.isApprovedDefault ? " (approved default)" : " (not the approved default)"}` : "—"],
    ["Canary window", canary ? `${timestamp(new Date(canary.start))} → ${timestamp(new Date(canary.end))}` : "none"],
  ];
  return (
    <div className={`rounded-lg border px-4 py-3 text-sm ${stale.length ? "border-stale/40 bg-stale/10" : "border-line bg-panel"}`} data-testid="freshness">
      <div className="flex flex-wrap gap-x-6 gap-y-1">
        <span className={`font-medium ${stale.length ? "text-stale" : "text-pass"}`}>{stale.length ? `Stale evidence: ${stale.length} check result${stale.length > 1 ? "s" : ""}` : "Evidence fresh"}</span>
        {items.map(([k, v]) => (
          <span key={k} className="text-ink-2">
            <span className="text-ink-3">{k}:</span> {v}
          </span>
        ))}
      </div>
      {stale.length > 0 && (
        <ul className="mt-2 space-y-0.5 text-xs text-stale">
          {stale.map((s) => (
            <li key={`${s.scope}-${s.check}`}>
              <AlertTriangle className="mr-1 inline h-3 w-3" />
              check {s.check}
              {s.scope === "canary-stage" ? " (canary stage)" : ""}: {s.reasons.map((r) => r.sentence).join("; ")} — re-run the gate.
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Side({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0 flex-1 rounded-md border border-line bg-panel-2 p-3">
      <div className="mb-1 text-xs font-medium text-ink-3">{label}</div>
      {children}
    </div>
  );
}

export function LineageCard({ detail }: { detail: CandidateDetail }) {
  const { summary, parent, report } = detail;
  const c = report?.evidence.comparison;
  return (
    <Card title="Candidate next to its exact parent">
      <div className="flex flex-col gap-3 md:flex-row">
        <Side label="Candidate">
          <div className="font-medium text-ink">
            {summary.resourcesId} v{summary.version}
          </div>
          <CopyId value={summary.digest} short={22} />
          <div className="mt-1 text-xs text-ink-2">
            {summary.algorithm} · {summary.agent}
          </div>
          <div className="mt-1 text-sm tabular-nums">locked gate mean {c?.candidateMean?.toFixed(3) ?? "—"}</div>
        </Side>
        <Side label={parent.isApprovedDefault ? "Exact parent · approved default" : "Exact parent"}>
          <div className="font-medium text-ink">
            {parent.candidate ? <Link href={`/candidates/${parent.candidate.id}`} className="text-accent hover:underline">{parent.resourcesId} v{parent.version}</Link> : `${parent.resourcesId} v${parent.version}`}
          </div>
          <CopyId value={parent.digest} short={22} />
          <div className="mt-1 text-xs text-ink-2">{parent.candidate ? <>its verdict: <VerdictBadge verdict={parent.candidate.verdict} /></> : "lineage root (no receipt of its own)"}</div>
          <div className="mt-1 text-sm tabular-nums">locked gate mean {c?.parentMean?.toFixed(3) ?? "—"}</div>
        </Side>
      </div>
      {report && <div className="mt-3"><LockedGateSummary evidence={report.evidence} /></div>}
    </Card>
  );
}
