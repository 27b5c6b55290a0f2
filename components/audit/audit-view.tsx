"use client";

// The audit chain, newest first, with a banner saying whether it verifies and where it breaks.
import { Fragment, useState } from "react";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { CheckCircle2, CircleAlert } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { ScrollX } from "@/components/ui/scroll-x";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/form";
import { EmptyState } from "@/components/ui/empty-state";
import { Time } from "@/components/ui/time";

function roles(text: string): string {
  try {
    const grants = JSON.parse(text) as { role: string; agent: string | null }[];
    return grants.map((g) => `${g.role}${g.agent ? `@${g.agent}` : ""}`).join(", ") || "—";
  } catch {
    return text;
  }
}

/** One line saying what changed, from the row's after/before (e.g. the person's email, the role granted). */
function summary(after: string | null, before: string | null): string {
  try {
    const a = (after ? JSON.parse(after) : before ? JSON.parse(before) : {}) as Record<string, unknown>;
    const grant = (a.granted ?? a.revoked) as { role?: string; agent?: string | null } | undefined;
    if (grant?.role) return `${a.granted ? "+" : "−"} ${grant.role}${grant.agent ? `@${grant.agent}` : ""}`;
    return String(a.email ?? a.name ?? "");
  } catch {
    return "";
  }
}

function pretty(text: string | null): string {
  if (!text) return "—";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function AuditView() {
  const trpc = useTRPC();
  const verdict = useQuery(trpc.audit.verify.queryOptions(undefined, { refetchInterval: 30_000 }));
  const pages = useInfiniteQuery(trpc.audit.list.infiniteQueryOptions({ limit: 50 }, { getNextPageParam: (last) => last.nextCursor }));
  const [open, setOpen] = useState<string | null>(null);
  const rows = pages.data?.pages.flatMap((p) => p.rows) ?? [];
  const total = pages.data?.pages[0]?.total ?? 0;
  const brokenSeq = verdict.data?.firstBreak?.seq;

  return (
    <div className="space-y-4">
      {verdict.data && (
        <div
          data-testid="audit-banner"
          className={`flex items-start gap-3 rounded-lg border px-4 py-3 ${verdict.data.ok ? "border-pass/30 bg-pass/10 text-pass" : "border-fail/30 bg-fail/10 text-fail"}`}
        >
          {verdict.data.ok ? <CheckCircle2 className="mt-0.5 h-5 w-5" /> : <CircleAlert className="mt-0.5 h-5 w-5" />}
          <div>
            <div className="font-medium">
              {verdict.data.ok
                ? `Chain verified — ${verdict.data.rows} rows, every hash links to the one before`
                : `Chain broken at row ${verdict.data.firstBreak?.seq}: ${verdict.data.firstBreak?.detail}`}
            </div>
            {!verdict.data.ok && verdict.data.firstBreak && (
              <div className="mt-0.5 text-sm opacity-90">
                {verdict.data.firstBreak.seq > 1 ? `Rows 1–${verdict.data.firstBreak.seq - 1} verify; ` : ""}rows from {verdict.data.firstBreak.seq} on cannot be trusted. Run <code className="font-mono">npm run audit:verify</code> on the server for details.
              </div>
            )}
            {verdict.data.head && (
              <div className="mt-0.5 font-mono text-xs break-all">head #{verdict.data.head.seq} {verdict.data.head.hash}</div>
            )}
          </div>
        </div>
      )}
      <Card title="Events" description={`${total} rows, newest first. Each row's hash covers its content and the previous row's hash.`}>
        {pages.data && rows.length === 0 && <EmptyState title="The audit log is empty" />}
        {rows.length > 0 && (
          <ScrollX label="audit events">
            <table className="w-full text-left text-sm" data-testid="audit-table">
              <thead className="text-xs text-ink-3">
                <tr className="border-b border-line">
                  <th className="py-2 pr-3 font-medium">#</th>
                  <th className="py-2 pr-3 font-medium">When</th>
                  <th className="py-2 pr-3 font-medium">Who</th>
                  <th className="py-2 pr-3 font-medium">Action</th>
                  <th className="py-2 pr-3 font-medium">Target</th>
                  <th className="py-2 font-medium">Hash</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <Fragment key={r.id}>
                    <tr
                      onClick={() => setOpen(open === r.id ? null : r.id)}
                      className={`cursor-pointer border-b border-line align-top hover:bg-panel-2 ${r.seq === brokenSeq ? "bg-fail/10" : ""}`}
                      data-testid="audit-row"
                    >
                      <td className="py-2 pr-3 tabular-nums text-ink-3">{r.seq}</td>
                      <td className="py-2 pr-3 whitespace-nowrap text-ink-2"><Time at={r.at} /></td>
                      <td className="py-2 pr-3">
                        <div className="text-ink">{r.actorName}</div>
                        <div className="text-xs text-ink-3">{r.actorKind} · {roles(r.actorRoles)}</div>
                      </td>
                      <td className="py-2 pr-3"><Badge tone={r.seq === brokenSeq ? "fail" : "neutral"}>{r.action}</Badge></td>
                      <td className="py-2 pr-3">
                        <div className="font-mono text-xs text-ink-2">{r.targetType}:{r.targetId}</div>
                        <div className="text-xs text-ink-3">{summary(r.after, r.before)}</div>
                      </td>
                      <td className="py-2 font-mono text-xs text-ink-3" title={`hash ${r.hash}\nprev ${r.prevHash}`}>{r.hash.slice(0, 12)}</td>
                    </tr>
                    {open === r.id && (
                      <tr className="border-b border-line bg-panel-2/50">
                        <td colSpan={6} className="px-3 py-3">
                          <div className="grid gap-3 md:grid-cols-2">
                            <pre className="overflow-x-auto rounded bg-panel p-2 text-xs text-ink-2"><b>before</b>{"\n"}{pretty(r.before)}</pre>
                            <pre className="overflow-x-auto rounded bg-panel p-2 text-xs text-ink-2"><b>after</b>{"\n"}{pretty(r.after)}</pre>
                          </div>
                          <div className="mt-2 font-mono text-[11px] break-all text-ink-3">hash {r.hash} · prev {r.prevHash}</div>
                        </td>
                      </tr>
                    )}
                  </Fragment>
                ))}
              </tbody>
            </table>
          </ScrollX>
        )}
        {pages.hasNextPage && (
          <div className="mt-3 flex justify-center">
            <Button variant="secondary" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
              {pages.isFetchingNextPage ? "Loading…" : "Older events"}
            </Button>
          </div>
        )}
      </Card>
    </div>
  );
}
