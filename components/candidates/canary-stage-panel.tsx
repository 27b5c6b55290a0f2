"use client";

// The canary stage, live (Argo Rollouts' step view): what is in canary now, tasks done of those the boundary
// allows, time left, cost so far, verifications so far — and, once it ended, how: closed inside the boundary
// (the default step is next), or aborted with the canary pointer back on the exact parent and why.
import { useEffect, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Badge, type Tone } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Time } from "@/components/ui/time";

const RUNNING = new Set(["queued", "running"]);
/** What a running stage is doing, in words (the run's phases: gate-run/step.ts). */
const PHASE_LABELS: Record<string, string> = {
  queued: "queued",
  collecting: "probing the exact parent",
  canary: "serving the candidate",
  verifying: "waiting for verifications",
  judging: "sealing the stage",
};

function useNow(active: boolean) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [active]);
  return now;
}

function Meter({ label, value, max, testId }: { label: string; value: number; max: number; testId: string }) {
  const pct = max > 0 ? Math.min(100, (value / max) * 100) : 0;
  return (
    <div className="min-w-0">
      <div className="flex justify-between gap-2 text-xs text-ink-3">
        <span>{label}</span>
        <span className="tabular-nums text-ink" data-testid={testId}>
          {value} / {max}
        </span>
      </div>
      <div className="mt-1 h-1.5 rounded bg-line" role="progressbar" aria-label={label} aria-valuenow={value} aria-valuemin={0} aria-valuemax={max}>
        <div className="h-1.5 rounded bg-accent" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

export function CanaryStagePanel({ candidateId }: { candidateId: string }) {
  const trpc = useTRPC();
  const client = useQueryClient();
  const q = useQuery({ ...trpc.candidates.canaryStage.queryOptions({ candidateId }), refetchInterval: (query) => (query.state.data && RUNNING.has(query.state.data.status) ? 1500 : false) });
  const live = q.data ?? null;
  const running = !!live && RUNNING.has(live.status);
  const now = useNow(running);
  // When the stage ends its link is sealed: the verdict, the checks and the approval panel change with it.
  const was = useRef<string | null>(null);
  useEffect(() => {
    if (was.current && live && was.current !== live.status && !RUNNING.has(live.status)) {
      void client.invalidateQueries({ queryKey: trpc.candidates.get.queryKey({ id: candidateId }) });
      void client.invalidateQueries({ queryKey: trpc.approvals.panel.queryKey({ candidateId }) });
    }
    was.current = live?.status ?? null;
  }, [live, client, trpc, candidateId]);
  if (!live) return null;

  const aborted = live.stop?.kind === "breach" || live.stop?.kind === "rolled_back";
  const [tone, label]: [Tone, string] = running ? ["warn", PHASE_LABELS[live.phase] ?? live.phase] : live.status === "failed" ? ["fail", "failed"] : aborted ? ["fail", "aborted"] : ["pass", "closed"];
  // Two clocks, never mixed: the gate run's deadline for results, and the boundary's own wall-time limit.
  const left = live.deadlineAt && running && live.phase === "canary" ? Math.max(0, Math.round((Date.parse(live.deadlineAt) - now) / 1000)) : null;
  const began = live.window?.start ?? live.startedAt;
  const used = began && running ? Math.max(0, Math.round((now - Date.parse(began)) / 1000)) : null;
  return (
    <Card
      id="canary-stage"
      title="Canary stage"
      description={<>After the canary-step approval, runners serve the candidate inside the boundary; the stage closes at its tasks or time, or aborts at the first breach.</>}
    >
      <div className="space-y-3" data-testid="canary-stage-panel" data-status={live.status}>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <Badge tone={tone}>{label}</Badge>
          {live.canaryPointer && (
            <span className="text-ink-2" data-testid="canary-pointer">
              In canary now: <b className="break-all">{live.canaryPointer.resourcesId} v{live.canaryPointer.version}</b>
              {live.canaryPointer.isCandidate ? " (this candidate)" : " (not this candidate)"}
            </span>
          )}
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <Meter label="Tasks done" value={live.tasks.finished} max={live.boundary.maxTasks} testId="canary-stage-tasks" />
          <Meter label="Verified" value={live.tasks.verified} max={live.tasks.finished} testId="canary-stage-verified" />
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
          <dt className="text-ink-3">Cost so far</dt>
          <dd className="tabular-nums">
            ${live.costUsd.toFixed(2)} of ${live.boundary.maxCostUsd.toFixed(2)}
          </dd>
          <dt className="text-ink-3">Boundary time</dt>
          <dd className="tabular-nums" data-testid="canary-boundary-time">
            {used === null ? `limit ${live.boundary.maxWallTimeSeconds} s` : `${Math.min(used, live.boundary.maxWallTimeSeconds)} s used of ${live.boundary.maxWallTimeSeconds} s`}
          </dd>
          <dt className="text-ink-3">Run deadline</dt>
          <dd className="tabular-nums" data-testid="canary-run-deadline">
            {left === null ? "—" : `${left} s left for results`}
          </dd>
          <dt className="text-ink-3">Started</dt>
          <dd>
            <Time at={live.window?.start ?? live.startedAt} />
          </dd>
          <dt className="text-ink-3">Ended</dt>
          <dd>{running ? "—" : <Time at={live.finishedAt} />}</dd>
        </dl>
        {live.tasks.notCounted > 0 && (
          <p className="rounded border border-fail/40 bg-fail/5 px-3 py-2 text-sm" data-testid="canary-stage-not-counted">
            <b>{live.tasks.notCounted} not counted:</b> {live.notCountedReason}.
          </p>
        )}
        {live.stop && (
          <p className={`rounded border px-3 py-2 text-sm ${aborted ? "border-fail/40 bg-fail/5" : "border-line"}`} data-testid="canary-stage-stop">
            <b>{aborted ? "Aborted" : "Stopped"}:</b> {live.stop.reason}. {live.abort && <span data-testid="canary-stage-abort">{live.abort.detail}.</span>}
          </p>
        )}
        {live.error && <p className="text-sm text-fail">The stage failed: {live.error}</p>}
        {!running && !aborted && live.status === "done" && <p className="text-sm text-ink-2">The stage is sealed on the receipt; checks 6–7 are re-judged on it below, and the default step is next.</p>}
      </div>
    </Card>
  );
}
