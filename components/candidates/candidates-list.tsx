"use client";

// The candidates list: each candidate's verdict, score gain against its exact parent and the checks that
// did not pass, at a glance. The agent filter lives in the URL so a filtered list can be shared.
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
import type { CandidateSummary } from "./types";
import { OpenChecks, VerdictBadge } from "./verdict";

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
      </span>
    ),
  },
  { key: "agent", header: "Agent", cell: (c) => c.agent },
  { key: "verdict", header: "Verdict", cell: (c) => <VerdictBadge verdict={c.status} /> },
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

export function CandidatesList() {
  const trpc = useTRPC();
  const url = useUrlState();
  const agent = url.get("agent") ?? undefined;
  const page = useQuery(trpc.candidates.list.queryOptions({ agent }));
  const agents = page.data?.agents ?? [];
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <label htmlFor="agent-filter" className="text-ink-3">
          Agent
        </label>
        <select
          id="agent-filter"
          className="rounded border border-line bg-panel px-2 py-1 text-sm text-ink"
          value={agent ?? ""}
          onChange={(e) => url.set({ agent: e.target.value || null })}
        >
          <option value="">All agents</option>
          {agents.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
        {page.data && <span className="text-xs text-ink-3">{page.data.candidates.length} candidates</span>}
      </div>
      <DataTable
        testId="candidates-table"
        rows={page.data?.candidates ?? []}
        columns={COLUMNS}
        rowKey={(c) => c.id}
        loading={page.isLoading}
        empty={<EmptyState title="No candidates yet">A candidate appears when a training algorithm writes a resource update with its stage-1 declaration.</EmptyState>}
      />
      {page.error && <p className="text-sm text-fail">{page.error.message}</p>}
    </div>
  );
}
