"use client";

// A plain, accessible table for server-paginated lists: columns, optional row expansion, sort headers,
// and a pager. State (page, sort) is owned by the caller, usually kept in the URL (useUrlState).
import { Fragment, type ReactNode, useState } from "react";
import { ChevronDown, ChevronRight, ChevronUp } from "lucide-react";

export type Column<T> = {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  sortable?: boolean;
  className?: string;
  align?: "left" | "right";
};

export type Sort = { by: string; order: "asc" | "desc" };

export function DataTable<T>({
  rows,
  columns,
  rowKey,
  expand,
  sort,
  onSort,
  empty,
  loading,
  testId,
  label = "table",
}: {
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  expand?: (row: T) => ReactNode;
  sort?: Sort;
  onSort?: (sort: Sort) => void;
  empty?: ReactNode;
  loading?: boolean;
  testId?: string;
  /** What the table lists, for screen readers (the wrapper is a scrollable region). */
  label?: string;
}) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (k: string) => setOpen((s) => (s.has(k) ? new Set([...s].filter((x) => x !== k)) : new Set([...s, k])));
  return (
    // Focusable, so a keyboard can scroll a table wider than a phone (axe: scrollable-region-focusable);
    // relative, so absolutely placed children (sr-only labels) are clipped with the table, not past the page.
    <div className="relative overflow-x-auto rounded-lg border border-line bg-panel" data-testid={testId} tabIndex={0} role="region" aria-label={label}>
      <table className="w-full border-collapse text-left text-sm">
        <thead className="border-b border-line bg-panel-2 text-xs text-ink-3">
          <tr>
            {expand && <th className="w-8" aria-label="expand" />}
            {columns.map((c) => {
              const active = sort?.by === c.key;
              return (
                <th key={c.key} scope="col" className={`px-3 py-2 font-medium whitespace-nowrap ${c.align === "right" ? "text-right" : ""} ${c.className ?? ""}`} aria-sort={active ? (sort!.order === "asc" ? "ascending" : "descending") : undefined}>
                  {c.sortable && onSort ? (
                    <button type="button" className="inline-flex items-center gap-1 hover:text-ink" onClick={() => onSort({ by: c.key, order: active && sort!.order === "asc" ? "desc" : "asc" })}>
                      {c.header}
                      {active ? sort!.order === "asc" ? <ChevronUp className="h-3 w-3" /> : <ChevronDown className="h-3 w-3" /> : null}
                    </button>
                  ) : (
                    c.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className={loading ? "opacity-60" : ""}>
          {rows.length === 0 && (
            <tr>
              <td colSpan={columns.length + (expand ? 1 : 0)} className="px-3 py-10 text-center text-ink-3">
                {loading ? "Loading…" : (empty ?? "Nothing here yet")}
              </td>
            </tr>
          )}
          {rows.map((row) => {
            const k = rowKey(row);
            const isOpen = open.has(k);
            return (
              <Fragment key={k}>
                <tr className="border-b border-line last:border-0 hover:bg-panel-2/60">
                  {expand && (
                    <td className="pl-2">
                      <button type="button" aria-expanded={isOpen} aria-label={isOpen ? "collapse row" : "expand row"} onClick={() => toggle(k)} className="rounded p-1 text-ink-3 hover:bg-panel-2 hover:text-ink">
                        {isOpen ? <ChevronDown className="h-3.5 w-3.5" /> : <ChevronRight className="h-3.5 w-3.5" />}
                      </button>
                    </td>
                  )}
                  {columns.map((c) => (
                    <td key={c.key} className={`px-3 py-2 align-middle ${c.align === "right" ? "text-right tabular-nums" : ""} ${c.className ?? ""}`}>
                      {c.cell(row)}
                    </td>
                  ))}
                </tr>
                {expand && isOpen && (
                  <tr className="border-b border-line bg-panel-2/40">
                    <td />
                    <td colSpan={columns.length} className="px-3 py-3">
                      {expand(row)}
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function Pager({ offset, limit, total, onChange }: { offset: number; limit: number; total: number; onChange: (offset: number) => void }) {
  const from = total === 0 ? 0 : offset + 1;
  const to = Math.min(offset + limit, total);
  return (
    <div className="mt-3 flex items-center justify-between text-xs text-ink-3">
      <span className="tabular-nums">
        {from}–{to} of {total.toLocaleString("en")}
      </span>
      <div className="flex gap-1">
        <button type="button" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))} className="rounded border border-line bg-panel px-2.5 py-1 text-ink-2 enabled:hover:text-ink disabled:opacity-40">
          Previous
        </button>
        <button type="button" disabled={to >= total} onClick={() => onChange(offset + limit)} className="rounded border border-line bg-panel px-2.5 py-1 text-ink-2 enabled:hover:text-ink disabled:opacity-40">
          Next
        </button>
      </div>
    </div>
  );
}
