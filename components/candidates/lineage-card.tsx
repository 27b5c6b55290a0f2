"use client";

// The candidate beside its exact parent: names, digests, status, how each acts as published (greedy or sampling),
// what the parent resolved to when the gate ran
// (D's unresolvable parent says so on its card), and the training evidence both have — locked-gate mean, span
// coverage and retry debt side by side (the parent's from its own receipt, when it has one).
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { CopyId } from "@/components/ui/copy-id";
import { servingLabel, type ServingView } from "@/lib/policies/serving";
import { LockedGateSummary } from "./cases-card";
import { VerdictBadge } from "./verdict";
import type { CandidateDetail, GateReportView } from "./types";

type Ev = Pick<GateReportView["evidence"], "coverage" | "retryDebt">;

function Facts({ mean, evidence, serving }: { mean: number | null | undefined; evidence: Ev | null; serving: ServingView | null }) {
  const cov = evidence?.coverage;
  const debt = evidence?.retryDebt;
  return (
    <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
      {serving && (
        <>
          <dt className="text-ink-3">Reads</dt>
          <dd data-testid="side-reads">{serving.reads}</dd>
          <dt className="text-ink-3">Acts</dt>
          <dd data-testid="side-serving" data-mode={serving.mode}>
            {servingLabel(serving)}
          </dd>
        </>
      )}
      <dt className="text-ink-3">Locked gate mean</dt>
      <dd className="tabular-nums">{mean?.toFixed(3) ?? "—"}</dd>
      <dt className="text-ink-3">Span coverage</dt>
      <dd className="tabular-nums" data-testid="side-coverage">
        {cov && cov.status === "available" ? `${cov.fullyCovered} / ${cov.considered} rollouts` : "unavailable"}
      </dd>
      <dt className="text-ink-3">Retry debt</dt>
      <dd className="tabular-nums" data-testid="side-retry-debt">
        {debt && debt.status === "available" ? `${debt.debt} (budget ${debt.budget})` : "unavailable"}
      </dd>
    </dl>
  );
}

function Side({ label, testId, children }: { label: string; testId: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0 flex-1 rounded-md border border-line bg-panel-2 p-3" data-testid={testId}>
      <div className="mb-1 text-xs font-medium text-ink-3">{label}</div>
      {children}
    </div>
  );
}

function ParentResolution({ detail }: { detail: CandidateDetail }) {
  const r = detail.parent.resolution;
  if (!r) return <p className="mt-1 text-xs text-unavailable">Not resolved yet: the gate has not run.</p>;
  if (r.status === "resolved") return <p className="mt-1 text-xs text-pass">Resolved to its pinned digest when the gate ran.</p>;
  return (
    <p className="mt-1 text-xs font-medium text-fail" data-testid="parent-unresolved">
      Could not be resolved when the gate ran: {r.reason}. Checks 1 and 7 cannot pass against it.
    </p>
  );
}

export function LineageCard({ detail }: { detail: CandidateDetail }) {
  const { summary, parent, report } = detail;
  const c = report?.evidence.comparison;
  const unresolved = parent.resolution?.status === "unresolvable";
  return (
    <Card title="Candidate next to its exact parent">
      <div className="flex flex-col gap-3 md:flex-row">
        <Side label="Candidate" testId="side-candidate">
          <div className="font-medium break-words text-ink">{summary.title}</div>
          <CopyId value={summary.digest} short={22} />
          <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-ink-2">
            <VerdictBadge verdict={summary.status} /> {summary.algorithm}
          </div>
          <Facts mean={c?.candidateMean} evidence={report?.evidence ?? null} serving={detail.serving.candidate} />
        </Side>
        <Side label={parent.isApprovedDefault ? "Exact parent · approved default" : "Exact parent"} testId="side-parent">
          <div className="flex flex-wrap items-center gap-2 font-medium break-words text-ink">
            {parent.candidate ? (
              <Link href={`/candidates/${parent.candidate.id}`} className="text-accent hover:underline">
                {parent.title}
              </Link>
            ) : (
              parent.title
            )}
            {unresolved && <Badge tone="fail">unresolvable</Badge>}
          </div>
          <CopyId value={parent.digest} short={22} />
          <ParentResolution detail={detail} />
          <div className="mt-1 text-xs text-ink-2">{parent.candidate ? <>its own status: <VerdictBadge verdict={parent.candidate.status} /></> : "lineage root: no receipt of its own, so no training evidence to show"}</div>
          <Facts mean={c?.parentMean} evidence={parent.evidence} serving={detail.serving.parent} />
        </Side>
      </div>
      {report && (
        <div className="mt-3">
          <LockedGateSummary evidence={report.evidence} />
        </div>
      )}
    </Card>
  );
}
