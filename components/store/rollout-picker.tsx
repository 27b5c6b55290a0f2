"use client";

// Choosing whose traces to see: the most recent rollouts, searchable by id.
import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { useUrlState } from "@/components/ui/url-state";
import { relativeTime } from "@/components/ui/format";
import { useNow } from "./live-refresh";
import { tracesHref } from "./rollouts-view";
import { ModeBadge, StatusBadge } from "./status";
import { SearchBox } from "./search-box";

export function RolloutPicker() {
  const trpc = useTRPC();
  const search = useUrlState().get("q") ?? "";
  const now = useNow(5000);
  const { data, isLoading } = useQuery(trpc.store.listRollouts.queryOptions({ rollout_id_contains: search || undefined, limit: 20, sort_by: "start_time", sort_order: "desc" }, { placeholderData: keepPreviousData }));
  return (
    <Card title="Pick a rollout" description="Its spans open as a tree with a waterfall, or as a table. Rollouts also link here from their page.">
      <div className="mb-3">
        <SearchBox label="rollout id" resetOffset={false} />
      </div>
      {isLoading && <p className="text-sm text-ink-3">Loading…</p>}
      {data && data.items.length === 0 && <p className="text-sm text-ink-3">No rollouts{search ? " match" : " in the store yet"}.</p>}
      <ul className="divide-y divide-line" data-testid="rollout-picker">
        {data?.items.map((r) => (
          <li key={r.rollout_id}>
            <Link href={tracesHref(r.rollout_id)} className="flex items-center gap-3 px-1 py-2 text-sm hover:bg-panel-2">
              <span className="font-mono text-xs text-ink">{r.rollout_id}</span>
              <StatusBadge status={r.status} />
              <ModeBadge mode={r.mode} />
              <span className="ml-auto text-xs text-ink-3">{relativeTime(r.start_time, now)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}
