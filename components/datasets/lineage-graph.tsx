// A snapshot's lineage left to right: the evidence it was made from (rollouts, feedback, named sources),
// the snapshots it derives from (oldest first), the snapshot itself, and what derives from it as a tree.
import type { ReactNode } from "react";
import Link from "next/link";
import { ArrowRight } from "lucide-react";
import { Badge } from "@/components/ui/badge";

type Meta = { id: string; name: string; version: number; recordCount: number; lineage: { rollouts: string[]; feedback: string[]; sources: string[]; pipeline: { step: string; params: Record<string, unknown> }[] } };
export type LineageNode = Meta & { children: LineageNode[] };

function SnapshotBox({ s, current = false }: { s: Meta; current?: boolean }) {
  const last = s.lineage.pipeline.at(-1);
  return (
    <div className={`rounded-md border px-3 py-2 text-sm ${current ? "border-accent bg-accent/10" : "border-line bg-panel"}`}>
      {current ? <div className="font-medium text-ink">{s.name} v{s.version}</div> : <Link href={`/datasets/${s.id}`} className="font-medium text-ink hover:text-accent">{s.name} v{s.version}</Link>}
      <div className="text-xs text-ink-3">
        {s.recordCount.toLocaleString("en")} records{last ? ` · ${last.step === "split" ? `split: ${String(last.params.part)}` : last.step}` : ""}
      </div>
    </div>
  );
}

function Tree({ nodes }: { nodes: LineageNode[] }) {
  return (
    <ul className="space-y-2">
      {nodes.map((n) => (
        <li key={n.id}>
          <SnapshotBox s={n} />
          {n.children.length > 0 && (
            <div className="mt-2 ml-4 border-l border-line pl-3">
              <Tree nodes={n.children} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

function Column({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-48 flex-1 space-y-2" data-testid={testId}>
      <div className="text-xs font-medium tracking-wide text-ink-3 uppercase">{title}</div>
      {children}
    </div>
  );
}

const Arrow = () => <ArrowRight className="mt-8 h-4 w-4 shrink-0 text-ink-3" aria-hidden />;

function IdList({ label, ids }: { label: string; ids: string[] }) {
  if (ids.length === 0) return null;
  return (
    <div className="rounded-md border border-line bg-panel px-3 py-2 text-sm">
      <div className="text-xs text-ink-3">{ids.length} {label}</div>
      <div className="mt-1 flex flex-wrap gap-1">
        {ids.slice(0, 8).map((id) => <Badge key={id}>{id}</Badge>)}
        {ids.length > 8 && <span className="text-xs text-ink-3">+{ids.length - 8} more</span>}
      </div>
    </div>
  );
}

export function LineageGraph({ snapshot, ancestors, descendants }: { snapshot: Meta; ancestors: Meta[]; descendants: LineageNode[] }) {
  // Evidence is named by the oldest snapshot in the chain that carried it; show the union.
  const all = [snapshot, ...ancestors];
  const uniq = (xs: string[]) => [...new Set(xs)].sort();
  const rollouts = uniq(all.flatMap((s) => s.lineage.rollouts));
  const feedback = uniq(all.flatMap((s) => s.lineage.feedback));
  const sources = uniq(all.flatMap((s) => s.lineage.sources));
  return (
    <div className="flex flex-wrap items-start gap-3 lg:flex-nowrap">
      <Column title="Evidence" testId="lineage-evidence">
        <IdList label="rollouts" ids={rollouts} />
        <IdList label="feedback" ids={feedback} />
        {sources.length > 0 && <div className="rounded-md border border-line bg-panel px-3 py-2 text-sm text-ink-2">sources: {sources.join(", ")}</div>}
        {rollouts.length + feedback.length + sources.length === 0 && <div className="text-sm text-ink-3">none recorded</div>}
      </Column>
      <Arrow />
      <Column title={`Parents (${ancestors.length})`} testId="lineage-parents">
        {ancestors.length ? [...ancestors].reverse().map((a) => <SnapshotBox key={a.id} s={a} />) : <div className="text-sm text-ink-3">none: made directly from evidence</div>}
      </Column>
      <Arrow />
      <Column title="This snapshot">
        <SnapshotBox s={snapshot} current />
      </Column>
      <Arrow />
      <Column title={`Derived (${countNodes(descendants)})`} testId="lineage-children">
        {descendants.length ? <Tree nodes={descendants} /> : <div className="text-sm text-ink-3">nothing derives from it yet</div>}
      </Column>
    </div>
  );
}

function countNodes(nodes: LineageNode[]): number {
  return nodes.reduce((a, n) => a + 1 + countNodes(n.children), 0);
}
