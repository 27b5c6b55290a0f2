"use client";

// One candidate, next to its exact parent: the decision and its reason first, then what it rests on.
import { useQuery } from "@tanstack/react-query";
import { ApprovalPanel } from "@/components/approvals/approval-panel";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { CopyId } from "@/components/ui/copy-id";
import { EmptyState } from "@/components/ui/empty-state";
import { Time } from "@/components/ui/time";
import { CanaryCard, RollbackCard } from "./canary-card";
import { CanaryStagePanel } from "./canary-stage-panel";
import { ProtectedCasesCard } from "./cases-card";
import { ChecksCard } from "./checks-card";
import { CoverageCard } from "./coverage-card";
import { DecisionBanner, FreshnessBanner } from "./candidate-header";
import { LineageCard } from "./lineage-card";
import { PromotionTimeline } from "./promotion-timeline";
import { RetryDebtCard } from "./retry-debt-card";
import { RewardCard } from "./reward-card";
import { ServedByCard } from "./served-by-card";
import type { CandidateDetail } from "./types";

function ReceiptChain({ detail }: { detail: CandidateDetail }) {
  return (
    <Card id="receipt" title="Receipt" description={detail.verification.ok ? "Every sealed link verifies against the head kept apart." : "The chain FAILS verification: nothing here is judged."}>
      <ol className="space-y-1 text-sm" data-testid="receipt-chain">
        {detail.links.map((l) => (
          <li key={l.index} className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
            <span className="w-28 font-medium text-ink">
              {l.index}. {l.kind}
            </span>
            <CopyId value={l.digest} short={20} />
            <Time at={l.sealedAt} className="text-xs text-ink-3" />
          </li>
        ))}
      </ol>
      <a className="mt-3 inline-block text-xs text-accent hover:underline" href={`/v1/receipts/${detail.summary.id}`}>
        Download as a DSSE-signed in-toto statement
      </a>
    </Card>
  );
}

/** The signed approve / reject / rollback panel (components/approvals), then the decisions sealed on this receipt. */
function ApprovalSlot({ detail }: { detail: CandidateDetail }) {
  return (
    <div id="approval" className="scroll-mt-16 space-y-4" data-testid="approval-slot" data-candidate={detail.summary.id} data-head={detail.summary.head ?? ""}>
      <ApprovalPanel candidateId={detail.summary.id} />
      <Card id="decisions" title="Decisions on this receipt" description="Each is a sealed link naming the stage it decided on.">
        {detail.approvals.length === 0 ? (
          <p className="text-sm text-ink-3">No approval recorded for this receipt.</p>
        ) : (
          <ul className="space-y-1 text-sm" data-testid="receipt-decisions">
            {detail.approvals.map((a, i) => (
              <li key={i}>
                <b>{a.decision === "approve" ? "Approved" : "Rejected"}</b> the {a.step === "canary" ? "bounded canary" : "approved default"} step · by {a.actorName} ({a.actor.roles.join(", ")}) · <Time at={a.at} />
                {a.comment && <span className="text-ink-3"> — {a.comment}</span>}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

export function CandidateView({ id }: { id: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.candidates.get.queryOptions({ id }));
  if (q.error) return <EmptyState title="Cannot show this candidate">{q.error.message}</EmptyState>;
  if (!q.data) return <p className="text-sm text-ink-3">Loading…</p>;
  const detail = q.data;
  const { report } = detail;
  return (
    <div className="space-y-4">
      <DecisionBanner detail={detail} />
      <FreshnessBanner detail={detail} />
      <PromotionTimeline detail={detail} />
      <LineageCard detail={detail} />
      <CanaryStagePanel candidateId={detail.summary.id} />
      {report ? (
        <>
          <div id="checks" className="scroll-mt-16">
            <ChecksCard title="The seven checks" checks={report.checks} testId="checks" />
          </div>
          {report.canaryStageChecks && <ChecksCard title="Checks 6–7 on the canary stage" checks={report.canaryStageChecks} testId="canary-stage-checks" />}
          <div className="grid gap-4 lg:grid-cols-2">
            <RewardCard evidence={report.evidence} parent={detail.parent} />
            <CoverageCard evidence={report.evidence} parent={detail.parent} />
            <RetryDebtCard evidence={report.evidence} parent={detail.parent} />
            <ProtectedCasesCard candidateId={detail.summary.id} evidence={report.evidence} />
            <CanaryCard stage3={detail.stage3} evidence={report.evidence} />
            <RollbackCard stage3={detail.stage3} />
            <ServedByCard serving={detail.lockedGateServing} />
          </div>
        </>
      ) : (
        <EmptyState title="Not judged">{detail.summary.sentence}</EmptyState>
      )}
      <ApprovalSlot detail={detail} />
      <ReceiptChain detail={detail} />
    </div>
  );
}
