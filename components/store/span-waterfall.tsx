"use client";

// The span tree with a waterfall: one row per span, indented under its parent (collapsible), with a bar on
// the rollout's time axis. Rows are virtualised (only the visible window is rendered), so a rollout with
// thousands of spans scrolls smoothly. Clicking a row selects the span (kept in the URL by the caller).
import { useEffect, useMemo, useRef, useState } from "react";
import { ChevronDown, ChevronRight } from "lucide-react";
import { duration } from "@/components/ui/format";
import { ancestorsOf, buildSpanTree, visibleRows, type OutlineSpan } from "@/lib/spans/tree";

const ROW = 28;
const HEIGHT = 560;
const OVERSCAN = 12;

function barTone(status: string) {
  return status === "ERROR" ? "bg-fail" : status === "OK" ? "bg-accent" : "bg-ink-3";
}

/** A bar's duration beside it: after the bar, before it when the bar ends near the right edge, else inside. */
function DurationLabel({ left, width, seconds }: { left: number; width: number; seconds: number | null }) {
  const end = left + width;
  const base = "absolute top-1/2 -translate-y-1/2 whitespace-nowrap text-[10px] tabular-nums";
  if (end < 85) return <span className={`${base} pl-1 text-ink-3`} style={{ left: `${end}%` }}>{duration(seconds)}</span>;
  if (left > 15) return <span className={`${base} pr-1 text-ink-3`} style={{ right: `${100 - left}%` }}>{duration(seconds)}</span>;
  // Inside a bar that spans the row: on a chip of the panel's colour, legible on any bar tone (axe: contrast).
  return <span className={`${base} mr-1 rounded bg-panel px-1 font-medium text-ink-2`} style={{ right: `${100 - end}%` }}>{duration(seconds)}</span>;
}

