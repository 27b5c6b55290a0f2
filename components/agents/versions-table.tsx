"use client";

// The agent's versions, newest first, as a registered model's versions table: verdict (the candidates list's own
// badge), gain against its exact parent, what trained it, who approved each step and which pointers name it now.
// Tick two to compare them (/agents/<agent>/compare?a=…&b=…, a link to share). On a phone the verdict rides with
// the version in the first column; the rest scrolls inside the table's focusable region.
import Link from "next/link";
import { useState } from "react";
import { GitCompareArrows } from "lucide-react";
import { VerdictBadge } from "@/components/candidates/verdict";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { signed, timestamp } from "@/components/ui/format";
import { Time } from "@/components/ui/time";
import { PointerBadge } from "./pointer-names";
import type { AgentVersionsView, AgentVersionView } from "./types";

const nameOf = (v: AgentVersionView) => `${v.resourcesId} v${v.version}`;

export const compareHref = (agent: string, a: string, b: string) => `/agents/${encodeURIComponent(agent)}/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;

function Origin({ v }: { v: AgentVersionView }) {
  const { run, algorithm, declaredBy } = v.origin;
  if (run) {
    return (
      <span className="flex flex-col text-xs">
        <Link href={`/training/${encodeURIComponent(run.id)}`} className="whitespace-nowrap text-accent hover:underline" data-testid="training-run-link">
          run {run.name ?? run.id}
        </Link>
        <span className="text-ink-2">{algorithm}</span>
      </span>
    );
  }
  return (
    <span className="flex flex-col text-xs text-ink-2" data-testid="declared-by">
      <span>{algorithm}</span>
      <span className="whitespace-nowrap">
        {/* Read as one phrase ("ppo · declared by …") by screen readers and in the text of the row. */}
        <span className="sr-only"> · </span>declared by {declaredBy}
      </span>
    </span>
  );
}

function Approvals({ v }: { v: AgentVersionView }) {
  if (!v.approvals.length) return <span className="text-xs text-ink-3">none</span>;
  return (
    <ul className="space-y-0.5 text-xs text-ink-2" data-testid="approvals">
      {v.approvals.map((a, i) => (
        // The time on hover: the pointer history below has every approval's move with its time.
        <li key={i} className="whitespace-nowrap" title={timestamp(a.at)}>
          <span className="text-ink-3">{a.step}:</span> {a.by}
        </li>
      ))}
    </ul>
  );
}

function columns(selected: string[], toggle: (id: string) => void): Column<AgentVersionView>[] {
  return [
    {
      key: "pick",
      header: <span className="sr-only">Compare</span>,
      cell: (v) => (
        <input
          type="checkbox"
          className="h-4 w-4 accent-accent"
          aria-label={`Compare ${nameOf(v)}`}
          checked={selected.includes(v.id)}
          disabled={selected.length >= 2 && !selected.includes(v.id)}
          onChange={() => toggle(v.id)}
          data-testid="compare-pick"
        />
      ),
    },
    {
      key: "version",
      header: "Version",
      cell: (v) => (
        <span className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
          <span className="text-xs text-ink-3 tabular-nums">#{v.number}</span>
          <Link href={`/candidates/${encodeURIComponent(v.id)}`} className="font-medium whitespace-nowrap text-accent hover:underline" data-testid="version-link">
            {nameOf(v)}
          </Link>
          {v.label && <Badge>{v.label}</Badge>}
          <span className="sm:hidden">
            <VerdictBadge verdict={v.status} testId="verdict-compact" />
          </span>
        </span>
      ),
    },
    {
      key: "verdict",
      header: "Verdict",
      className: "hidden sm:table-cell",
      cell: (v) => (
        <span className="flex flex-col items-start gap-0.5">
          <VerdictBadge verdict={v.status} />
          {v.promotion && v.promotion.label.toUpperCase() !== v.status && (
            <span className="text-xs text-ink-2" title={v.promotion.next} data-testid="promotion-state">
              {v.promotion.label.toLowerCase()}
            </span>
          )}
        </span>
      ),
    },
    {
      key: "gain",
      header: "Gain vs parent",
      align: "right",
      cell: (v) => (
        <span className="flex flex-col items-end">
          {v.scoreGain === null ? <span className="text-unavailable">unavailable</span> : <span className={`tabular-nums ${v.scoreGain > 0 ? "text-pass" : "text-fail"}`} data-testid="gain">{signed(v.scoreGain)}</span>}
          <span className="text-xs whitespace-nowrap text-ink-3">
            vs {v.parent.resourcesId} v{v.parent.version}
          </span>
        </span>
      ),
    },
    { key: "origin", header: "Trained by", cell: (v) => <Origin v={v} /> },
    { key: "approvals", header: "Approved by", cell: (v) => <Approvals v={v} /> },
    {
      key: "pointers",
      header: "Pointers now",
      cell: (v) =>
        v.pointers.length ? (
          <span className="flex flex-wrap gap-1" data-testid="pointers">
            {v.pointers.map((p) => (
              <PointerBadge key={p} kind={p} />
            ))}
          </span>
        ) : (
          <span className="text-xs text-ink-3">—</span>
        ),
    },
    { key: "registered", header: "Registered", cell: (v) => <Time at={v.createdAt} className="text-xs whitespace-nowrap text-ink-3" /> },
  ];
}

export function VersionsTable({ data }: { data: AgentVersionsView }) {
  const [selected, setSelected] = useState<string[]>([]);
  const toggle = (id: string) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id].slice(-2)));
  const byId = new Map(data.versions.map((v) => [v.id, v]));
  // Older first on the left, as a comparison reads: a → b.
  const [a, b] = selected.map((id) => byId.get(id)!).sort((x, y) => x.number - y.number);
  return (
    <Card
      id="versions"
      title="Versions"
      description="Every candidate of this agent, newest first, judged as the candidates list judges it. Tick two to compare them."
      actions={
        <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="compare-bar">
          {a && b ? (
            <Link href={compareHref(data.agent, a.id, b.id)} className="inline-flex items-center gap-1.5 rounded-md bg-accent px-3 py-1.5 font-medium text-accent-ink hover:opacity-90" data-testid="compare-link">
              <GitCompareArrows className="h-4 w-4" aria-hidden="true" /> Compare #{a.number} with #{b.number}
            </Link>
          ) : (
            <span className="text-xs text-ink-2" aria-live="polite">
              {selected.length === 1 ? "Tick one more version to compare." : "Tick two versions to compare."}
            </span>
          )}
          {selected.length > 0 && (
            <button type="button" className="text-xs text-accent hover:underline" onClick={() => setSelected([])}>
              Clear
            </button>
          )}
        </div>
      }
    >
      <DataTable
        testId="versions-table"
        label={`${data.agent} versions`}
        rows={data.versions}
        columns={columns(selected, toggle)}
        rowKey={(v) => v.id}
        empty={<EmptyState title="No versions yet">A version appears when a training algorithm writes a resource update with its stage-1 declaration.</EmptyState>}
      />
    </Card>
  );
}
