"use client";

// Every evaluation and A/B test, newest first, with its status and one-line result; the kind filter and
// page live in the URL.
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { DataTable, Pager, type Column } from "@/components/ui/data-table";
import { Badge } from "@/components/ui/badge";
import { relativeTime, duration } from "@/components/ui/format";
import { useUrlState } from "@/components/ui/url-state";
import { isActive, JobProgress, JobStatusBadge } from "./job-status";

const LIMIT = 25;
const TABS = [
  { key: "", label: "All" },
  { key: "evaluation", label: "Evaluations" },
  { key: "ab-test", label: "A/B tests" },
] as const;

export function EvaluationsList() {
  const trpc = useTRPC();
  const url = useUrlState();
  const kind = (url.get("kind") ?? "") as "" | "evaluation" | "ab-test";
  const offset = Number(url.get("offset") ?? 0) || 0;
  const list = useQuery(
    trpc.evaluations.list.queryOptions({ kind: kind || undefined, offset, limit: LIMIT }, { refetchInterval: (q) => (q.state.data?.rows.some((r) => isActive(r.status)) ? 1500 : 15_000) }),
  );
  type Row = NonNullable<typeof list.data>["rows"][number];
  const columns: Column<Row>[] = [
    {
      key: "name",
      header: "Name",
      cell: (r) => (
        <Link href={`/evaluations/${r.id}`} className="font-medium text-ink hover:text-accent">
          {r.name}
        </Link>
      ),
    },
    { key: "kind", header: "Kind", cell: (r) => <Badge>{r.kind === "ab-test" ? "A/B test" : "evaluation"}</Badge> },
    { key: "status", header: "Status", cell: (r) => (isActive(r.status) ? <div className="w-40"><JobProgress progress={r.progress} note={r.progressNote} /></div> : <JobStatusBadge status={r.status} />) },
    { key: "result", header: "Result", cell: (r) => <span className="text-ink-2">{r.headline ?? (r.error ? <span className="text-fail">{r.error.slice(0, 80)}</span> : "—")}</span> },
    { key: "by", header: "Started by", className: "whitespace-nowrap", cell: (r) => <span className="text-ink-2">{r.createdBy}</span> },
    { key: "when", header: "Started", className: "whitespace-nowrap", cell: (r) => <span className="text-ink-3" title={r.createdAt.toISOString()}>{relativeTime(r.createdAt)}</span> },
    { key: "took", header: "Took", align: "right", className: "whitespace-nowrap", cell: (r) => (r.startedAt && r.finishedAt ? duration((r.finishedAt.getTime() - r.startedAt.getTime()) / 1000) : "—") },
  ];
  return (
    <div>
      <div className="mb-3 flex gap-1" role="tablist" aria-label="Kind">
        {TABS.map((t) => (
          <button key={t.key} type="button" role="tab" aria-selected={kind === t.key} onClick={() => url.set({ kind: t.key || null, offset: null })} className={`rounded-md px-3 py-1.5 text-sm ${kind === t.key ? "bg-panel-2 font-medium text-ink" : "text-ink-3 hover:text-ink"}`}>
            {t.label}
          </button>
        ))}
      </div>
      <DataTable testId="evaluations-table" rows={list.data?.rows ?? []} columns={columns} rowKey={(r) => r.id} loading={list.isLoading} empty="No evaluations or A/B tests yet" />
      {list.data && list.data.total > LIMIT && <Pager offset={offset} limit={LIMIT} total={list.data.total} onChange={(o) => url.set({ offset: o || null })} />}
    </div>
  );
}
