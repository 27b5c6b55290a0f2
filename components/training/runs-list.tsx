"use client";

// Every training run, newest first: name and tags, status, family, progress with ETA, and "active" apart from
// "making useful progress". Live: polls while any run is queued or running. Status, tag, search and page in the
// URL; ticked runs open overlaid in /training/compare.
import Link from "next/link";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { DataTable, Pager, type Column } from "@/components/ui/data-table";
import { Badge } from "@/components/ui/badge";
import { relativeTime } from "@/components/ui/format";
import { useUrlState } from "@/components/ui/url-state";
import { HealthBadges, RunProgress, RunStatusBadge } from "./run-status";

const LIMIT = 25;
const TABS = ["", "running", "queued", "paused", "finished", "failed"] as const;
type StatusKey = Exclude<(typeof TABS)[number], "">;

export function RunsList() {
  const trpc = useTRPC();
  const url = useUrlState();
  const status = (url.get("status") ?? "") as StatusKey | "";
  const offset = Number(url.get("offset") ?? 0) || 0;
  const tag = url.get("tag") ?? "";
  const search = url.get("q") ?? "";
  const [picked, setPicked] = useState<string[]>([]);
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id].slice(-12)));
  const list = useQuery(
    trpc.trainers.listRuns.queryOptions({ status: status ? [status] : undefined, tag: tag || undefined, search: search || undefined, offset, limit: LIMIT }, { refetchInterval: (q) => (q.state.data?.items.some((r) => r.status === "running" || r.status === "queued") ? 1_000 : 10_000) }),
  );
  type Row = NonNullable<typeof list.data>["items"][number];
  const columns: Column<Row>[] = [
    {
      key: "pick",
      header: <span className="sr-only">Overlay</span>,
      cell: (r) => <input type="checkbox" className="h-4 w-4 accent-[var(--lg-accent)]" checked={picked.includes(r.id)} onChange={() => toggle(r.id)} aria-label={`Overlay ${r.name ?? r.id}`} />,
    },
    {
      key: "run",
      header: "Run",
      cell: (r) => (
        <div className="min-w-0">
          <Link href={`/training/${r.id}`} className={r.name ? "text-sm font-medium text-ink hover:text-accent" : "font-mono text-xs font-medium text-ink hover:text-accent"}>
            {r.name ?? r.id}
          </Link>
          {(r.name || r.tags.length > 0) && (
            <div className="mt-0.5 flex flex-wrap items-center gap-1">
              {r.name && <span className="font-mono text-[11px] text-ink-3">{r.id}</span>}
              {r.tags.map((t) => (
                <button key={t} type="button" onClick={() => url.set({ tag: t, offset: null })} className="rounded-full bg-panel-2 px-1.5 text-[11px] text-ink-2 hover:text-accent">
                  #{t}
                </button>
              ))}
            </div>
          )}
        </div>
      ),
    },
    {
      key: "family",
      header: "Family",
      cell: (r) => (
        <span className="flex items-center gap-1.5">
          <Badge>{r.family}</Badge>
          {r.continual && <Badge tone="accent">continual</Badge>}
        </span>
      ),
    },
    { key: "status", header: "Status", cell: (r) => <RunStatusBadge status={r.status} reason={r.statusReason} /> },
    { key: "progress", header: "Progress", cell: (r) => <RunProgress done={r.updatesDone} total={r.updatesTotal} etaSeconds={r.health.etaSeconds} status={r.status} /> },
    { key: "health", header: "Active / useful progress", cell: (r) => <HealthBadges health={r.health} /> },
    { key: "candidates", header: "Candidates", align: "right", cell: (r) => <span className="tabular-nums">{r.candidates}</span> },
    { key: "when", header: "Started", cell: (r) => <span className="text-ink-3" title={r.createdAt.toISOString()}>{relativeTime(r.createdAt)}</span> },
  ];
  return (
    <div>
      <div className="mb-3 flex flex-wrap gap-1" role="tablist" aria-label="Status">
        {TABS.map((t) => (
          <button key={t} type="button" role="tab" aria-selected={status === t} onClick={() => url.set({ status: t || null, offset: null })} className={`rounded-md px-3 py-1.5 text-sm capitalize ${status === t ? "bg-panel-2 font-medium text-ink" : "text-ink-3 hover:text-ink"}`}>
            {t || "All"}
          </button>
        ))}
      </div>
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <input
          type="search"
          aria-label="Search runs by name or id"
          placeholder="Search name or id"
          defaultValue={search}
          onKeyDown={(e) => e.key === "Enter" && url.set({ q: (e.target as HTMLInputElement).value.trim() || null, offset: null })}
          className="w-full rounded-md border border-line bg-panel px-3 py-1.5 text-sm sm:w-64"
        />
        {tag && (
          <button type="button" onClick={() => url.set({ tag: null, offset: null })} className="rounded-full bg-accent/10 px-2 py-1 text-xs text-accent" aria-label={`Clear the tag filter ${tag}`}>
            #{tag} ✕
          </button>
        )}
        {picked.length > 0 && (
          <Link href={`/training/compare?runs=${picked.join(",")}`} className="rounded-md border border-line bg-panel px-3 py-1.5 text-sm font-medium text-ink hover:bg-panel-2" data-testid="compare-picked">
            Overlay {picked.length} run{picked.length === 1 ? "" : "s"}
          </Link>
        )}
      </div>
      <DataTable testId="runs-table" rows={list.data?.items ?? []} columns={columns} rowKey={(r) => r.id} loading={list.isLoading} empty="No training runs yet. Start one, or run `npm start` in demo mode for a live continual PPO run." />
      {list.data && list.data.total > LIMIT && <Pager offset={offset} limit={LIMIT} total={list.data.total} onChange={(o) => url.set({ offset: o || null })} />}
    </div>
  );
}
