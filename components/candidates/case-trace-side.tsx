"use client";

// One side of a locked-gate case (the exact parent or the candidate): the rollout the sealed evidence names, what
// the gate scored, its final reward, tool calls and final output, the span tree with what differs from the other
// side marked, and the selected span in full. Links to the rollout's full trace page.
import Link from "next/link";
import { useMemo } from "react";
import { SpanDetail } from "@/components/store/span-detail";
import { SpanWaterfall } from "@/components/store/span-waterfall";
import { StatusBadge } from "@/components/store/status";
import { Badge } from "@/components/ui/badge";
import { CopyId } from "@/components/ui/copy-id";
import { JsonView } from "@/components/ui/json-view";
import type { CaseTracesDetail } from "./types";

type Side = "parent" | "candidate";
export const SIDE_LABEL: Record<Side, string> = { parent: "Exact parent", candidate: "Candidate" };

export function CaseTraceSide({ detail, side, selected, onSelect }: { detail: CaseTracesDetail; side: Side; selected: string | null; onSelect: (key: string | null) => void }) {
  const ref = detail[side];
  const trace = detail.traces[side];
  const facts = detail.diff[side];
  const marks = useMemo(() => new Map(detail.diff.marks[side].map((m) => [m.key, m.notes])), [detail, side]);
  const toolDiffers = new Set(detail.diff.differences.flatMap((d) => (d.kind === "tool" ? [d.tool] : [])));
  const differs = (kind: "reward" | "output") => detail.diff.differences.some((d) => d.kind === kind);
  const sel = selected && selected.includes("/") ? { attempt: selected.slice(0, selected.lastIndexOf("/")), span: selected.slice(selected.lastIndexOf("/") + 1) } : null;

  return (
    <section className="min-w-0 space-y-3 rounded-lg border border-line bg-panel p-4" aria-labelledby={`case-side-${side}`} data-testid={`case-side-${side}`}>
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={`case-side-${side}`} className="text-sm font-semibold text-ink">
            {SIDE_LABEL[side]}
          </h2>
          <p className="font-mono text-xs break-all text-ink-2">
            {ref.resource.resourceId} v{ref.resource.version}
          </p>
        </div>
        {ref.rolloutId && (
          <Link href={`/traces?rollout=${encodeURIComponent(ref.rolloutId)}`} className="text-xs font-medium text-accent hover:underline" data-testid="full-trace">
            Full trace →
          </Link>
        )}
      </header>

      <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-ink-3">Rollout</dt>
        <dd className="flex flex-wrap items-center gap-2">
          {ref.rolloutId ? <CopyId value={ref.rolloutId} short={22} /> : <span className="text-unavailable">none recorded</span>}
          {trace.rollout && <StatusBadge status={trace.rollout.status} />}
          {ref.rolloutId && !trace.rollout && <span className="text-xs text-unavailable">no longer in the store</span>}
        </dd>
        <dt className="text-ink-3">Gate scored</dt>
        <dd className="tabular-nums">{ref.judged ? `${ref.judged.score.toFixed(3)} ${ref.judged.passed ? "✓ passed" : "✗ failed"}` : <span className="text-unavailable">unavailable{ref.unavailable ? `: ${ref.unavailable}` : ""}</span>}</dd>
        <dt className="text-ink-3">Final reward</dt>
        <dd className={`tabular-nums ${differs("reward") ? "font-semibold text-warn" : ""}`} data-testid="final-reward">
          {facts.reward === null ? "—" : facts.reward.toFixed(3)}
        </dd>
        <dt className="text-ink-3">Tool calls</dt>
        <dd className="flex flex-wrap gap-1" data-testid="tool-calls">
          {facts.tools.length === 0 ? <span className="text-ink-3">none</span> : facts.tools.map((t) => <Badge key={t.tool} tone={toolDiffers.has(t.tool) ? "warn" : "neutral"}>{t.tool}{t.calls > 1 ? ` ×${t.calls}` : ""}</Badge>)}
        </dd>
      </dl>
      {!ref.rolloutId && <p className="text-sm text-unavailable">The sealed evidence names no rollout for this side (imported case results carry none), so there is no trace to show.</p>}
      {ref.lateEvidence && <p className="text-xs text-warn">Changed after the seal: {ref.lateEvidence}. The trace below may not be what the gate judged.</p>}

      <div>
        <div className="mb-1 text-xs font-medium text-ink-2">Final output {differs("output") && <Badge tone="warn">differs</Badge>}</div>
        {facts.output === null ? <p className="text-sm text-ink-3">No span carries an output.</p> : <pre tabIndex={0} aria-label={`${SIDE_LABEL[side]} final output`} className="max-h-40 overflow-y-auto rounded-md border border-line bg-panel-2 p-2 text-xs whitespace-pre-wrap break-words text-ink" data-testid="final-output">{facts.output}</pre>}
      </div>
      {trace.rollout && (
        <details className="text-xs">
          <summary className="cursor-pointer text-ink-2">Input</summary>
          <JsonView value={trace.rollout.input} className="mt-1" />
        </details>
      )}

      {trace.spans.length > 0 && (
        <>
          <SpanWaterfall spans={trace.spans} selected={selected} onSelect={(k) => onSelect(k === selected ? null : k)} marks={marks} />
          {trace.totalSpans > trace.spans.length && <p className="text-xs text-warn">Showing and comparing the first {trace.spans.length.toLocaleString("en")} of {trace.totalSpans.toLocaleString("en")} spans; the full trace page pages through all.</p>}
        </>
      )}
      {trace.rollout && trace.spans.length === 0 && <p className="text-sm text-ink-3">No spans recorded for its latest attempt.</p>}
      {sel && ref.rolloutId && <SpanDetail rolloutId={ref.rolloutId} attemptId={sel.attempt} spanId={sel.span} onClose={() => onSelect(null)} />}
    </section>
  );
}
