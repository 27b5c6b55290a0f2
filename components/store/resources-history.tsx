"use client";

// One resources id: its versions (paged, newest first) with a from/to picker, the diff between the two
// picked versions and the content of the newer one. Values of api_key-like keys are masked by the server.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Badge, type Tone } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { CopyId } from "@/components/ui/copy-id";
import { Pager } from "@/components/ui/data-table";
import { JsonView } from "@/components/ui/json-view";
import { useUrlState } from "@/components/ui/url-state";
import { Time } from "@/components/ui/time";

const PAGE = 10;
const CHANGE_TONE: Record<string, Tone> = { added: "pass", removed: "fail", changed: "warn" };

export function ResourcesHistory({ resourcesId, refetchInterval }: { resourcesId: string; refetchInterval: number | false }) {
  const trpc = useTRPC();
  const url = useUrlState();
  const voffset = Math.max(0, Number(url.get("voffset") ?? 0) || 0);
  const history = useQuery(trpc.store.listResourcesHistory.queryOptions({ resources_id: resourcesId, limit: PAGE, offset: voffset }, { placeholderData: keepPreviousData, refetchInterval }));
  const latest = voffset === 0 ? history.data?.items[0]?.version : undefined;
  const to = Number(url.get("to") ?? 0) || latest || 0;
  const from = Number(url.get("from") ?? 0) || Math.max(1, to - 1);
  const canDiff = to > 0 && from > 0 && from !== to;
  const diff = useQuery(trpc.store.diffResources.queryOptions({ resources_id: resourcesId, from_version: from, to_version: to }, { enabled: canDiff }));
  const content = useQuery(trpc.store.getResourcesVersion.queryOptions({ resources_id: resourcesId, version: to }, { enabled: to > 0 }));

  return (
    <div className="grid items-start gap-4 xl:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]">
      <Card title={<span>Versions of <span className="font-mono">{resourcesId}</span></span>} description="Pick the two versions to compare.">
        <table className="w-full text-left text-xs" data-testid="resources-versions">
          <thead className="text-ink-3">
            <tr>
              <th className="py-1 pr-2 font-medium">From</th>
              <th className="py-1 pr-2 font-medium">To</th>
              <th className="py-1 pr-2 font-medium">Version</th>
              <th className="py-1 pr-2 font-medium">Digest</th>
              <th className="py-1 font-medium">Created</th>
            </tr>
          </thead>
          <tbody>
            {history.data?.items.map((v) => (
              <tr key={v.version} className="border-t border-line">
                <td className="py-1.5 pr-2"><input type="radio" name="from" aria-label={`from v${v.version}`} checked={from === v.version} onChange={() => url.set({ from: v.version, to })} /></td>
                <td className="py-1.5 pr-2"><input type="radio" name="to" aria-label={`to v${v.version}`} checked={to === v.version} onChange={() => url.set({ to: v.version, from })} /></td>
                <td className="py-1.5 pr-2 font-medium">v{v.version}</td>
                <td className="py-1.5 pr-2"><CopyId value={v.digest} short={10} /></td>
                <td className="py-1.5 text-ink-3"><Time at={v.created_at} /></td>
              </tr>
            ))}
          </tbody>
        </table>
        {history.data && history.data.total > PAGE && <Pager offset={voffset} limit={PAGE} total={history.data.total} onChange={(o) => url.set({ voffset: o || null })} />}
      </Card>
      <div className="min-w-0 space-y-4">
        <Card
          title={canDiff ? `Diff v${from} → v${to}` : "Diff"}
          description={diff.data ? `${diff.data.entries.length} changed key${diff.data.entries.length === 1 ? "" : "s"}, ${diff.data.unchanged} unchanged. Secret values are masked; a change to one is still shown.` : undefined}
        >
          {!canDiff && <p className="text-sm text-ink-3">{to > 0 && history.data?.total === 1 ? "Only one version so far: nothing to compare." : "Pick two different versions."}</p>}
          {diff.error && <p role="alert" className="text-sm text-fail">{diff.error.message}</p>}
          {diff.data && diff.data.entries.length === 0 && <p className="text-sm text-ink-3">These versions have the same content (digest {diff.data.to.digest.slice(0, 12)}…).</p>}
          {diff.data && diff.data.entries.length > 0 && (
            <table className="w-full table-fixed text-left text-xs" data-testid="resources-diff">
              <thead className="text-ink-3">
                <tr>
                  <th className="w-[30%] py-1 pr-2 font-medium">Key</th>
                  <th className="w-24 py-1 pr-2 font-medium">Change</th>
                  <th className="py-1 pr-2 font-medium">v{from}</th>
                  <th className="py-1 font-medium">v{to}</th>
                </tr>
              </thead>
              <tbody className="font-mono">
                {diff.data.entries.map((e) => (
                  <tr key={e.path} className="border-t border-line align-top" data-testid="diff-row">
                    <td className="py-1.5 pr-2 break-all text-ink">{e.path}</td>
                    <td className="py-1.5 pr-2 font-sans"><Badge tone={CHANGE_TONE[e.change]}>{e.change}</Badge></td>
                    <td className="py-1.5 pr-2 break-all text-fail">{e.before !== undefined && <span className="rounded bg-fail/10 px-1">{e.before}</span>}</td>
                    <td className="py-1.5 break-all text-pass">{e.after !== undefined && <span className="rounded bg-pass/10 px-1">{e.after}</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Card>
        {content.data && (
          <Card title={`Content of v${to}`} description={`digest ${content.data.digest}`}>
            <JsonView value={content.data.resources} collapsedAfter={60} />
          </Card>
        )}
      </div>
    </div>
  );
}
