"use client";

// Runners (workers): status, heartbeat age, the rollout/attempt each one holds, their heartbeat stats, and
// counts by status for the whole store.
import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { DataTable, Pager, type Column } from "@/components/ui/data-table";
import { CopyId } from "@/components/ui/copy-id";
import { relativeTime, timestamp } from "@/components/ui/format";
import { JsonView } from "@/components/ui/json-view";
import { Stat } from "@/components/ui/stat";
import { useUrlState } from "@/components/ui/url-state";
import { WORKER_STATUSES, type Worker, type WorkerStatus } from "@/server/store/types";
import { LiveRefresh, useLive, useNow } from "./live-refresh";
import { tracesHref } from "./rollouts-view";
import { FilterChip, StatusBadge, toggled } from "./status";
import { Time } from "@/components/ui/time";

const PAGE = 25;
/** A heartbeat older than this is shown as a warning (the store's default unresponsive window is longer). */
const STALE_HEARTBEAT_SECONDS = 60;

function statsPreview(stats: Worker["heartbeat_stats"]): string {
  if (!stats) return "—";
  const entries = Object.entries(stats).filter(([, v]) => v === null || typeof v !== "object");
  const shown = entries.slice(0, 3).map(([k, v]) => `${k}=${String(v)}`);
  return shown.join(" · ") + (Object.keys(stats).length > shown.length ? " …" : "") || "{…}";
}

