"use client";

// One training run, live (the training monitor): name and tags, reward curves (raw + debiased-EMA smoothed;
// training batches and the trainer's validation split, against the exact parent's level there), PPO diagnostics,
// stop conditions, progress with the ETA and its range, span coverage and retry debt so far (over its budget in
// the fail tone), status with how it ended or paused ("stopped by … at …" apart from "finished"),
// the controls the viewer's scopes allow, checkpoints (restore), the candidates it produced and what happened.
// Polls every second while the run is queued or running.
import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Pause, Play, Square } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { useCan } from "@/components/auth/me-provider";
import { NotAllowedNote } from "@/components/auth/not-allowed";
import { CurveChart } from "@/components/charts/curve-chart";
import { Card } from "@/components/ui/card";
import { CopyId } from "@/components/ui/copy-id";
import { Alert, Button } from "@/components/ui/form";
import { JsonView } from "@/components/ui/json-view";
import { Stat } from "@/components/ui/stat";
import { percent, relativeTime, shortDigest, timestamp } from "@/components/ui/format";
import { Checkpoints, Diagnostics, RunLabels, StopConditions } from "./run-monitor";
import { HealthBadges, RetryDebt, RunProgress, RunStatusBadge, RunStatusLine } from "./run-status";

import { runStatusLine } from "@/lib/training/run-status";

const LIVE = new Set(["queued", "running"]);
const ENDED = new Set(["finished", "stopped", "failed"]);
/** Conditions that end a run by themselves; the update budget is plain "finished", a stop by hand is said by name. */
const NOT_A_FAMILY_RULE = new Set(["max-updates", "manual", "pace"]);

function Controls({ runId, status, agent }: { runId: string; status: string; agent: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const canRun = useCan("training:run", agent);
  const done = () => qc.invalidateQueries({ queryKey: trpc.trainers.getRun.queryKey({ runId }) });
  const pause = useMutation(trpc.trainers.pauseRun.mutationOptions({ onSuccess: done }));
  const resume = useMutation(trpc.trainers.resumeRun.mutationOptions({ onSuccess: done }));
  const stop = useMutation(trpc.trainers.stopRun.mutationOptions({ onSuccess: done }));
  const error = pause.error ?? resume.error ?? stop.error;
  if (!canRun) return ENDED.has(status) ? null : <NotAllowedNote subject="Pausing, resuming or stopping a run" scope="training:run" />;
  const busy = pause.isPending || resume.isPending || stop.isPending;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {(status === "running" || status === "queued") && (
        <Button variant="secondary" disabled={busy} onClick={() => pause.mutate({ runId })}>
          <Pause className="mr-1 inline h-4 w-4" /> Pause
        </Button>
      )}
      {status === "paused" && (
        <Button disabled={busy} onClick={() => resume.mutate({ runId })}>
          <Play className="mr-1 inline h-4 w-4" /> Resume
        </Button>
      )}
      {!ENDED.has(status) && (
        <Button variant="danger" disabled={busy} onClick={() => stop.mutate({ runId })}>
          <Square className="mr-1 inline h-4 w-4" /> Stop
        </Button>
      )}
      {error && <span className="text-xs text-fail">{error.message}</span>}
    </div>
  );
}

