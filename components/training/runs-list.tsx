"use client";

// Every training run (W&B's runs table): name, tags and agent, status with how it ended ("stopped by … at …"),
// family, progress with the ETA, the run's summary metrics — latest and best validation reward, retry debt
// against its budget (over budget in the fail tone), duration — and "active" apart from "making useful
// progress". Sorted in the database by any metric column, runs without a value last (`?sort=best_reward&dir=desc`).
// Live: polls while any run is queued or running. Status, tag, search, sort and page in the URL; ticked runs
// open side by side in /training/compare.
import Link from "next/link";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { DataTable, Pager, type Column, type Sort } from "@/components/ui/data-table";
import { Badge } from "@/components/ui/badge";
import { duration, relativeTime } from "@/components/ui/format";
import { useUrlState } from "@/components/ui/url-state";
import { DEFAULT_RUN_SORT, RUN_SORTS, SORT_DIRECTIONS, type RunSort, type SortDirection } from "@/lib/training/run-sorts";
import { HealthBadges, RetryDebt, RunProgress, RunStatusBadge, RunStatusLine } from "./run-status";

const LIMIT = 25;
const TABS = ["", "running", "queued", "paused", "finished", "stopped", "failed"] as const;
type StatusKey = Exclude<(typeof TABS)[number], "">;
/** A column's first click: best, most and newest first; names A to Z. */
const FIRST_DIRECTION: Record<RunSort, SortDirection> = { created: "desc", name: "asc", updates: "desc", latest_reward: "desc", best_reward: "desc", retry_debt: "desc", duration: "desc" };
const isSort = (s: string | null): s is RunSort => (RUN_SORTS as readonly (string | null)[]).includes(s);
const isDirection = (s: string | null): s is SortDirection => (SORT_DIRECTIONS as readonly (string | null)[]).includes(s);
const reward = (x: number | null) => (x === null ? <span className="text-ink-3">—</span> : <span className="tabular-nums text-ink">{x.toFixed(3)}</span>);

export function RunsList() {
  const trpc = useTRPC();
  const url = useUrlState();
  const status = (url.get("status") ?? "") as StatusKey | "";
  const offset = Number(url.get("offset") ?? 0) || 0;
  const tag = url.get("tag") ?? "";
  const search = url.get("q") ?? "";
  const sortParam = url.get("sort");
  const dirParam = url.get("dir");
  const sort: RunSort = isSort(sortParam) ? sortParam : DEFAULT_RUN_SORT.sort;
  const dir: SortDirection = isDirection(dirParam) ? dirParam : sort === DEFAULT_RUN_SORT.sort ? DEFAULT_RUN_SORT.dir : FIRST_DIRECTION[sort];
  const onSort = (next: Sort) => {
    const by = next.by as RunSort;
    const order = by === sort ? (next.order as SortDirection) : FIRST_DIRECTION[by];
    const isDefault = by === DEFAULT_RUN_SORT.sort && order === DEFAULT_RUN_SORT.dir;
    url.set({ sort: isDefault ? null : by, dir: isDefault ? null : order, offset: null });
  };
  const [picked, setPicked] = useState<string[]>([]);
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id].slice(-12)));
  const list = useQuery(
    trpc.trainers.listRuns.queryOptions({ status: status ? [status] : undefined, tag: tag || undefined, search: search || undefined, sort, dir, offset, limit: LIMIT }, { refetchInterval: (q) => (q.state.data?.items.some((r) => r.status === "running" || r.status === "queued") ? 1_000 : 10_000) }),
  );
  type Row = NonNullable<typeof list.data>["items"][number];
  const columns: Column<Row>[] = [
    {
      key: "pick",
      header: <span className="sr-only">Compare</span>,
      cell: (r) => <input type="checkbox" className="h-4 w-4 accent-[var(--lg-accent)]" checked={picked.includes(r.id)} onChange={() => toggle(r.id)} aria-label={`Compare ${r.name ?? r.id}`} />,
    },
    {
      key: "name",
      header: "Run",
      sortable: true,
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
    { key: "agent", header: "Agent", cell: (r) => <span className="text-ink-2 [overflow-wrap:anywhere]">{r.agent}</span> },
    {
      key: "status",
      header: "Status",
      cell: (r) => (
        <div className="flex min-w-36 flex-col items-start gap-0.5">
          <RunStatusBadge status={r.status} reason={r.statusReason} />
          <RunStatusLine run={r} />
        </div>
      ),
    },
    { key: "updates", header: "Updates done / planned", sortable: true, cell: (r) => <RunProgress done={r.updatesDone} total={r.updatesTotal} eta={r.health.eta} status={r.status} /> },
    { key: "latest_reward", header: "Latest validation", sortable: true, align: "right", cell: (r) => reward(r.latestValidation) },
    { key: "best_reward", header: "Best validation", sortable: true, align: "right", cell: (r) => reward(r.bestValidation) },
    { key: "retry_debt", header: "Retry debt", sortable: true, align: "right", cell: (r) => <RetryDebt debt={r.retryDebt} budget={r.retryBudget} /> },
    { key: "duration", header: "Duration", sortable: true, align: "right", cell: (r) => <span className="whitespace-nowrap text-ink-2">{duration(r.runtimeSeconds)}</span> },
    { key: "health", header: "Active / useful progress", cell: (r) => <HealthBadges health={r.health} /> },
    { key: "candidates", header: "Candidates", align: "right", cell: (r) => <span className="tabular-nums">{r.candidates}</span> },
    { key: "created", header: "Started", sortable: true, cell: (r) => <span className="whitespace-nowrap text-ink-2" title={r.createdAt.toISOString()}>{relativeTime(r.createdAt)}</span> },
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
            Compare {picked.length} run{picked.length === 1 ? "" : "s"}
          </Link>
        )}
      </div>
      <DataTable testId="runs-table" label="Training runs" sort={{ by: sort, order: dir }} onSort={onSort} rows={list.data?.items ?? []} columns={columns} rowKey={(r) => r.id} loading={list.isLoading} empty="No training runs yet. Start one, or run `npm start` in demo mode for a live continual PPO run." />
      {list.data && list.data.total > LIMIT && <Pager offset={offset} limit={LIMIT} total={list.data.total} onChange={(o) => url.set({ offset: o || null })} />}
    </div>
  );
}
