"use client";

// /approvals: candidates awaiting a decision (each with its button or the reason it is disabled), rollback
// of each agent's canary and approved default, and the recent decisions — refusals included.
import Link from "next/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Alert } from "@/components/ui/form";
import { relativeTime, shortDigest, signed } from "@/components/ui/format";
import { STEP_LABELS } from "@/lib/approvals/availability";
import { ApproveButton } from "./approve-button";
import { StaleList, VERDICT_TONE } from "./approval-panel";
import { RollbackCard } from "./rollback-card";
import type { Decision } from "./types";

const ACTION_TONE = { approve: "pass", reject: "fail", rollback: "accent", refused: "warn" } as const;

function DecisionRow({ d }: { d: Decision }) {
  const what = d.action === "rollback" ? `${d.pointerKind?.replace("_", " ")} → ${d.toResourcesId}` : `${d.step ? STEP_LABELS[d.step as "canary"] : ""} step of ${d.toResourcesId ?? d.candidateId}`;
  return (
    <li className="py-2.5 text-sm" data-testid="decision-row">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={ACTION_TONE[d.action as keyof typeof ACTION_TONE] ?? "neutral"}>{d.action}</Badge>
        <span className="text-ink">{what}</span>
        <span className="text-ink-3">
          by {d.actorName} · {d.agent} · {relativeTime(d.at)}
        </span>
        {d.linkDigest && <span className="font-mono text-xs text-ink-3">link {shortDigest(d.linkDigest)}</span>}
      </div>
      {d.refusal && <div className="mt-1 text-ink-2">Refused: {d.refusal}</div>}
      {d.comment && <div className="mt-1 text-ink-2">“{d.comment}”</div>}
    </li>
  );
}

export function ApprovalsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const q = useQuery(trpc.approvals.list.queryOptions({}, { refetchInterval: 5000 }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.approvals.pathKey() });
  if (q.error) return <Alert tone="fail">{q.error.message}</Alert>;
  if (!q.data) return <p className="text-sm text-ink-3">Loading…</p>;
  const { pending, recent, rollback } = q.data;
  return (
    <div className="space-y-6">
      <Card title="Awaiting a decision" description="Candidates whose only open check is an authorized, signed approval — or whose evidence went stale and needs a re-run.">
        {pending.length === 0 ? (
          <EmptyState title="Nothing awaits approval">A candidate appears here once checks 1–6 pass.</EmptyState>
        ) : (
          <ul className="divide-y divide-line">
            {pending.map((p) => (
              <li key={p.candidateId} className="space-y-2 py-3" data-testid="pending-approval">
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <Link href={`/candidates/${p.candidateId}`} className="font-medium text-accent hover:underline">
                    {p.candidate.resourceId} v{p.candidate.version}
                  </Link>
                  <Badge tone={VERDICT_TONE[p.verdict] ?? "neutral"}>{p.verdict}</Badge>
                  <span className="text-ink-3">
                    {p.agent} · {STEP_LABELS[p.step]} step{p.scoreGain !== null ? ` · gain ${signed(p.scoreGain)}` : ""}
                  </span>
                </div>
                <StaleList panel={p} />
                <ApproveButton panel={p} onDone={refresh} />
              </li>
            ))}
          </ul>
        )}
      </Card>
      {rollback.length > 0 && (
        <div className="grid gap-4 lg:grid-cols-2">
          {rollback.map((r) => (
            <RollbackCard key={`${r.agent}-${r.pointer}`} option={r} onDone={refresh} />
          ))}
        </div>
      )}
      <Card title="Recent decisions" description="Signed approvals, rejections, rollbacks and refused attempts, newest first.">
        {recent.length === 0 ? (
          <EmptyState title="No decisions yet" />
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
