"use client";

// The candidates list: each candidate's verdict, score gain against its exact parent and the checks that
// did not pass, at a glance. Filters (agent, verdict) live in the URL so a filtered list can be shared; the
// candidates no gate has judged yet (every training run publishes one) are folded until asked for (?unjudged=1).
// On a phone the verdict rides in the first column, so it is never scrolled out of sight.
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { CopyId } from "@/components/ui/copy-id";
import { signed } from "@/components/ui/format";
import { Badge } from "@/components/ui/badge";
import { Time } from "@/components/ui/time";
import { useUrlState } from "@/components/ui/url-state";
import { CANDIDATE_STATUSES } from "@/lib/candidates/status";
import type { CandidateSummary } from "./types";
import { OpenChecks, VerdictBadge } from "./verdict";

const STEP_WAITING: Partial<Record<string, string>> = { "ready-for-canary": "waits for the canary step", "ready-for-default": "waits for the default step" };

const COLUMNS: Column<CandidateSummary>[] = [
  {
    key: "candidate",
    header: "Candidate",
    cell: (c) => (
      <span className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
        <Link href={`/candidates/${c.id}`} className="font-medium whitespace-nowrap text-accent hover:underline" data-testid="candidate-link">
          {c.resourcesId} v{c.version}
        </Link>
        {c.label && <Badge>{c.label}</Badge>}
        <span className="sm:hidden">
          <VerdictBadge verdict={c.status} testId="verdict-compact" />
        </span>
      </span>
    ),
  },
  { key: "agent", header: "Agent", cell: (c) => c.agent },
  { key: "verdict", header: "Verdict", className: "hidden sm:table-cell", cell: (c) => <VerdictBadge verdict={c.status} /> },
  {
    key: "promotion",
    header: "Promotion",
    // The promotion machine's state, with its next step on hover: the same reading as the candidate page and the inbox.
    cell: (c) =>
      c.promotion ? (
        <span className="text-xs whitespace-nowrap text-ink-2" title={c.promotion.next} data-testid="promotion-state">
          {STEP_WAITING[c.promotion.state] ?? c.promotion.label.toLowerCase()}
        </span>
      ) : (
        <span className="text-xs text-ink-3">not judged</span>
      ),
  },
  {
    key: "gain",
    header: "Score vs parent",
    align: "right",
    cell: (c) => (c.scoreGain === null ? <span className="text-ink-3">unavailable</span> : <span className={`tabular-nums ${c.scoreGain > 0 ? "text-pass" : "text-fail"}`}>{signed(c.scoreGain)}</span>),
  },
  { key: "checks", header: "Checks not passing", cell: (c) => <OpenChecks checks={c.checks} /> },
  { key: "parent", header: "Exact parent", cell: (c) => <span className="text-xs whitespace-nowrap text-ink-2">{c.parent.resourcesId} v{c.parent.version}</span> },
  { key: "algorithm", header: "Algorithm", cell: (c) => c.algorithm },
  { key: "id", header: "Id", cell: (c) => <CopyId value={c.id} /> },
  { key: "created", header: "Registered", cell: (c) => <Time at={c.createdAt} className="text-xs whitespace-nowrap text-ink-3" /> },
];

const ALL = "";

export function CandidatesList() {
  const trpc = useTRPC();
  const url = useUrlState();
  const agent = url.get("agent") ?? undefined;
  const verdict = url.get("verdict") ?? ALL;
  const showUnjudged = url.get("unjudged") === "1";
  const page = useQuery(trpc.candidates.list.queryOptions({ agent }));
  const agents = page.data?.agents ?? [];
  const all = page.data?.candidates ?? [];
  const judged = all.filter((c) => c.status !== null);
  const unjudged = all.length - judged.length;
  const rows = (showUnjudged ? all : judged).filter((c) => verdict === ALL || c.status === verdict);
  const select = "rounded border border-line bg-panel px-2 py-1 text-sm text-ink";
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        <span className="flex items-center gap-2">
          <label htmlFor="agent-filter" className="text-ink-3">
            Agent
          </label>
          <select id="agent-filter" className={select} value={agent ?? ""} onChange={(e) => url.set({ agent: e.target.value || null })}>
            <option value="">All agents</option>
            {agents.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </span>
        <span className="flex items-center gap-2">
          <label htmlFor="verdict-filter" className="text-ink-3">
            Verdict
          </label>
          <select id="verdict-filter" className={select} value={verdict} onChange={(e) => url.set({ verdict: e.target.value || null })}>
            <option value={ALL}>Any verdict</option>
            {CANDIDATE_STATUSES.map((v) => (
              <option key={v} value={v}>
                {v.toLowerCase()} ({judged.filter((c) => c.status === v).length})
              </option>
            ))}
          </select>
        </span>
        {page.data && (
          <span className="text-xs text-ink-3" data-testid="candidates-count">
            {rows.length} of {all.length} candidates
          </span>
        )}
      </div>
      <DataTable
        testId="candidates-table"
        label="candidates"
        rows={rows}
        columns={COLUMNS}
        rowKey={(c) => c.id}
        loading={page.isLoading}
        empty={
          all.length ? (
            <EmptyState title="No candidate matches">Change the verdict filter, or show the candidates no gate has judged yet.</EmptyState>
          ) : (
            <EmptyState title="No candidates yet">A candidate appears when a training algorithm writes a resource update with its stage-1 declaration.</EmptyState>
          )
        }
      />
      {unjudged > 0 && verdict === ALL && (
        <button type="button" className="text-sm text-accent hover:underline" data-testid="toggle-unjudged" onClick={() => url.set({ unjudged: showUnjudged ? null : "1" })}>
          {showUnjudged ? `Fold the ${unjudged} not judged yet` : `Show ${unjudged} more not judged yet (published by training runs, no gate run requested)`}
        </button>
      )}
      {page.error && <p className="text-sm text-fail">{page.error.message}</p>}
    </div>
  );
}
