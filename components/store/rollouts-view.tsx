"use client";

// Rollouts: server-side pagination, sort, filters by status, mode, reward range and error, and search by
// id, all in the URL; each row shows its latest attempt's final reward and error, and expands to its
// attempts with the reason each one started. "Failed" is said the way the Runners page says it too.
import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Network } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { DataTable, Pager, type Column } from "@/components/ui/data-table";
import { CopyId } from "@/components/ui/copy-id";
import { duration, relativeTime, timestamp } from "@/components/ui/format";
import { useUrlState } from "@/components/ui/url-state";
import { ROLLOUT_MODES, ROLLOUT_STATUSES, type Attempt, type Rollout, type RolloutMode, type RolloutStatus } from "@/server/store/types";
import { AttemptsPanel } from "./attempts-panel";
import { LiveRefresh, useLive, useNow } from "./live-refresh";
import { FilterChip, ModeBadge, StatusBadge, toggled } from "./status";
import { SearchBox } from "./search-box";
import { useDebouncedUrlParam } from "./use-debounced-url";

const PAGE = 25;
const SORTS = ["start_time", "end_time", "rollout_id", "status", "mode"] as const;
type SortKey = (typeof SORTS)[number];
type Row = Rollout & { attempt?: Attempt; evidence: { reward: number | null; error: string | null; errorSpans: number } };
const num = (v: string | null) => (v === null || v.trim() === "" || !Number.isFinite(Number(v)) ? undefined : Number(v));

