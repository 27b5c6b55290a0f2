"use client";

// A rollout's attempts (expanded row): sequence, the reason each started, status, worker and timings.
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { CopyId } from "@/components/ui/copy-id";
import { duration, relativeTime } from "@/components/ui/format";
import { useNow } from "./live-refresh";
import { ReasonBadge, StatusBadge } from "./status";
import { Time } from "@/components/ui/time";

export function AttemptsPanel({ rolloutId, refetchInterval }: { rolloutId: string; refetchInterval: number | false }) {
  const trpc = useTRPC();
  const now = useNow(5000) / 1000;
  const { data, error, isLoading } = useQuery(trpc.store.listAttempts.queryOptions({ rollout_id: rolloutId, limit: 100, sort_order: "asc" }, { refetchInterval }));
  if (error) return <p role="alert" className="text-sm text-fail">{error.message}</p>;
  if (isLoading || !data) return <p className="text-xs text-ink-3">Loading attempts…</p>;
  if (data.items.length === 0) return <p className="text-xs text-ink-3">No attempt yet: the rollout is waiting in the queue.</p>;
  return (
    <div data-testid="attempts-panel">
      <table className="w-full text-left text-xs">
        <thead className="text-ink-3">
          <tr>
            <th className="py-1 pr-3 font-medium">#</th>
            <th className="py-1 pr-3 font-medium">Attempt</th>
            <th className="py-1 pr-3 font-medium">Reason</th>
            <th className="py-1 pr-3 font-medium">Status</th>
            <th className="py-1 pr-3 font-medium">Worker</th>
            <th className="py-1 pr-3 font-medium">Started</th>
            <th className="py-1 pr-3 text-right font-medium">Duration</th>
            <th className="py-1 pr-3 font-medium">Last heartbeat</th>
            <th className="py-1 font-medium"><span className="sr-only">Traces</span></th>
          </tr>
        </thead>
        <tbody>
          {data.items.map((a) => (
            <tr key={a.attempt_id} className="border-t border-line" data-testid="attempt-row">
              <td className="py-1.5 pr-3 tabular-nums text-ink-3">{a.sequence_id}</td>
              <td className="py-1.5 pr-3"><CopyId value={a.attempt_id} /></td>
              <td className="py-1.5 pr-3"><ReasonBadge reason={a.reason} /></td>
              <td className="py-1.5 pr-3"><StatusBadge status={a.status} /></td>
              <td className="py-1.5 pr-3 font-mono text-ink-2">{a.worker_id ?? "—"}</td>
              <td className="py-1.5 pr-3 text-ink-2"><Time at={a.start_time} /></td>
              <td className="py-1.5 pr-3 text-right tabular-nums">{duration((a.end_time ?? now) - a.start_time)}{a.end_time === null ? "…" : ""}</td>
              <td className="py-1.5 pr-3 text-ink-3">{relativeTime(a.last_heartbeat_time, now * 1000)}</td>
              <td className="py-1.5">
                <Link href={`/traces?${new URLSearchParams({ rollout: rolloutId, attempt: a.attempt_id }).toString()}`} className="text-accent hover:underline">spans</Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data.total > data.items.length && <p className="mt-1 text-xs text-ink-3">Showing the first {data.items.length} of {data.total} attempts.</p>}
    </div>
  );
}