export function SpanWaterfall({ spans, selected, onSelect, attemptLabels, marks }: {
  spans: OutlineSpan[];
  selected: string | null;
  onSelect: (key: string) => void;
  /** Attempt labels ("#2 retry after failed") shown on root spans when several attempts are in view. */
  attemptLabels?: ReadonlyMap<string, string>;
  /** Notes per span key, shown as a marker beside the name (what differs from another trace). */
  marks?: ReadonlyMap<string, readonly string[]>;
}) {
  const tree = useMemo(() => buildSpanTree(spans), [spans]);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const rows = useMemo(() => visibleRows(tree.roots, collapsed), [tree, collapsed]);
  const [scrollTop, setScrollTop] = useState(0);
  const box = useRef<HTMLDivElement>(null);

  // A newly selected span inside a collapsed subtree: open the path to it (state adjusted during render,
  // as React recommends for state derived from a changed prop), then scroll it into view.
  const [revealed, setRevealed] = useState<string | null>(null);
  if (selected !== revealed) {
    setRevealed(selected);
    const path = selected ? ancestorsOf(tree.roots, selected) : [];
    if (path.some((k) => collapsed.has(k))) setCollapsed(new Set([...collapsed].filter((k) => !path.includes(k))));
  }
  useEffect(() => {
    const i = selected ? rows.findIndex((r) => r.node.key === selected) : -1;
    const el = box.current;
    if (i >= 0 && el && (i * ROW < el.scrollTop || (i + 1) * ROW > el.scrollTop + el.clientHeight)) el.scrollTop = Math.max(0, i * ROW - HEIGHT / 3);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the selection changes, not on every collapse
  }, [selected, tree]);

  const t0 = tree.start ?? 0;
  const span = Math.max(1e-6, (tree.end ?? t0) - t0);
  const first = Math.max(0, Math.floor(scrollTop / ROW) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + HEIGHT) / ROW) + OVERSCAN);
  const toggle = (key: string) => setCollapsed((c) => (c.has(key) ? new Set([...c].filter((k) => k !== key)) : new Set([...c, key])));
  const ticks = [0, 0.25, 0.5, 0.75, 1];

  return (
    <div className="overflow-hidden rounded-lg border border-line bg-panel" data-testid="span-waterfall">
      <div className="flex items-center justify-between gap-3 border-b border-line bg-panel-2 px-3 py-1.5 text-xs text-ink-3">
        <span>
          {tree.count.toLocaleString("en")} spans · {tree.roots.length} root{tree.roots.length === 1 ? "" : "s"} · {duration(tree.end !== null ? span : null)}
        </span>
        <span className="flex gap-2">
          <button type="button" className="hover:text-ink" onClick={() => setCollapsed(new Set())}>expand all</button>
          <button type="button" className="hover:text-ink" onClick={() => setCollapsed(new Set(tree.roots.flatMap((r) => [r.key, ...r.children.map((c) => c.key)])))}>collapse</button>
        </span>
      </div>
      <div className="grid grid-cols-[minmax(14rem,38%)_1fr] border-b border-line text-[11px] text-ink-3">
        <div className="px-3 py-1">Span</div>
        <div className="relative h-6" aria-label="time axis">
          {ticks.map((t) => (
            <span key={t} className="absolute top-1 -translate-x-1/2 whitespace-nowrap tabular-nums first:translate-x-0 first:pl-1 last:-translate-x-full last:pr-2" style={{ left: `${t * 100}%` }}>
              {duration(span * t)}
            </span>
          ))}
        </div>
      </div>
      <div ref={box} className="relative overflow-y-auto" style={{ height: Math.min(HEIGHT, Math.max(rows.length, 1) * ROW + 2) }} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)} role="tree" aria-label="span tree">
        <div style={{ height: rows.length * ROW, position: "relative" }}>
          {rows.slice(first, last).map(({ node, depth }, i) => {
            const s = node.span;
            const left = s.start_time === null ? null : ((s.start_time - t0) / span) * 100;
            const width = s.start_time === null ? 0 : Math.max(0.3, (((s.end_time ?? s.start_time) - s.start_time) / span) * 100);
            const isSel = node.key === selected;
            const open = !collapsed.has(node.key);
            return (
              <div
                key={node.key}
                role="treeitem"
                aria-level={depth + 1}
                aria-selected={isSel}
                aria-expanded={node.children.length ? open : undefined}
                data-testid="span-row"
                data-depth={depth}
                onClick={() => onSelect(node.key)}
                className={`absolute inset-x-0 grid cursor-pointer grid-cols-[minmax(14rem,38%)_1fr] items-center text-xs ${isSel ? "bg-accent/10" : "hover:bg-panel-2"}`}
                style={{ top: (first + i) * ROW, height: ROW }}
              >
                <div className="flex min-w-0 items-center gap-1 pr-2" style={{ paddingLeft: 8 + depth * 14 }}>
                  {node.children.length ? (
                    <button
                      type="button"
                      aria-label={open ? `collapse ${s.name}` : `expand ${s.name}`}
                      onClick={(e) => {
                        e.stopPropagation();
                        toggle(node.key);
                      }}
                      className="rounded p-0.5 text-ink-3 hover:text-ink"
                    >
                      {open ? <ChevronDown className="h-3 w-3" /> : <ChevronRight className="h-3 w-3" />}
                    </button>
                  ) : (
                    <span className="w-4" />
                  )}
                  <span className={`truncate font-mono ${s.status_code === "ERROR" ? "text-fail" : "text-ink"}`} title={s.name}>{s.name}</span>
                  {depth === 0 && attemptLabels?.has(s.attempt_id) && <span className="shrink-0 rounded bg-panel-2 px-1 text-[10px] text-ink-3 ring-1 ring-line">{attemptLabels.get(s.attempt_id)}</span>}
                  {marks?.has(node.key) && (
                    <span className="shrink-0 rounded bg-warn/10 px-1 text-[10px] font-medium text-warn ring-1 ring-warn/25" title={marks.get(node.key)!.join("; ")} data-testid="span-mark">
                      ≠<span className="sr-only"> {marks.get(node.key)!.join("; ")}</span>
                    </span>
                  )}
                  {!open && <span className="text-ink-3">+{node.size - 1}</span>}
                </div>
                <div className="relative h-full border-l border-line">
                  {left !== null && (
                    <div
                      data-testid="span-bar"
                      className={`absolute top-1/2 h-3 -translate-y-1/2 rounded-sm ${barTone(s.status_code)} opacity-80`}
                      style={{ left: `${left}%`, width: `${Math.min(width, 100 - left)}%` }}
                      title={`${s.name}: ${duration(s.end_time !== null && s.start_time !== null ? s.end_time - s.start_time : null)}`}
                    />
                  )}
                  {left !== null && <DurationLabel left={left} width={Math.min(width, 100 - left)} seconds={s.end_time !== null && s.start_time !== null ? s.end_time - s.start_time : null} />}
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