function inputPreview(input: unknown): string {
  const text = typeof input === "string" ? input : JSON.stringify(input);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

export function tracesHref(rolloutId: string, attemptId?: string) {
  const q = new URLSearchParams({ rollout: rolloutId });
  if (attemptId) q.set("attempt", attemptId);
  return `/traces?${q.toString()}`;
}

export function RolloutsView() {
  const trpc = useTRPC();
  const url = useUrlState();
  const live = useLive();
  const statuses = url.getAll("status").filter((s): s is RolloutStatus => (ROLLOUT_STATUSES as readonly string[]).includes(s));
  const modes = url.getAll("mode").filter((m) => m === "none" || (ROLLOUT_MODES as readonly string[]).includes(m));
  const sortBy: SortKey = (SORTS as readonly string[]).includes(url.get("sort") ?? "") ? (url.get("sort") as SortKey) : "start_time";
  const order = url.get("order") === "asc" ? "asc" : "desc";
  const offset = Math.max(0, Number(url.get("offset") ?? 0) || 0);
  const q = url.get("q") ?? "";
  const rewardMin = num(url.get("rmin"));
  const rewardMax = num(url.get("rmax"));
  const error = url.get("error") === "yes" ? true : url.get("error") === "no" ? false : undefined;
  const [rmin, setRmin] = useDebouncedUrlParam("rmin", { offset: null });
  const [rmax, setRmax] = useDebouncedUrlParam("rmax", { offset: null });
  const filtered = statuses.length > 0 || modes.length > 0 || !!q || rewardMin !== undefined || rewardMax !== undefined || error !== undefined;

  const list = useQuery(
    trpc.store.listRollouts.queryOptions(
      {
        limit: PAGE,
        offset,
        sort_by: sortBy,
        sort_order: order,
        status_in: statuses.length ? statuses : undefined,
        mode_in: modes.length ? modes.map((m) => (m === "none" ? null : (m as RolloutMode))) : undefined,
        rollout_id_contains: q || undefined,
        reward_min: rewardMin,
        reward_max: rewardMax,
        has_error: error,
      },
      { placeholderData: keepPreviousData, refetchInterval: live.refetchInterval },
    ),
  );
  const stats = useQuery(trpc.store.getStatistics.queryOptions(undefined, { refetchInterval: live.refetchInterval }));
  const failures = useQuery(trpc.store.countFailures.queryOptions(undefined, { refetchInterval: live.refetchInterval }));
  const now = useNow(5000);

  const columns: Column<Row>[] = [
    { key: "rollout_id", header: "Rollout", sortable: true, className: "whitespace-nowrap", cell: (r) => <CopyId value={r.rollout_id} short={16} /> },
    { key: "status", header: "Status", sortable: true, cell: (r) => <StatusBadge status={r.status} /> },
    { key: "mode", header: "Mode", sortable: true, cell: (r) => <ModeBadge mode={r.mode} /> },
    {
      key: "attempt",
      header: "Attempt",
      className: "whitespace-nowrap",
      cell: (r) => (r.attempt ? <span className="text-xs text-ink-2">#{r.attempt.sequence_id} <StatusBadge status={r.attempt.status} /></span> : <span className="text-xs text-ink-3">none yet</span>),
    },
    {
      key: "reward",
      header: "Reward",
      align: "right",
      cell: (r) => (r.evidence.reward === null ? <span className="text-xs text-ink-3">—</span> : <span className="text-xs font-medium tabular-nums text-ink" data-testid="reward">{r.evidence.reward.toFixed(3)}</span>),
    },
    {
      key: "error",
      header: "Error",
      cell: (r) => (r.evidence.error ? <span className="block max-w-[14rem] truncate text-xs text-fail" title={r.evidence.error} data-testid="rollout-error">{r.evidence.error}</span> : <span className="text-xs text-ink-3">—</span>),
    },
    { key: "worker", header: "Worker", className: "whitespace-nowrap", cell: (r) => <span className="font-mono text-xs text-ink-2">{r.attempt?.worker_id ?? "—"}</span> },
    {
      key: "resources",
      header: "Resources",
      className: "whitespace-nowrap",
      cell: (r) =>
        r.resources_id ? (
          <Link href={`/resources?rid=${encodeURIComponent(r.resources_id)}`} className="font-mono text-xs text-accent hover:underline">{r.resources_id}</Link>
        ) : (
          <span className="text-xs text-ink-3">—</span>
        ),
    },
    { key: "input", header: "Input", cell: (r) => <span className="block max-w-[12rem] truncate font-mono text-xs text-ink-3" title={inputPreview(r.input)}>{inputPreview(r.input)}</span> },
    { key: "start_time", header: "Started", sortable: true, className: "whitespace-nowrap", cell: (r) => <span className="text-xs text-ink-2" title={timestamp(r.start_time)}>{relativeTime(r.start_time, now)}</span> },
    { key: "end_time", header: "Duration", sortable: true, align: "right", className: "whitespace-nowrap", cell: (r) => <span className="text-xs">{duration((r.end_time ?? now / 1000) - r.start_time)}{r.end_time === null ? "…" : ""}</span> },
    {
      key: "heartbeat",
      header: "Heartbeat",
      cell: (r) => <span className="text-xs text-ink-3">{relativeTime(r.attempt?.last_heartbeat_time ?? null, now)}</span>,
    },
    {
      key: "traces",
      header: <span className="sr-only">Traces</span>,
      cell: (r) => (
        <Link href={tracesHref(r.rollout_id)} className="inline-flex items-center gap-1 text-xs text-accent hover:underline">
          <Network className="h-3.5 w-3.5" /> traces
        </Link>
      ),
    },
  ];

  const counts = stats.data?.rollouts_by_status ?? {};
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchBox label="rollout id" />
        <LiveRefresh updatedAt={list.dataUpdatedAt} fetching={list.isFetching} onRefresh={() => void Promise.all([list.refetch(), stats.refetch()])} />
      </div>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2" data-testid="rollout-filters">
        <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label="status filter">
          <span className="mr-1 text-xs font-medium text-ink-3">Status</span>
          {ROLLOUT_STATUSES.map((s) => (
            <FilterChip key={s} on={statuses.includes(s)} count={counts[s] ?? 0} onClick={() => url.set({ status: toggled(statuses, s), offset: null })}>
              {s}
            </FilterChip>
          ))}
        </div>
        <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label="mode filter">
          <span className="mr-1 text-xs font-medium text-ink-3">Mode</span>
          {[...ROLLOUT_MODES, "none"].map((m) => (
            <FilterChip key={m} on={modes.includes(m)} onClick={() => url.set({ mode: toggled(modes, m), offset: null })}>
              {m}
            </FilterChip>
          ))}
        </div>
        <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label="error filter">
          <span className="mr-1 text-xs font-medium text-ink-3">Error</span>
          {(["yes", "no"] as const).map((v) => (
            <FilterChip key={v} on={url.get("error") === v} onClick={() => url.set({ error: url.get("error") === v ? null : v, offset: null })}>
              {v === "yes" ? "with error" : "no error"}
            </FilterChip>
          ))}
        </div>
        <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label="reward filter">
          <span className="mr-1 text-xs font-medium text-ink-3">Reward</span>
          <input aria-label="reward at least" inputMode="decimal" placeholder="min" value={rmin} onChange={(e) => setRmin(e.target.value)} className="w-20 rounded-md border border-line bg-panel px-2 py-1 text-xs text-ink" />
          <span className="text-xs text-ink-3">to</span>
          <input aria-label="reward at most" inputMode="decimal" placeholder="max" value={rmax} onChange={(e) => setRmax(e.target.value)} className="w-20 rounded-md border border-line bg-panel px-2 py-1 text-xs text-ink" />
        </div>
        {filtered && (
          <button type="button" className="text-xs text-ink-3 underline hover:text-ink" onClick={() => url.set({ status: null, mode: null, q: null, rmin: null, rmax: null, error: null, offset: null })}>
            clear filters
          </button>
        )}
      </div>
      {failures.data && (
        <p className="text-xs text-ink-3" data-testid="failed-counts">
          <span className="font-medium text-ink-2">{failures.data.rolloutsFailed} rollout{failures.data.rolloutsFailed === 1 ? "" : "s"} failed</span> (final status, after retries) ·{" "}
          {failures.data.attemptsFailed.failed + failures.data.attemptsFailed.timeout + failures.data.attemptsFailed.unresponsive} attempts failed, timed out or went unresponsive, as the Runners page counts them
          {failures.data.rolloutsRecovered > 0 && <> — {failures.data.rolloutsRecovered} rollout{failures.data.rolloutsRecovered === 1 ? "" : "s"} succeeded on a retry</>}.
        </p>
      )}
      {list.data?.scan && !list.data.scan.complete && <p className="text-xs text-warn" data-testid="scan-note">Reward and error filters read the newest {list.data.scan.scanned.toLocaleString("en")} matching rollouts; narrow by status or mode to reach older ones.</p>}
      {list.error && <p role="alert" className="text-sm text-fail">{list.error.message}</p>}
      <DataTable
        testId="rollouts-table"
        rows={(list.data?.items ?? []) as Row[]}
        columns={columns}
        rowKey={(r) => r.rollout_id}
        loading={list.isLoading}
        sort={{ by: sortBy, order }}
        onSort={(s) => url.set({ sort: s.by === "start_time" ? null : s.by, order: s.order === "desc" ? null : s.order, offset: null })}
        empty={filtered ? "No rollout matches these filters" : "No rollouts in the store yet — runners and algorithms add them through /v1/agl"}
        expand={(r) => <AttemptsPanel rolloutId={r.rollout_id} refetchInterval={live.refetchInterval} />}
      />
      {list.data && <Pager offset={offset} limit={PAGE} total={list.data.total} onChange={(o) => url.set({ offset: o || null })} />}
    </div>
  );
}
