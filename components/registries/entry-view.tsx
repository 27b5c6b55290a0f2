"use client";

// One registry record or exam: its versions (per agent), a key-by-key diff between the two picked in the URL
// (?agent=&a=&b=, so a diff is a link to share), the content of the newer, and — for policy owners — the
// publish form with its preview of what goes stale.
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { CopyId } from "@/components/ui/copy-id";
import { Alert } from "@/components/ui/form";
import { JsonView } from "@/components/ui/json-view";
import { PageHeader } from "@/components/ui/page-header";
import { Time } from "@/components/ui/time";
import { useUrlState } from "@/components/ui/url-state";
import { isDatasetKind, KIND_INFO, type AreaKind } from "@/lib/registries/kinds";
import { DiffTable } from "./diff-table";
import { CASES_TEMPLATE, PublishForm } from "./publish-form";

export function RegistryEntryView({ kind, name }: { kind: AreaKind; name: string }) {
  const trpc = useTRPC();
  const url = useUrlState();
  const entry = useQuery(trpc.registries.entry.queryOptions({ kind, name }));
  const dataset = isDatasetKind(kind);
  const agents = entry.data?.agents ?? [];
  const agent = url.get("agent") && agents.includes(url.get("agent")!) ? url.get("agent")! : (agents.find((a) => a !== "*") ?? agents[0] ?? "*");
  const versions = (entry.data?.versions ?? []).filter((v) => v.agent === agent);
  const b = url.get("b") ?? versions[0]?.version ?? "";
  const a = url.get("a") ?? versions.find((v) => v.version !== b)?.version ?? b;
  const canDiff = !!a && !!b && a !== b;
  const diff = useQuery(trpc.registries.diff.queryOptions({ kind, name, agent, a: canDiff ? a : b, b }, { enabled: !!b }));
  const current = versions.find((v) => v.current);
  const currentBody = useQuery(trpc.registries.diff.queryOptions({ kind, name, agent, a: current?.version ?? "", b: current?.version ?? "" }, { enabled: !!current && !dataset }));
  const info = KIND_INFO[kind];

  if (entry.error) return <Alert tone="fail">{entry.error.message}</Alert>;
  if (!entry.data) return <div className="text-sm text-ink-3">Loading…</div>;
  return (
    <>
      <PageHeader
        eyebrow={<Link href={`/registries#${kind}`} className="hover:underline">← Registries · {info.plural}</Link>}
        title={<span className="break-all" data-testid="registry-title">{name}</span>}
        description={info.about}
      />
      {agents.length > 1 && (
        <nav aria-label="Agent" className="mb-4 flex flex-wrap gap-2">
          {agents.map((x) => (
            <button key={x} type="button" onClick={() => url.set({ agent: x, a: null, b: null })} aria-pressed={x === agent} className={`rounded-md px-2.5 py-1 text-sm ring-1 ring-line ${x === agent ? "bg-accent/10 font-medium text-accent" : "text-ink-2 hover:bg-panel-2"}`}>
              {x === "*" ? "every agent (*)" : x}
            </button>
          ))}
        </nav>
      )}
      <div className="grid items-start gap-4 xl:grid-cols-[minmax(0,28rem)_minmax(0,1fr)]">
        <Card title="Versions" description={`${dataset ? "Newest is the one new runs pin." : `For ${agent === "*" ? "every agent" : agent}; the newest is in force.`} Pick two to compare.`}>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-xs" data-testid="registry-versions">
              <thead className="text-ink-3">
                <tr>
                  <th className="py-1 pr-2 font-medium">A</th>
                  <th className="py-1 pr-2 font-medium">B</th>
                  <th className="py-1 pr-2 font-medium">Version</th>
                  <th className="py-1 pr-2 font-medium">Digest</th>
                  <th className="py-1 font-medium">Published</th>
                </tr>
              </thead>
              <tbody>
                {versions.map((v) => (
                  <tr key={v.version} className="border-t border-line align-top">
                    <td className="py-1.5 pr-2"><input type="radio" name="a" aria-label={`compare from v${v.version}`} checked={a === v.version} onChange={() => url.set({ agent, a: v.version, b })} /></td>
                    <td className="py-1.5 pr-2"><input type="radio" name="b" aria-label={`compare to v${v.version}`} checked={b === v.version} onChange={() => url.set({ agent, a, b: v.version })} /></td>
                    <td className="py-1.5 pr-2 font-medium whitespace-nowrap">v{v.version} {v.current && <Badge tone="accent">current</Badge>}</td>
                    <td className="py-1.5 pr-2"><CopyId value={v.datasetId ?? v.digest} short={12} />{v.caseCount !== null && <div className="text-ink-3">{v.caseCount} cases</div>}</td>
                    <td className="py-1.5 text-ink-3"><Time at={v.createdAt} /><div>by {v.createdBy}</div></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
        <div className="min-w-0 space-y-4">
          <Card
            title={canDiff ? `Diff v${a} → v${b}` : "Diff"}
            description={diff.data && canDiff ? `${diff.data.changed} changed key${diff.data.changed === 1 ? "" : "s"}, ${diff.data.unchanged} unchanged${dataset ? " (keyed by case id)" : ""}. Secret values are masked; a change to one is still shown.` : undefined}
          >
            {!canDiff && <p className="text-sm text-ink-3">{versions.length < 2 ? "Only one version so far: nothing to compare." : "Pick two different versions."}</p>}
            {diff.error && <Alert tone="fail">{diff.error.message}</Alert>}
            {canDiff && diff.data && diff.data.entries.length === 0 && <p className="text-sm text-ink-3">Same content (digest {diff.data.b.digest.slice(0, 19)}…).</p>}
            {canDiff && diff.data && diff.data.entries.length > 0 && <DiffTable entries={diff.data.entries} a={`v${a}`} b={`v${b}`} testId="registry-diff" />}
            {canDiff && diff.data && diff.data.changed > diff.data.entries.length && <p className="mt-2 text-xs text-ink-3">The first {diff.data.entries.length} of {diff.data.changed} changed keys.</p>}
          </Card>
          {diff.data && (
            <Card title={`Content of v${b}`} description={dataset ? "The first cases, by id." : <span className="break-all">digest {diff.data.b.digest}</span>}>
              <JsonView value={diff.data.content} collapsedAfter={40} />
            </Card>
          )}
        </div>
      </div>
      <div className="mt-4">
        <Card title="Publish a new version" description={dataset ? "Paste or load the cases. Publishing appends a version; nothing published is ever changed." : "Edit the current body. Publishing appends a version; nothing published is ever changed."}>
          {(dataset || currentBody.data || !current) && (
            <PublishForm
              key={`${agent}-${current?.version ?? ""}`}
              kind={kind}
              name={name}
              agent={agent}
              initialText={dataset ? CASES_TEMPLATE : JSON.stringify(currentBody.data?.content ?? {}, null, 2)}
              onPublished={(p) => url.set({ agent: p.agent, a: current?.version ?? null, b: p.version })}
            />
          )}
        </Card>
      </div>
    </>
  );
}
