"use client";

// Every sweep, newest first: the family, grid or random, configs × seeds, and how many of its runs have
// finished (or failed). Polls while any sweep still has runs to go.
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Badge } from "@/components/ui/badge";
import { DataTable, Pager, type Column } from "@/components/ui/data-table";
import { relativeTime } from "@/components/ui/format";
import { useUrlState } from "@/components/ui/url-state";

const LIMIT = 25;

export function SweepsList() {
  const trpc = useTRPC();
  const url = useUrlState();
  const offset = Number(url.get("offset") ?? 0) || 0;
  const list = useQuery(trpc.sweeps.list.queryOptions({ offset, limit: LIMIT }, { refetchInterval: (q) => (q.state.data?.rows.some((r) => r.finished + r.failed < r.runs) ? 2_000 : 15_000) }));
  type Row = NonNullable<typeof list.data>["rows"][number];
  const columns: Column<Row>[] = [
    { key: "name", header: "Sweep", cell: (r) => <Link href={`/training/sweeps/${r.id}`} className="font-medium text-ink hover:text-accent">{r.name}</Link> },
    { key: "family", header: "Family", cell: (r) => <span className="flex gap-1.5"><Badge>{r.family}</Badge><Badge tone="neutral">{r.mode}</Badge></span> },
    { key: "size", header: "Configs × seeds", cell: (r) => <span className="tabular-nums">{r.configs} × {r.seedsPerConfig}</span> },
    { key: "done", header: "Runs finished", cell: (r) => <span className="tabular-nums">{r.finished} / {r.runs}{r.failed > 0 && <span className="ml-2 text-fail">{r.failed} failed</span>}</span> },
    { key: "by", header: "Started by", cell: (r) => <span className="text-ink-2">{r.createdBy}</span> },
    { key: "when", header: "Started", cell: (r) => <span className="text-ink-3" title={r.createdAt.toISOString()}>{relativeTime(r.createdAt)}</span> },
  ];
  return (
    <div>
      <DataTable testId="sweeps-table" rows={list.data?.rows ?? []} columns={columns} rowKey={(r) => r.id} loading={list.isLoading} empty="No sweeps yet. A sweep trains a family over a grid or random configs × seeds and ranks the configs." />
      {list.data && list.data.total > LIMIT && <Pager offset={offset} limit={LIMIT} total={list.data.total} onChange={(o) => url.set({ offset: o || null })} />}
    </div>
  );
}
