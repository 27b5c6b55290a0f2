"use client";

// The approval panel of a candidate page: the step the verdict waits on, the button (or why it is
// disabled, or who already decided and what comes next), reject with a comment, and rollback of the agent's
// canary and approved default. It re-reads the server every few seconds, so a version bumped elsewhere
// disables the button without a reload. Stale evidence is explained once, in the page's decision banner.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Alert } from "@/components/ui/form";
import { STEP_LABELS } from "@/lib/approvals/availability";
import { STATUS_TONE } from "@/components/candidates/verdict";
import { ApproveButton } from "./approve-button";
import { RejectForm } from "./reject-form";
import { RollbackCard } from "./rollback-card";

export function ApprovalPanel({ candidateId }: { candidateId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const q = useQuery(trpc.approvals.panel.queryOptions({ candidateId }, { refetchInterval: 4000 }));
  // A decision changes the verdict the rest of the page shows too.
  const refresh = () => queryClient.invalidateQueries();
  if (q.error) return <Alert tone="fail">{q.error.message}</Alert>;
  if (!q.data) return <p className="text-sm text-ink-3">Loading the approval state…</p>;
  const { panel, rollback } = q.data;
  return (
    <div className="space-y-4" data-testid="approval-panel">
      <Card
        title={panel.pendingStep ? `Approval: ${STEP_LABELS[panel.pendingStep]} step` : `Approval: ${panel.promotion.label.toLowerCase()}`}
        description="Approving signs the digest of exactly the receipt shown here with your passkey."
        actions={<Badge tone={STATUS_TONE[panel.status]}>{panel.status}</Badge>}
      >
        <div className="space-y-3">
          {/* When checks block, the page's decision banner already says so; the reason below names them. */}
          {(panel.availability.enabled || panel.availability.code !== "checks") && <p className="text-sm text-ink-2">{panel.sentence}</p>}
          {panel.said && (
            <p className="text-sm text-ink-2" data-testid="stale-said">
              Before the evidence went stale: {panel.said}.
            </p>
          )}
          <ApproveButton panel={panel} onDone={refresh} compact />
          <RejectForm panel={panel} onDone={refresh} />
        </div>
      </Card>
      {rollback.some((r) => r.current) && (
        <div className="grid gap-4 lg:grid-cols-2">
          {rollback
            .filter((r) => r.current)
            .map((r) => (
              <RollbackCard key={r.pointer} option={r} onDone={refresh} />
            ))}
        </div>
      )}
    </div>
  );
}
