// An agent's three pointers now (cards), and every move as a timeline, newest first. The lane filter lives in the URL
// (?pointer=canary) so a view can be shared; signed decisions and the canary guard's aborts are marked in words.
import Link from "next/link";
import { ArrowRight, ShieldAlert, Signature } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Time } from "@/components/ui/time";
import type { AgentPointerHistory, PointerEnd, PointerMoveView } from "@/server/receipts/agent-pointers";
import type { PointerKind } from "@/server/candidates/pointers";
import { POINTER_NAMES, POINTER_TONE } from "./pointer-names";

const LANE_DOT: Record<PointerKind, string> = { latest_candidate: "bg-ink-3", canary: "bg-accent", approved_default: "bg-pass" };

function End({ end }: { end: PointerEnd | null }) {
  if (!end) return <span className="text-ink-3">nothing</span>;
  const label = <span title={end.digest}>{end.label}</span>;
  return end.candidateId ? (
    <Link href={`/candidates/${encodeURIComponent(end.candidateId)}`} className="font-medium text-accent hover:underline">
      {label}
    </Link>
  ) : (
    <span className="font-medium text-ink">{label}</span>
  );
}

function Marks({ move }: { move: PointerMoveView }) {
  if (move.guardAbort) {
    return (
      <Badge tone="fail">
        <ShieldAlert className="h-3 w-3" aria-hidden="true" /> guard abort
      </Badge>
    );
  }
  if (!move.decision) return <Badge tone="neutral">unsigned</Badge>;
  const what = move.decision.action === "rollback" ? "signed rollback" : `signed ${move.decision.step ?? ""} approval`.replace("  ", " ");
  return (
    <Badge tone={move.decision.action === "rollback" ? "warn" : "pass"}>
      <Signature className="h-3 w-3" aria-hidden="true" /> {what}
    </Badge>
  );
}

function Lanes({ history, filter }: { history: AgentPointerHistory; filter: PointerKind | null }) {
  const base = `/agents/${encodeURIComponent(history.agent)}`;
  const all = Object.values(history.counts).reduce((a, b) => a + b, 0);
  const lanes: [PointerKind | null, string, number][] = [[null, "All pointers", all], ...history.pointers.map((p): [PointerKind, string, number] => [p.kind, POINTER_NAMES[p.kind], history.counts[p.kind]])];
  return (
    <nav aria-label="Pointer lanes" className="flex flex-wrap gap-2" data-testid="pointer-lanes">
      {lanes.map(([kind, name, count]) => {
        const active = kind === filter;
        return (
          <Link
            key={name}
            href={kind ? `${base}?pointer=${kind}` : base}
            // The timeline sits below the versions: changing lanes keeps it in view.
            scroll={false}
            aria-current={active ? "page" : undefined}
            className={`rounded-full px-3 py-1 text-xs ring-1 ring-inset ${active ? "bg-accent text-accent-ink ring-accent" : "text-ink-2 ring-line hover:bg-panel-2"}`}
          >
            {name} <span className="tabular-nums">({count})</span>
          </Link>
        );
      })}
    </nav>
  );
}

/** What each pointer names now: one card per pointer. */
export function PointersNow({ history }: { history: AgentPointerHistory }) {
  return (
    <div className="grid gap-3 md:grid-cols-3" data-testid="pointers-now">
      {history.pointers.map((p) => (
        <Card key={p.kind} title={POINTER_NAMES[p.kind]}>
          <div className="space-y-1 text-sm" data-testid={`pointer-now-${p.kind}`}>
            <div>
              <End end={p.target} />
            </div>
            {p.target && <div className="truncate font-mono text-xs text-ink-3" title={p.target.digest}>{p.target.digest}</div>}
            {p.movedAt && (
              <div className="text-xs text-ink-2">
                moved by {p.movedBy} · <Time at={p.movedAt} />
              </div>
            )}
          </div>
        </Card>
      ))}
    </div>
  );
}

/** Every move of the agent's pointers, newest first, one lane at a time when filtered. */
export function PointerHistory({ history, filter }: { history: AgentPointerHistory; filter: PointerKind | null }) {
  return (
    <Card id="pointer-history" title="Pointer history" description="Every move, newest first. Signed decisions and the canary guard's aborts are marked.">
      <Lanes history={history} filter={filter} />
      {history.moves.length === 0 ? (
        <div className="mt-3">
          <EmptyState title="No moves">{filter ? `The ${POINTER_NAMES[filter].toLowerCase()} pointer never moved.` : "No pointer of this agent has moved yet."}</EmptyState>
        </div>
      ) : (
        <ol className="mt-4" data-testid="pointer-moves">
          {history.moves.map((m, i) => (
            <li key={m.id} className="relative pb-4 pl-7 last:pb-0" data-testid="pointer-move" data-pointer={m.pointer} data-guard={m.guardAbort ? "true" : "false"} data-signed={m.decision ? "true" : "false"}>
              {i < history.moves.length - 1 && <span aria-hidden="true" className="absolute top-4 bottom-0 left-[0.4375rem] w-px bg-line" />}
              <span aria-hidden="true" className={`absolute top-1.5 left-0.5 h-2.5 w-2.5 rounded-full ring-4 ring-panel ${LANE_DOT[m.pointer]}`} />
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <Badge tone={POINTER_TONE[m.pointer]}>{POINTER_NAMES[m.pointer]}</Badge>
                <Marks move={m} />
                <Time at={m.at} className="text-xs text-ink-3" />
              </div>
              <p className="mt-1 flex flex-wrap items-center gap-x-1.5 text-sm break-words">
                <End end={m.from} />
                <ArrowRight className="h-3.5 w-3.5 text-ink-3" aria-label="to" />
                <End end={m.to} />
                <span className="text-ink-2">· by {m.by}</span>
              </p>
              <p className="mt-0.5 text-sm break-words text-ink-2" data-testid="pointer-move-reason">{m.reason}</p>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
