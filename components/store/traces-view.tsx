"use client";

// Traces of one rollout (all attempts, one attempt or the latest) as a tree/waterfall or a table, with the
// selected span's details beside it. Everything that defines the view is in the URL: rollout, attempt,
// view, span (and the table's name filter and page).
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import { Stat } from "@/components/ui/stat";
import { useTRPC } from "@/components/trpc/react";
import { CopyId } from "@/components/ui/copy-id";
import { Select } from "@/components/ui/form";
import { useUrlState } from "@/components/ui/url-state";
import { LiveRefresh, useLive } from "./live-refresh";
import { RolloutPicker } from "./rollout-picker";
import { SpanDetail } from "./span-detail";
import { SpanTable } from "./span-table";
import { SpanWaterfall } from "./span-waterfall";
import { ModeBadge, REASON_LABEL, StatusBadge } from "./status";
import { useDebouncedUrlParam } from "./use-debounced-url";

/** Spans outlined per request; a rollout beyond this shows its first spans and says so. */
const OUTLINE_LIMIT = 5000;

export function TracesView() {
  const url = useUrlState();
  const rolloutId = url.get("rollout");
  if (!rolloutId) return <RolloutPicker />;
  return <RolloutTraces rolloutId={rolloutId} />;
}

function RolloutTraces({ rolloutId }: { rolloutId: string }) {
  const trpc = useTRPC();
  const url = useUrlState();
  const live = useLive();
  const attemptId = url.get("attempt") ?? undefined;
  const view = url.get("view") === "table" ? "table" : "tree";
  const selected = url.get("span");
  const offset = Math.max(0, Number(url.get("soffset") ?? 0) || 0);
  const [name, setName] = useDebouncedUrlParam("name", { soffset: null });

  const rollout = useQuery(trpc.store.listRollouts.queryOptions({ rollout_id_in: [rolloutId], limit: 1 }, { refetchInterval: live.refetchInterval }));
  const attempts = useQuery(trpc.store.listAttempts.queryOptions({ rollout_id: rolloutId, limit: 100, sort_order: "asc" }, { refetchInterval: live.refetchInterval }));
  const outline = useQuery(
    trpc.store.querySpanOutline.queryOptions({ rollout_id: rolloutId, attempt_id: attemptId, limit: OUTLINE_LIMIT }, { refetchInterval: live.refetchInterval, enabled: view === "tree" }),
  );
  const r = rollout.data?.items.find((x) => x.rollout_id === rolloutId);
  const sel = selected && selected.includes("/") ? { attempt: selected.slice(0, selected.lastIndexOf("/")), span: selected.slice(selected.lastIndexOf("/") + 1) } : null;
  const main = view === "tree" ? outline : rollout;
  const attemptLabels = new Map((attempts.data?.items ?? []).map((a) => [a.attempt_id, `#${a.sequence_id} ${REASON_LABEL[a.reason] ?? a.reason}`]));

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-line bg-panel px-4 py-3">
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <Link href="/traces" className="inline-flex items-center gap-1 text-xs text-ink-3 hover:text-ink"><ArrowLeft className="h-3.5 w-3.5" /> all rollouts</Link>
          <span className="text-ink-3">Rollout</span>
          <CopyId value={rolloutId} short={24} />
          {r && <StatusBadge status={r.status} />}
          {r && <ModeBadge mode={r.mode} />}
          {rollout.data && !r && <span className="text-xs text-fail">not in the store</span>}
        </div>
        <LiveRefresh updatedAt={main.dataUpdatedAt} fetching={main.isFetching} onRefresh={() => void Promise.all([outline.refetch(), rollout.refetch(), attempts.refetch()])} />
      </div>
      <TraceSummaryStrip rolloutId={rolloutId} attemptId={attemptId === "latest" ? (attempts.data?.items.at(-1)?.attempt_id ?? undefined) : attemptId} labels={attemptLabels} refetchInterval={live.refetchInterval} />
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-xs text-ink-3">
          Attempt
          <Select aria-label="attempt" value={attemptId ?? ""} onChange={(e) => url.set({ attempt: e.target.value || null, span: null, soffset: null })} className="mt-1 min-w-64 py-1.5">
            <option value="">All attempts</option>
            <option value="latest">Latest attempt</option>
            {attempts.data?.items.map((a) => (
              <option key={a.attempt_id} value={a.attempt_id}>
                #{a.sequence_id} · {REASON_LABEL[a.reason] ?? a.reason} · {a.status}
              </option>
            ))}
          </Select>
        </label>
        <div role="tablist" aria-label="view" className="inline-flex overflow-hidden rounded-md border border-line bg-panel text-xs">
          {(["tree", "table"] as const).map((v) => (
            <button key={v} type="button" role="tab" aria-selected={view === v} onClick={() => url.set({ view: v === "tree" ? null : v })} className={`px-3 py-1.5 font-medium ${view === v ? "bg-accent/15 text-accent" : "text-ink-2 hover:text-ink"}`}>
              {v === "tree" ? "Tree & waterfall" : "Table"}
            </button>
          ))}
        </div>
        {view === "table" && (
          <label className="text-xs text-ink-3">
            Name contains
            <input aria-label="span name filter" value={name} onChange={(e) => setName(e.target.value)} className="mt-1 block rounded-md border border-line bg-panel px-2 py-1.5 text-sm text-ink" />
          </label>
        )}
      </div>
      <div className={sel ? "grid items-start gap-4 xl:grid-cols-[minmax(0,1fr)_26rem]" : ""}>
        <div className="min-w-0">
          {view === "tree" ? (
            <>
              {outline.error && <p role="alert" className="text-sm text-fail">{outline.error.message}</p>}
              {outline.isLoading && <p className="text-sm text-ink-3">Loading spans…</p>}
              {outline.data && outline.data.items.length === 0 && <p className="rounded-lg border border-dashed border-line bg-panel px-4 py-10 text-center text-sm text-ink-3">No spans recorded for this {attemptId ? "attempt" : "rollout"} yet.</p>}
              {outline.data && outline.data.items.length > 0 && <SpanWaterfall spans={outline.data.items} selected={selected} onSelect={(k) => url.set({ span: k })} attemptLabels={attemptId ? undefined : attemptLabels} />}
              {outline.data && outline.data.total > outline.data.items.length && (
                <p className="mt-2 text-xs text-warn">Showing the first {outline.data.items.length.toLocaleString("en")} of {outline.data.total.toLocaleString("en")} spans; pick one attempt or use the table to page through all.</p>
              )}
            </>
          ) : (
            <SpanTable rolloutId={rolloutId} attemptId={attemptId} attemptLabels={attemptId ? undefined : attemptLabels} name={url.get("name") ?? ""} offset={offset} onOffset={(o) => url.set({ soffset: o || null })} selected={selected} onSelect={(k) => url.set({ span: k })} refetchInterval={live.refetchInterval} />
          )}
        </div>
        {sel && <SpanDetail rolloutId={rolloutId} attemptId={sel.attempt} spanId={sel.span} onClose={() => url.set({ span: null })} />}
      </div>
    </div>
  );
}

