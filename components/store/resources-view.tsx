"use client";

// Resources: every resources id with its latest version, times, digest and resource names; selecting one
// shows its version history, a version's content (secrets masked on the server) and a key diff between
// two versions. Selection and the compared versions live in the URL (rid, from, to).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { DataTable, Pager, type Column } from "@/components/ui/data-table";
import { relativeTime, shortDigest, timestamp } from "@/components/ui/format";
import { useUrlState } from "@/components/ui/url-state";
import { LiveRefresh, useLive, useNow } from "./live-refresh";
import { ResourcesHistory } from "./resources-history";
import { SearchBox } from "./search-box";

const PAGE = 20;
type Summary = { resources_id: string; version: number; create_time: number; update_time: number; digest: string; names: string[] };

export function ResourcesView() {
  const trpc = useTRPC();
  const url = useUrlState();
  const live = useLive();
  const now = useNow(5000);
  const offset = Math.max(0, Number(url.get("offset") ?? 0) || 0);
  const rid = url.get("rid");
  const list = useQuery(
    trpc.store.listResourcesSummaries.queryOptions({ limit: PAGE, offset, resources_id_contains: url.get("q") || undefined }, { placeholderData: keepPreviousData, refetchInterval: live.refetchInterval }),
  );
  const columns: Column<Summary>[] = [
    {
      key: "id",
      header: "Resources ID",
      cell: (r) => (
        <button type="button" onClick={() => url.set({ rid: r.resources_id, from: null, to: null })} className={`font-mono text-xs hover:underline ${r.resources_id === rid ? "font-semibold text-accent" : "text-ink"}`}>
          {r.resources_id}
        </button>
      ),
    },
    { key: "version", header: "Version", align: "right", cell: (r) => <span className="text-xs">v{r.version}</span> },
    { key: "names", header: "Resources", cell: (r) => <span className="text-xs text-ink-2">{r.names.join(", ") || "—"}</span> },
    { key: "digest", header: "Digest", cell: (r) => <span className="font-mono text-xs text-ink-3" title={r.digest}>{shortDigest(r.digest)}</span> },
    { key: "created", header: "Created", cell: (r) => <span className="text-xs text-ink-3" title={timestamp(r.create_time)}>{relativeTime(r.create_time, now)}</span> },
    { key: "updated", header: "Updated", cell: (r) => <span className="text-xs text-ink-3" title={timestamp(r.update_time)}>{relativeTime(r.update_time, now)}</span> },
  ];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchBox label="resources id" />
        <LiveRefresh updatedAt={list.dataUpdatedAt} fetching={list.isFetching} onRefresh={() => void list.refetch()} />
      </div>
      {list.error && <p role="alert" className="text-sm text-fail">{list.error.message}</p>}
      <DataTable testId="resources-table" rows={list.data?.items ?? []} columns={columns} rowKey={(r) => r.resources_id} loading={list.isLoading} empty="No resources yet — algorithms add them through /v1/agl/resources" />
      {list.data && <Pager offset={offset} limit={PAGE} total={list.data.total} onChange={(o) => url.set({ offset: o || null })} />}
      {rid ? (
        <ResourcesHistory resourcesId={rid} refetchInterval={live.refetchInterval} />
      ) : (
        list.data && list.data.total > 0 && <Card><p className="text-sm text-ink-3">Pick a resources id to see its versions and compare two of them.</p></Card>
      )}
    </div>
  );
}
