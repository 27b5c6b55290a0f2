"use client";

// External trainings (Agent Lightning algorithms writing through our store), beside Lightgate's runs on /training:
// one row per resources lineage with its versions, rollouts, and the newest version's train and validation reward
// and failure rate. Live: polls every 5 s. Search, page and kind in the URL (`xq`, `xoffset`, `xkind`, apart from
// the runs'). Lineages (two versions or more) show by default; ids with one version — the trials an algorithm
// published once, as APO does with add_resources — are folded into one line that opens them.
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { DataTable, Pager, type Column } from "@/components/ui/data-table";
import { Badge } from "@/components/ui/badge";
import { percent } from "@/components/ui/format";
import { Time } from "@/components/ui/time";
import { useUrlState } from "@/components/ui/url-state";
import { externalTrainingHref } from "@/lib/training/external-href";

const LIMIT = 25;
const reward = (x: number | null) => (x === null ? <span className="text-ink-3">—</span> : <span className="tabular-nums text-ink">{x.toFixed(3)}</span>);

export function ExternalTrainingsList() {
  const trpc = useTRPC();
  const url = useUrlState();
  const offset = Number(url.get("xoffset") ?? 0) || 0;
  const search = url.get("xq") ?? "";
  const kind = url.get("xkind") === "one-off" ? "one-off" : "lineages";
  const list = useQuery(trpc.external.listTrainings.queryOptions({ search: search || undefined, kind, offset, limit: LIMIT }, { refetchInterval: 5_000 }));
  const other = list.data?.otherKind ?? 0;
  type Row = NonNullable<typeof list.data>["items"][number];
  const columns: Column<Row>[] = [
    {
      key: "id",
      header: "Resources lineage",
      cell: (r) => (
        <div className="min-w-0">
          <Link href={externalTrainingHref(r.resourcesId)} className="font-mono text-xs font-medium text-ink [overflow-wrap:anywhere] hover:text-accent">
            {r.resourcesId}
          </Link>
          <div className="mt-0.5">
            <Badge tone="accent">Agent Lightning</Badge>
          </div>
        </div>
      ),
    },
    { key: "versions", header: "Versions", align: "right", cell: (r) => <span className="tabular-nums">{r.versions}</span> },
    { key: "rollouts", header: "Rollouts", align: "right", cell: (r) => <span className="tabular-nums">{r.rollouts.toLocaleString()}</span> },
    { key: "train", header: "Train reward (newest)", align: "right", cell: (r) => reward(r.latest.trainReward) },
    { key: "val", header: "Validation reward (newest)", align: "right", cell: (r) => reward(r.latest.valReward) },
    { key: "failed", header: "Failed (newest)", align: "right", cell: (r) => <span className="tabular-nums text-ink-2">{r.latest.failureRate === null ? "—" : percent(r.latest.failureRate, 1)}</span> },
    { key: "updated", header: "Newest version", cell: (r) => <Time at={r.updatedAt} className="whitespace-nowrap text-ink-2" /> },
    { key: "activity", header: "Last activity", cell: (r) => <Time at={r.lastActivity} className="whitespace-nowrap text-ink-2" /> },
  ];
  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <input
          type="search"
          aria-label="Search external trainings by resources id"
          placeholder="Search resources id"
          defaultValue={search}
          onKeyDown={(e) => e.key === "Enter" && url.set({ xq: (e.target as HTMLInputElement).value.trim() || null, xoffset: null })}
          className="w-full rounded-md border border-line bg-panel px-3 py-1.5 text-sm sm:w-64"
        />
      </div>
      <DataTable
        testId="external-trainings-table"
        label="External trainings"
        rows={list.data?.items ?? []}
        columns={columns}
        rowKey={(r) => r.resourcesId}
        loading={list.isLoading}
        empty={
          kind === "one-off"
            ? "No resources id with a single version."
            : other > 0
              ? "No resources id has a second version yet: a lineage appears here once an algorithm updates one (update_resources)."
              : "No Agent Lightning training has written through this store yet. Point an algorithm (APO, VERL, your own) at /v1/agl and its resources versions appear here."
        }
      />
      {other > 0 && (
        <p className="mt-2 text-sm text-ink-2" data-testid="external-folded">
          {kind === "one-off" ? (
            <>
              Showing ids with one version.{" "}
              <button type="button" className="font-medium text-accent hover:underline" onClick={() => url.set({ xkind: null, xoffset: null })}>
                Back to the {other.toLocaleString()} lineage{other === 1 ? "" : "s"}
              </button>
            </>
          ) : (
            <>
              {other.toLocaleString()} resources id{other === 1 ? "" : "s"} with a single version (trials an algorithm published once, as APO does with add_resources) {other === 1 ? "is" : "are"} folded.{" "}
              <button type="button" className="font-medium text-accent hover:underline" onClick={() => url.set({ xkind: "one-off", xoffset: null })}>
                Show {other === 1 ? "it" : "them"}
              </button>
            </>
          )}
        </p>
      )}
      {list.data && list.data.total > LIMIT && <Pager offset={offset} limit={LIMIT} total={list.data.total} onChange={(o) => url.set({ xoffset: o || null })} />}
    </div>
  );
}