/** Reward, tokens, cost, spans and errors of the attempt shown (or of every attempt), Langfuse-style. */
function TraceSummaryStrip({ rolloutId, attemptId, labels, refetchInterval }: { rolloutId: string; attemptId?: string; labels: Map<string, string>; refetchInterval: number | false }) {
  const trpc = useTRPC();
  const summary = useQuery(trpc.store.getTraceSummary.queryOptions({ rollout_id: rolloutId }, { refetchInterval }));
  if (!summary.data || summary.data.attempts.length === 0) return null;
  const shown = attemptId ? summary.data.attempts.filter((a) => a.attemptId === attemptId) : summary.data.attempts;
  const sum = (f: (a: (typeof shown)[number]) => number) => shown.reduce((t, a) => t + f(a), 0);
  const last = shown.at(-1);
  const costs = shown.map((a) => a.costUsd);
  const cost = costs.every((c) => c === null) ? null : costs.reduce<number>((t, c) => t + (c ?? 0), 0);
  const pricing = { span: "from the spans' cost attributes", model_server: "priced by the model server's published pricing", none: "no span carries a cost and no single model-server price is published" }[summary.data.pricing];
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-5" data-testid="trace-summary">
      <Stat label={attemptId ? "Final reward" : "Final reward (latest attempt)"} value={last?.reward === null || last?.reward === undefined ? "—" : last.reward.toFixed(3)} hint={last ? labels.get(last.attemptId) ?? last.attemptId : undefined} />
      <Stat label="Tokens in / out" value={`${sum((a) => a.inputTokens).toLocaleString("en")} / ${sum((a) => a.outputTokens).toLocaleString("en")}`} />
      <Stat label="Cost" value={cost === null ? "—" : `$${cost.toFixed(4)}`} hint={pricing} />
      <Stat label="Spans" value={sum((a) => a.spans).toLocaleString("en")} hint={summary.data.complete ? `${shown.length} attempt${shown.length === 1 ? "" : "s"}` : "the first 20,000 read"} />
      <Stat label="Error spans" value={sum((a) => a.errorSpans)} tone={sum((a) => a.errorSpans) > 0 ? "fail" : undefined} hint="status ERROR" />
    </div>
  );
}
