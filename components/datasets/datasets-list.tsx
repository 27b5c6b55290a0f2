"use client";

// Every dataset snapshot, newest first: digest, size, where it came from, the pipeline that made it and
// how much PII that pipeline redacted. The page offset lives in the URL.
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { DataTable, Pager, type Column } from "@/components/ui/data-table";
import { Badge } from "@/components/ui/badge";
import { CopyId } from "@/components/ui/copy-id";
import { relativeTime } from "@/components/ui/format";
import { useUrlState } from "@/components/ui/url-state";
import { redactionCounts, redactionText } from "@/lib/datasets/redactions";

const LIMIT = 25;

/** "2 rollouts · 1 feedback · parent · expert-team" */
export function sourceText(l: { rollouts: string[]; feedback: string[]; parentSnapshot: string | null; sources: string[] }): string {
  const parts = [l.rollouts.length ? `${l.rollouts.length} rollout${l.rollouts.length === 1 ? "" : "s"}` : null, l.feedback.length ? `${l.feedback.length} feedback` : null, l.parentSnapshot ? "derived" : null, ...l.sources];
  return parts.filter(Boolean).join(" · ") || "—";
}

export function DatasetsList() {
  const trpc = useTRPC();
  const url = useUrlState();
  const offset = Number(url.get("offset") ?? 0) || 0;
  const list = useQuery(trpc.datasets.listSnapshots.queryOptions({}));
  type Row = NonNullable<typeof list.data>[number];
  const columns: Column<Row>[] = [
    {
      key: "name",
      header: "Snapshot",
      cell: (s) => (
        <Link href={`/datasets/${s.id}`} className="font-medium text-ink hover:text-accent">
          {s.name} <span className="text-ink-3">v{s.version}</span>
        </Link>
      ),
    },
    { key: "digest", header: "Digest", cell: (s) => <CopyId value={s.digest} short={19} /> },
    { key: "size", header: "Records", align: "right", cell: (s) => s.recordCount.toLocaleString("en") },
    { key: "kinds", header: "Kinds", cell: (s) => <span className="text-ink-2">{s.kinds.join(", ")}</span> },
    { key: "source", header: "Source", cell: (s) => <span className="text-ink-2">{sourceText(s.lineage)}</span> },
    { key: "pipeline", header: "Pipeline", cell: (s) => <div className="flex flex-wrap gap-1">{s.lineage.pipeline.length ? s.lineage.pipeline.map((p, i) => <Badge key={i}>{p.step === "split" ? `split: ${String(p.params.part)}` : p.step}</Badge>) : <span className="text-ink-3">—</span>}</div> },
    { key: "pii", header: "PII redacted", className: "max-w-52", cell: (s) => <span className="text-xs text-ink-2">{redactionText(redactionCounts(s.lineage.pipeline)) ?? "—"}</span> },
    { key: "created", header: "Created", className: "whitespace-nowrap", cell: (s) => <span className="text-ink-3" title={s.createdAt.toISOString()}>{relativeTime(s.createdAt)} by {s.createdBy}</span> },
  ];
  const rows = list.data ?? [];
  return (
    <div>
      <DataTable testId="datasets-table" rows={rows.slice(offset, offset + LIMIT)} columns={columns} rowKey={(s) => s.id} loading={list.isLoading} empty="No dataset snapshots yet: trainers create them from rollouts, feedback and demonstrations." />
      {rows.length > LIMIT && <Pager offset={offset} limit={LIMIT} total={rows.length} onChange={(o) => url.set({ offset: o || null })} />}
    </div>
  );
}