export function RunnersView() {
  const trpc = useTRPC();
  const url = useUrlState();
  const live = useLive();
  const now = useNow(1000);
  const statuses = url.getAll("status").filter((s): s is WorkerStatus => (WORKER_STATUSES as readonly string[]).includes(s));
  const offset = Math.max(0, Number(url.get("offset") ?? 0) || 0);
  const list = useQuery(
    trpc.store.listWorkers.queryOptions({ limit: PAGE, offset, status_in: statuses.length ? statuses : undefined }, { placeholderData: keepPreviousData, refetchInterval: live.refetchInterval }),
  );
  const counts = useQuery(trpc.store.countWorkers.queryOptions(undefined, { refetchInterval: live.refetchInterval }));
  const failures = useQuery(trpc.store.countFailures.queryOptions(undefined, { refetchInterval: live.refetchInterval }));
  const failedBy = new Map((failures.data?.byWorker ?? []).map((w) => [w.workerId, w]));

  const columns: Column<Worker>[] = [
    { key: "id", header: "Runner", cell: (w) => <span className="font-mono text-xs text-ink">{w.worker_id}</span> },
    { key: "status", header: "Status", cell: (w) => <StatusBadge status={w.status} /> },
    {
      key: "heartbeat",
      header: "Heartbeat",
      cell: (w) => {
        const age = w.last_heartbeat_time === null ? null : now / 1000 - w.last_heartbeat_time;
        return (
          <span className={`text-xs tabular-nums ${age !== null && age > STALE_HEARTBEAT_SECONDS ? "text-warn" : "text-ink-2"}`} title={timestamp(w.last_heartbeat_time)} data-testid="heartbeat-age">
            {relativeTime(w.last_heartbeat_time, now)}
          </span>
        );
      },
    },
    { key: "rollout", header: "Current rollout", cell: (w) => (w.current_rollout_id ? <Link href={`/rollouts?q=${encodeURIComponent(w.current_rollout_id)}`} className="font-mono text-xs text-accent hover:underline">{w.current_rollout_id}</Link> : <span className="text-xs text-ink-3">—</span>) },
    {
      key: "attempt",
      header: "Current attempt",
      cell: (w) => (w.current_rollout_id && w.current_attempt_id ? <Link href={tracesHref(w.current_rollout_id, w.current_attempt_id)} className="font-mono text-xs text-accent hover:underline">{w.current_attempt_id}</Link> : <span className="text-xs text-ink-3">—</span>),
    },
    {
      key: "failed",
      header: "Failed attempts",
      align: "right",
      cell: (w) => {
        const f = failedBy.get(w.worker_id);
        return <span className={`text-xs tabular-nums ${f?.failed ? "text-fail" : "text-ink-3"}`} title="Attempts this runner held that failed, timed out or went unresponsive (from the store, since the runner first connected)">{f ? `${f.failed} of ${f.total}` : "0"}</span>;
      },
    },
    { key: "dequeue", header: "Last dequeue", cell: (w) => <span className="text-xs text-ink-3">{relativeTime(w.last_dequeue_time, now)}</span> },
    { key: "busy", header: "Last busy", cell: (w) => <span className="text-xs text-ink-3">{relativeTime(w.last_busy_time, now)}</span> },
    { key: "idle", header: "Last idle", cell: (w) => <span className="text-xs text-ink-3">{relativeTime(w.last_idle_time, now)}</span> },
    { key: "stats", header: "Heartbeat stats", cell: (w) => <span className="block max-w-[16rem] truncate font-mono text-xs text-ink-3" title={statsPreview(w.heartbeat_stats)}>{statsPreview(w.heartbeat_stats)}</span> },
  ];
  const c = counts.data;
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="runner-counts">
        <Stat label="Runners" value={c ? c.idle + c.busy + c.unknown : "—"} />
        <Stat label="Busy" value={c?.busy ?? "—"} hint="holding an attempt" />
        <Stat label="Idle" value={c?.idle ?? "—"} hint="waiting for work" />
        <Stat label="Unknown" value={c?.unknown ?? "—"} tone={c && c.unknown > 0 ? "warn" : undefined} hint="never reported a status" />
      </div>
      {failures.data && (
        <p className="text-xs text-ink-3" data-testid="failed-counts">
          <span className="font-medium text-ink-2">
            {failures.data.attemptsFailed.failed + failures.data.attemptsFailed.timeout + failures.data.attemptsFailed.unresponsive} attempts failed
          </span>{" "}
          ({failures.data.attemptsFailed.failed} failed, {failures.data.attemptsFailed.timeout} timed out, {failures.data.attemptsFailed.unresponsive} unresponsive) · {failures.data.rolloutsFailed} rollout{failures.data.rolloutsFailed === 1 ? "" : "s"} failed, as the Rollouts page counts them: a failed attempt is retried when the rollout&apos;s policy allows{failures.data.rolloutsRecovered > 0 ? ` (${failures.data.rolloutsRecovered} rollouts succeeded on a retry)` : ""}. A runner&apos;s heartbeat stats count only what that process saw since it started.
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label="status filter">
          <span className="mr-1 text-xs font-medium text-ink-3">Status</span>
          {WORKER_STATUSES.map((s) => (
            <FilterChip key={s} on={statuses.includes(s)} count={c?.[s]} onClick={() => url.set({ status: toggled(statuses, s), offset: null })}>
              {s}
            </FilterChip>
          ))}
        </div>
        <LiveRefresh updatedAt={list.dataUpdatedAt} fetching={list.isFetching} onRefresh={() => void Promise.all([list.refetch(), counts.refetch(), failures.refetch()])} />
      </div>
      {list.error && <p role="alert" className="text-sm text-fail">{list.error.message}</p>}
      <DataTable
        testId="runners-table"
        rows={list.data?.items ?? []}
        columns={columns}
        rowKey={(w) => w.worker_id}
        loading={list.isLoading}
        empty={statuses.length ? "No runner has this status" : "No runner has connected yet — runners appear here with their first heartbeat or dequeue"}
        expand={(w) => (
          <div className="grid gap-3 lg:grid-cols-2">
            <div>
              <div className="mb-1 text-xs font-medium text-ink-2">Heartbeat stats</div>
              <JsonView value={w.heartbeat_stats ?? {}} />
            </div>
            <dl className="grid grid-cols-[8rem_1fr] gap-y-1 text-xs">
              <dt className="text-ink-3">Last heartbeat</dt><dd><Time at={w.last_heartbeat_time} /></dd>
              <dt className="text-ink-3">Last dequeue</dt><dd><Time at={w.last_dequeue_time} /></dd>
              <dt className="text-ink-3">Last busy</dt><dd><Time at={w.last_busy_time} /></dd>
              <dt className="text-ink-3">Last idle</dt><dd><Time at={w.last_idle_time} /></dd>
              <dt className="text-ink-3">Attempt</dt><dd>{w.current_attempt_id ? <CopyId value={w.current_attempt_id} /> : "—"}</dd>
            </dl>
          </div>
        )}
      />
      {list.data && <Pager offset={offset} limit={PAGE} total={list.data.total} onChange={(o) => url.set({ offset: o || null })} />}
    </div>
  );
}
