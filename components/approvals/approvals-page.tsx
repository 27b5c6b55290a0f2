"use client";

// /approvals, the approver's inbox, from the same sealed receipts the candidate pages judge: what needs your
// signature, what waits on a gate re-run or on someone else, what is in each agent's bounded canary now,
// rollback, and the recent decisions by name (refusals included).
import Link from "next/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Alert } from "@/components/ui/form";
import { shortDigest, signed } from "@/components/ui/format";
import { Time } from "@/components/ui/time";
import { STEP_LABELS, staleSentence } from "@/lib/approvals/availability";
import { STATUS_TONE } from "@/components/candidates/verdict";
import { ApproveButton } from "./approve-button";
import { RollbackCard } from "./rollback-card";
import type { ApprovalsList, Decision, Panel } from "./types";

const ACTION_TONE = { approve: "pass", reject: "fail", rollback: "accent", refused: "warn" } as const;
const ACTION_WORD: Record<string, string> = { approve: "Approved", reject: "Rejected", rollback: "Rolled back", refused: "Refused" };

function CandidateLine({ p }: { p: Panel }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <Link href={`/candidates/${p.candidateId}`} className="font-medium break-all text-accent hover:underline">
        {p.title}
      </Link>
      {p.label && <Badge>{p.label}</Badge>}
      <Badge tone={STATUS_TONE[p.status]}>{p.status}</Badge>
      <span className="text-ink-3">
        {STEP_LABELS[p.step]} step{p.scoreGain !== null ? ` · gain ${signed(p.scoreGain)}` : ""}
      </span>
    </div>
  );
}

function PanelList({ panels, testId, empty, children }: { panels: Panel[]; testId: string; empty: React.ReactNode; children: (p: Panel) => React.ReactNode }) {
  if (!panels.length) return <p className="text-sm text-ink-3">{empty}</p>;
  return (
    <ul className="divide-y divide-line">
      {panels.map((p) => (
        <li key={p.candidateId} className="space-y-2 py-3 first:pt-0 last:pb-0" data-testid={testId}>
          <CandidateLine p={p} />
          {children(p)}
        </li>
      ))}
    </ul>
  );
}

function DecisionRow({ d }: { d: Decision }) {
  const what = d.action === "rollback" ? `the ${d.pointerKind?.replace("_", " ")} → ${d.title}` : `the ${d.step ? STEP_LABELS[d.step as "canary"] : ""} step of ${d.title ?? d.candidateId}`;
  return (
    <li className="py-2.5 text-sm first:pt-0" data-testid="decision-row">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <Badge tone={ACTION_TONE[d.action as keyof typeof ACTION_TONE] ?? "neutral"}>{d.action}</Badge>
        <span className="min-w-0 break-words text-ink">
          {ACTION_WORD[d.action] ?? d.action} {what}
        </span>
        {d.label && <Badge>{d.label}</Badge>}
        <span className="text-ink-3">
          by <b className="font-medium text-ink-2">{d.actorName}</b> · <Time at={d.at} />
        </span>
        {d.linkDigest && <span className="font-mono text-xs text-ink-3">link {shortDigest(d.linkDigest)}</span>}
      </div>
      {d.refusal && <div className="mt-1 break-words text-ink-2">Refused: {d.refusal}</div>}
      {d.comment && <div className="mt-1 break-words text-ink-2">“{d.comment}”</div>}
    </li>
  );
}

function InCanary({ items }: { items: ApprovalsList["inCanary"] }) {
  return (
    <Card title="In the bounded canary now" description="What each agent's canary pointer names, since when and by whose approval.">
      {items.length === 0 ? (
        <p className="text-sm text-ink-3">No agent has a candidate in its bounded canary.</p>
      ) : (
        <ul className="divide-y divide-line" data-testid="in-canary">
          {items.map((c) => (
            <li key={c.agent} className="space-y-1 py-2.5 text-sm first:pt-0 last:pb-0">
              <div className="flex flex-wrap items-center gap-2">
                {c.candidateId ? (
                  <Link href={`/candidates/${c.candidateId}`} className="font-medium break-all text-accent hover:underline">
                    {c.title}
                  </Link>
                ) : (
                  <span className="font-medium break-all">{c.title}</span>
                )}
                {c.label && <Badge>{c.label}</Badge>}
                {c.status && <Badge tone={STATUS_TONE[c.status]}>{c.status}</Badge>}
              </div>
              <p className="text-ink-3">
                since <Time at={c.since} /> · moved by {c.by}
              </p>
              <p className="break-words text-ink-2">{c.sentence}</p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export function ApprovalsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const q = useQuery(trpc.approvals.list.queryOptions({}, { refetchInterval: 5000 }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.approvals.pathKey() });
  if (q.error) return <Alert tone="fail">{q.error.message}</Alert>;
  if (!q.data) return <p className="text-sm text-ink-3">Loading…</p>;
  const { needsYou, waitingOnRerun, awaitingOthers, inCanary, recent, rollback } = q.data;
  return (
    <div className="space-y-6">
      <Card title={`Needs you (${needsYou.length})`} description="Candidates whose only open check is your signed approval.">
        <PanelList panels={needsYou} testId="needs-you" empty="Nothing waits for your signature.">
          {(p) => <ApproveButton panel={p} onDone={refresh} />}
        </PanelList>
      </Card>
      <InCanary items={inCanary} />
      {(waitingOnRerun.length > 0 || awaitingOthers.length > 0) && (
        <Card title="Waiting on something else" description="Stale evidence waits on a gate re-run; the rest on an approver holding the step's role.">
          <PanelList panels={[...waitingOnRerun, ...awaitingOthers]} testId="awaiting-others" empty="">
            {(p) => (
              <p className="text-sm break-words text-ink-2" data-testid="awaiting-reason">
                {p.status === "STALE" ? `${staleSentence(p.stale)}: a gate re-run comes first.` : !p.availability.enabled ? p.availability.reason : ""}
              </p>
            )}
          </PanelList>
        </Card>
      )}
      {rollback.length > 0 && (
        <div className="grid gap-4 lg:grid-cols-2">
          {rollback.map((r) => (
            <RollbackCard key={`${r.agent}-${r.pointer}`} option={r} onDone={refresh} />
          ))}
        </div>
      )}
      <Card title="Recent decisions" description="Approvals and rejections sealed on receipts, rollbacks and refused attempts, newest first.">
        {recent.length === 0 ? (
          <EmptyState title="No decisions yet">A decision appears here when someone approves, rejects or rolls back — the same records the candidate pages show.</EmptyState>
        ) : (
          <ul className="divide-y divide-line">
            {recent.map((d) => (
              <DecisionRow key={d.id} d={d} />
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