export function RunDetail({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.trainers.getRun.queryOptions({ runId }, { refetchInterval: (s) => (s.state.data && !LIVE.has(s.state.data.status) ? 10_000 : 1_000) }));
  if (q.isLoading) return <p className="text-sm text-ink-3">Loading…</p>;
  if (q.error) return <Alert tone="fail">{q.error.message}</Alert>;
  const run = q.data!;
  const training = run.curve.flatMap((p) => (p.meanReward === null ? [] : [{ x: p.update, y: p.meanReward }]));
  const heldOut = run.curve.flatMap((p) => (p.heldOutReward === null ? [] : [{ x: p.update, y: p.heldOutReward }]));
  const ev = run.evidence;
  const endedBy = run.stopConditions.find((c) => c.state === "ended" && !NOT_A_FAMILY_RULE.has(c.id))?.label ?? null;
  return (
    <div className="space-y-4">
      <Card>
        <div className="mb-3">
          <RunLabels key={`${run.name}|${run.tags.join(",")}`} runId={run.id} name={run.name} tags={run.tags} restoredFrom={run.restoredFrom} />
        </div>
        <div className="flex flex-wrap items-center justify-between gap-4">
          <div className="flex flex-wrap items-center gap-3">
            <RunStatusBadge status={run.status} reason={run.statusReason} />
            <HealthBadges health={run.health} />
            <span className="text-xs text-ink-3">{run.health.progressNote}</span>
          </div>
          <Controls runId={run.id} status={run.status} agent={run.agent} />
        </div>
        {runStatusLine(run) && (
          <p className="mt-3" data-testid="status-reason">
            <RunStatusLine run={{ ...run, endedBy }} className="text-sm" />
          </p>
        )}
        <div className="mt-4">
          <RunProgress done={run.updatesDone} total={run.updatesTotal} eta={run.health.eta} status={run.status} />
        </div>
      </Card>

      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label="Episodes" value={run.episodesDone.toLocaleString()} hint={`${run.updatesDone} updates`} />
        <Stat
          label="Span coverage so far"
          value={ev.coverage === null ? "unavailable" : percent(ev.coverage, 1)}
          tone={ev.coverage === null ? "warn" : ev.coverage < 1 ? "fail" : "pass"}
          hint={ev.coverage === null ? "no succeeded rollout judged yet" : "succeeded rollouts with every expected span"}
        />
        <Stat
          label="Retry debt so far"
          value={<RetryDebt debt={ev.retries} budget={ev.retryBudget} />}
          tone={ev.retries > ev.retryBudget ? "fail" : undefined}
          hint={`unexpected retries against a budget of ${ev.retryBudget}${run.continual ? " (the stop conditions judge it per evidence window)" : ""}; ${ev.failedRollouts} rollouts failed`}
        />
        <Stat label="Parent on validation" value={run.parentHeldOutReward === null ? "—" : run.parentHeldOutReward.toFixed(3)} hint={`${run.heldOutCases} validation tasks (the exam stays locked)`} />
      </div>

      <Card
        title="Reward"
        description="Faint: raw per update. Bold: debiased EMA. Dashed: the exact parent's level on the validation split (the trainer never sees the locked exam)."
        actions={
          <Link href={`/training/compare?runs=${run.restoredFrom ? `${run.id},${run.restoredFrom.runId}` : run.id}`} className="text-xs text-accent hover:underline">
            Compare with other runs
          </Link>
        }
      >
        {training.length + heldOut.length === 0 ? (
          <p className="text-sm text-ink-3" data-testid="curve-empty">
            No update yet{run.status === "queued" ? " — waiting for a trainer worker" : ""}.
          </p>
        ) : (
          <div data-testid="reward-curve" data-points={run.curve.length}>
            <CurveChart
              xLabel="update"
              series={[
                { name: "training batch", points: training, color: "var(--lg-accent)" },
                { name: "validation", points: heldOut, color: "var(--lg-pass)" },
              ]}
              references={run.parentHeldOutReward === null ? [] : [{ y: run.parentHeldOutReward, label: "parent (validation)" }]}
            />
          </div>
        )}
      </Card>

      <Diagnostics points={run.diagnostics} />

      <div className="grid gap-4 lg:grid-cols-2">
        <StopConditions conditions={run.stopConditions} status={run.status} />
        <Checkpoints runId={run.id} checkpoints={run.checkpoints} updatesTotal={run.updatesTotal} every={run.checkpointEvery} />
      </div>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Candidates" description="Published to the store and registered; each moved the agent's latest-candidate pointer only.">
          {run.candidates.length === 0 ? (
            <p className="text-sm text-ink-3">None yet{run.continual ? ` — a continual run publishes one every ${run.candidateEvery} updates` : " — published when the run finishes"}.</p>
          ) : (
            <ul className="space-y-2" data-testid="run-candidates">
              {run.candidates.map((c) => (
                <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
                  <Link href={`/candidates/${c.id}`} className="font-mono text-xs font-medium text-accent hover:underline">
                    {c.id}
                  </Link>
                  <span className="text-xs text-ink-3">
                    {c.resourcesId} v{c.version} · {shortDigest(c.digest)} · {relativeTime(c.createdAt)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card title="Events">
          <ol className="max-h-72 space-y-1.5 overflow-auto text-sm" data-testid="run-events">
            {run.events.map((e) => (
              <li key={e.id} className="flex gap-3">
                <span className="w-20 shrink-0 text-xs text-ink-3" title={timestamp(e.at)}>
                  {relativeTime(e.at)}
                </span>
                <span className="text-ink-2">{e.message}</span>
              </li>
            ))}
          </ol>
        </Card>
      </div>

      <Card title="What this run pinned" description="Recorded before the first update; stage 1 of each candidate's receipt is built from it.">
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm md:grid-cols-2">
          <Pinned label="Family">{run.family}{run.continual ? " (continual, subscribed to the gate)" : ""}</Pinned>
          <Pinned label="Environment">{run.environment} / {run.distribution}</Pinned>
          <Pinned label="Parent">
            {run.parent.resourcesId} v{run.parent.version} <CopyId value={run.parent.digest} />
          </Pinned>
          <Pinned label="Seed">{run.seed}</Pinned>
          <Pinned label="Code revision"><CopyId value={run.codeRevision} /></Pinned>
          <Pinned label="Training data">{run.dataSnapshotId ?? "its own experience (task distribution)"}</Pinned>
          <Pinned label="Started by">{run.startedByName}</Pinned>
          <Pinned label="Last checkpoint">{run.lastCheckpoint ? `update ${run.lastCheckpoint.update} (every ${run.checkpointEvery})` : "none yet"}</Pinned>
          {run.paceSeconds > 0 && <Pinned label="Pace">at least {run.paceSeconds} s between updates</Pinned>}
        </dl>
        {/* The whole config is for who asks: the monitor above is what most visitors came for. */}
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer text-ink-2 hover:text-ink">Full configuration (JSON)</summary>
          <div className="mt-2">
            <JsonView value={run.config} />
          </div>
        </details>
      </Card>
    </div>
  );
}

function Pinned({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex gap-3">
      <dt className="w-32 shrink-0 text-ink-3">{label}</dt>
      <dd className="min-w-0 text-ink-2">{children}</dd>
    </div>
  );
}
