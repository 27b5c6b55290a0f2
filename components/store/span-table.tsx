"use client";

// The spans of a rollout/attempt as a table, one server page at a time, with a name filter; a row expands
// to its attributes and events (secrets masked), and its name selects the span.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { DataTable, Pager, type Column } from "@/components/ui/data-table";
import { CopyId } from "@/components/ui/copy-id";
import { duration } from "@/components/ui/format";
import { JsonView } from "@/components/ui/json-view";
import { spanKey } from "@/lib/spans/tree";
import type { Span } from "@/server/store/types";
import { StatusBadge } from "./status";
import { Time } from "@/components/ui/time";

const PAGE = 50;

export function SpanTable({ rolloutId, attemptId, attemptLabels, name, offset, onOffset, selected, onSelect, refetchInterval }: {
  rolloutId: string;
  attemptId: string | undefined;
  attemptLabels?: ReadonlyMap<string, string>;
  name: string;
  offset: number;
  onOffset: (offset: number) => void;
  selected: string | null;
  onSelect: (key: string) => void;
  refetchInterval: number | false;
}) {
  const trpc = useTRPC();
  const { data, isLoading, error } = useQuery(
    trpc.store.querySpans.queryOptions({ rollout_id: rolloutId, attempt_id: attemptId, name_contains: name || undefined, limit: PAGE, offset }, { placeholderData: keepPreviousData, refetchInterval }),
  );
  const columns: Column<Span>[] = [
    { key: "seq", header: "Seq.", align: "right", cell: (s) => <span className="text-xs text-ink-3">{s.sequence_id}</span> },
    {
      key: "name",
      header: "Name",
      cell: (s) => {
        const key = spanKey(s.attempt_id, s.span_id);
        return (
          <button type="button" onClick={() => onSelect(key)} className={`font-mono text-xs hover:underline ${key === selected ? "font-semibold text-accent" : "text-ink"}`}>
            {s.name}
          </button>
        );
      },
    },
    ...(attemptLabels ? [{ key: "attempt", header: "Attempt", cell: (s: Span) => <span className="text-xs whitespace-nowrap text-ink-2">{attemptLabels.get(s.attempt_id)?.split(" ")[0] ?? s.attempt_id}</span> }] : []),
    { key: "status", header: "Status", cell: (s) => <StatusBadge status={s.status.status_code} /> },
    { key: "duration", header: "Duration", align: "right", cell: (s) => <span className="text-xs">{duration(s.start_time !== null && s.end_time !== null ? s.end_time - s.start_time : null)}</span> },
    { key: "start", header: "Start", cell: (s) => <Time at={s.start_time} className="text-xs whitespace-nowrap text-ink-3" /> },
    { key: "span_id", header: "Span ID", cell: (s) => <CopyId value={s.span_id} short={16} /> },
    { key: "parent_id", header: "Parent ID", cell: (s) => (s.parent_id ? <CopyId value={s.parent_id} short={16} /> : <span className="text-xs text-ink-3">root</span>) },
    { key: "attributes", header: "Attributes", cell: (s) => <span className="text-xs text-ink-3">{Object.keys(s.attributes).slice(0, 3).join(", ")}{Object.keys(s.attributes).length > 3 ? ` +${Object.keys(s.attributes).length - 3}` : ""}</span> },
  ];
  return (
    <div>
      {error && <p role="alert" className="text-sm text-fail">{error.message}</p>}
      <DataTable
        testId="span-table"
        rows={(data?.items ?? []) as Span[]}
        columns={columns}
        rowKey={(s) => spanKey(s.attempt_id, s.span_id)}
        loading={isLoading}
        empty={name ? "No span name matches this filter" : "No spans recorded for this rollout yet"}
        expand={(s) => (
          <div className="grid gap-3 lg:grid-cols-2">
            <div>
              <div className="mb-1 text-xs font-medium text-ink-2">Attributes</div>
              <JsonView value={s.attributes} />
            </div>
            <div>
              <div className="mb-1 text-xs font-medium text-ink-2">Events ({s.events.length})</div>
              <JsonView value={s.events} />
            </div>
          </div>
        )}
      />
      {data && <Pager offset={offset} limit={PAGE} total={data.total} onChange={onOffset} />}
    </div>
  );
}
