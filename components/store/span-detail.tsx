"use client";

// One span in full: what went in and came out, its reward, tokens and cost (lib/spans/io.ts), then ids,
// status, timings, attributes, events, links and resource (secrets masked).
import { useQuery } from "@tanstack/react-query";
import { X } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { CopyId } from "@/components/ui/copy-id";
import { duration } from "@/components/ui/format";
import { JsonView } from "@/components/ui/json-view";
import { spanIo } from "@/lib/spans/io";
import { StatusBadge } from "./status";
import { Time } from "@/components/ui/time";

export function SpanDetail({ rolloutId, attemptId, spanId, onClose }: { rolloutId: string; attemptId: string; spanId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const { data, isLoading, error } = useQuery(trpc.store.getSpan.queryOptions({ rollout_id: rolloutId, attempt_id: attemptId, span_id: spanId }));
  const close = (
    <button type="button" aria-label="close span" onClick={onClose} className="rounded p-1 text-ink-3 hover:bg-panel-2 hover:text-ink">
      <X className="h-4 w-4" />
    </button>
  );
  return (
    <Card title={data ? <span className="font-mono">{data.name}</span> : "Span"} actions={close} className="min-w-0">
      {error && <p role="alert" className="text-sm text-fail">{error.message}</p>}
      {isLoading && <p className="text-xs text-ink-3">Loading…</p>}
      {!isLoading && !data && !error && <p className="text-sm text-ink-3">This span is not in the store (it may have been pruned).</p>}
      {data && (
        <div className="space-y-3 text-xs" data-testid="span-detail">
          <dl className="grid grid-cols-[6rem_minmax(0,1fr)] gap-x-3 gap-y-1">
            <dt className="text-ink-3">Status</dt>
            <dd>
              <StatusBadge status={data.status.status_code} /> {data.status.description ? <span className="text-ink-2">{String(data.status.description)}</span> : null}
            </dd>
            <dt className="text-ink-3">Duration</dt>
            <dd>{duration(data.start_time !== null && data.end_time !== null ? data.end_time - data.start_time : null)}</dd>
            <dt className="text-ink-3">Start</dt>
            <dd><Time at={data.start_time} /></dd>
            <dt className="text-ink-3">Span</dt>
            <dd><CopyId value={data.span_id} short={20} /></dd>
            <dt className="text-ink-3">Parent</dt>
            <dd>{data.parent_id ? <CopyId value={data.parent_id} short={20} /> : "—"}</dd>
            <dt className="text-ink-3">Trace</dt>
            <dd><CopyId value={data.trace_id} short={20} /></dd>
            <dt className="text-ink-3">Attempt</dt>
            <dd><CopyId value={data.attempt_id} /> · seq {data.sequence_id}</dd>
          </dl>
          <SpanIoView attributes={data.attributes} />
          <Section title="Attributes" value={data.attributes} />
          {data.events.length > 0 && <Section title={`Events (${data.events.length})`} value={data.events} />}
          {data.links.length > 0 && <Section title={`Links (${data.links.length})`} value={data.links} />}
          {Object.keys(data.resource?.attributes ?? {}).length > 0 && <Section title="Resource" value={data.resource.attributes} />}
        </div>
      )}
    </Card>
  );
}

function Section({ title, value }: { title: string; value: unknown }) {
  return (
    <div>
      <div className="mb-1 font-medium text-ink-2">{title}</div>
      <JsonView value={value} collapsedAfter={30} />
    </div>
  );
}

function SpanIoView({ attributes }: { attributes: Record<string, unknown> }) {
  const io = spanIo(attributes);
  const usage = [io.inputTokens !== null ? `${io.inputTokens.toLocaleString("en")} in` : null, io.outputTokens !== null ? `${io.outputTokens.toLocaleString("en")} out` : null].filter(Boolean).join(" · ");
  return (
    <div className="space-y-3" data-testid="span-io">
      {(usage || io.costUsd !== null) && (
        <dl className="grid grid-cols-[6rem_minmax(0,1fr)] gap-x-3 gap-y-1">
          {usage && <><dt className="text-ink-3">Tokens</dt><dd className="tabular-nums">{usage}</dd></>}
          {io.costUsd !== null && <><dt className="text-ink-3">Cost</dt><dd className="tabular-nums">${io.costUsd.toFixed(4)}</dd></>}
        </dl>
      )}
      {io.reward && <Section title="Reward" value={io.reward} />}
      {io.input && <Section title="Input" value={io.input} />}
      {io.output && <Section title="Output" value={io.output} />}
      {!io.input && !io.output && !io.reward && <p className="text-ink-3">No input, output or reward attributes on this span.</p>}
    </div>
  );
}
