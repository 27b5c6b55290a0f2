"use client";

// The approval panel of a candidate page: the step the verdict waits on, the button (or why it is
// disabled), reject with a comment, and rollback of the agent's canary and approved default. It re-reads
// the server every few seconds, so a version bumped elsewhere disables the button without a reload.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Badge, type Tone } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Alert } from "@/components/ui/form";
import { STEP_LABELS } from "@/lib/approvals/availability";
import { ApproveButton } from "./approve-button";
import { RejectForm } from "./reject-form";
import { RollbackCard } from "./rollback-card";
import type { Panel } from "./types";

export const VERDICT_TONE: Record<string, Tone> = { QUARANTINED: "fail", "READY FOR APPROVAL": "warn", "PROMOTE TO BOUNDED CANARY": "pass", "PROMOTE TO DEFAULT": "pass" };

export function StaleList({ panel }: { panel: Panel }) {
  if (!panel.stale.length) return null;
  return (
    <Alert tone="warn" testId="stale-checks">
      <div className="font-medium">Evidence went stale since the gate ran:</div>
      <ul className="mt-1 list-disc pl-5">
        {panel.stale.map((s) => (
          <li key={s.check}>
            check {s.check}: {s.sentences.join("; ")}
          </li>
        ))}
      </ul>
    </Alert>
  );
}

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
        title={`Approval: ${STEP_LABELS[panel.step]} step`}
        description="Approving signs the digest of exactly the receipt shown here with your passkey."
        actions={<Badge tone={VERDICT_TONE[panel.verdict] ?? "neutral"}>{panel.verdict}</Badge>}
      >
        <div className="space-y-3">
          <p className="text-sm text-ink-2">{panel.sentence}</p>
          <StaleList panel={panel} />
          <ApproveButton panel={panel} onDone={refresh} />
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
