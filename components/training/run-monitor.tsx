"use client";

// The training monitor's panels beside the reward curve: the run's name and tags (editable), every stop
// condition with its threshold and current value (and which one ended the run), the PPO diagnostics per update,
// and the checkpoint list with "restore from this checkpoint" (a new run, as W&B's fork; the source stays as is).
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { History, Pencil } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { useCan } from "@/components/auth/me-provider";
import { NotAllowedNote } from "@/components/auth/not-allowed";
import { PPO_DIAGNOSTIC_INFO } from "@/lib/training/metrics";
import { CurveChart } from "@/components/charts/curve-chart";
import { Badge, type Tone } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Button, Field, TextInput } from "@/components/ui/form";
import { relativeTime, shortDigest, timestamp } from "@/components/ui/format";

type Condition = { id: string; label: string; threshold: string; current: string; state: "ok" | "tripped" | "ended" | "waiting" };
const STATE: Record<Condition["state"], [Tone, string]> = { ok: ["pass", "holding"], tripped: ["warn", "tripped"], ended: ["accent", "ended the run"], waiting: ["neutral", "not judged yet"] };
/** The gate's conditions: when one of them ends (pauses) a run, the evidence degraded — shown as a failure. */
const GATE_CONDITIONS = new Set(["coverage", "retry-debt", "protected", "parent"]);

export function StopConditions({ conditions, status }: { conditions: Condition[]; status: string }) {
  return (
    <Card title="Stop conditions" description={status === "paused" || status === "finished" ? "What the run was held to; the one marked ended the run or paused it." : "What ends or pauses this run, with the threshold and where it stands now."}>
      <ul className="divide-y divide-line text-sm" data-testid="stop-conditions">
        {conditions.map((c) => (
          <li key={c.id} className="grid grid-cols-1 gap-1 py-2 sm:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)_minmax(0,1.2fr)_auto] sm:items-center sm:gap-3" data-condition={c.id} data-state={c.state}>
            <span className="font-medium text-ink">{c.label}</span>
            <span className="text-ink-3">
              <span className="sm:hidden">threshold </span>
              {c.threshold}
            </span>
            <span className="tabular-nums text-ink-2 [overflow-wrap:anywhere]">
              <span className="text-ink-3 sm:hidden">now </span>
              {c.current}
            </span>
            <span>
              <Badge tone={c.state === "ended" && GATE_CONDITIONS.has(c.id) ? "fail" : STATE[c.state][0]}>{c.state === "ended" && GATE_CONDITIONS.has(c.id) ? "paused the run" : STATE[c.state][1]}</Badge>
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

type Diag = { update: number; approxKl: number | null; entropy: number | null; clipFraction: number | null; valueLoss: number | null; explainedVariance: number | null };
type DiagKey = Exclude<keyof Diag, "update">;
/** Labels and hints shared with the compare page (lib/training/metrics.ts), in the order they are charted. */
const DIAGNOSTICS = (["approxKl", "entropy", "clipFraction", "valueLoss", "explainedVariance"] as const satisfies readonly DiagKey[]).map((key) => ({ key, ...PPO_DIAGNOSTIC_INFO.get(key)! }));

export function Diagnostics({ points }: { points: Diag[] }) {
  if (points.length === 0) return null;
  const last = points.at(-1)!;
  return (
    <Card title="PPO diagnostics" description="Computed by the trainer on every update (faint raw, bold smoothed). A KL or clip fraction that climbs means steps too large; explained variance near 1 means the critic keeps up.">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="ppo-diagnostics">
        {DIAGNOSTICS.map((d) => {
          const series = points.flatMap((p) => (p[d.key] === null ? [] : [{ x: p.update, y: p[d.key]! }]));
          return (
            <div key={d.key} className="min-w-0" data-diagnostic={d.key}>
              <div className="flex items-baseline justify-between gap-2">
                <h3 className="text-sm font-medium text-ink" title={d.hint}>{d.label}</h3>
                <span className="text-xs tabular-nums text-ink-2">{last[d.key] === null ? "—" : last[d.key]!.toFixed(4)}</span>
              </div>
              <p className="mb-1 text-xs text-ink-3">{d.hint}</p>
              {series.length ? (
                <CurveChart xLabel="update" height={150} showSmoothingControl={false} showLegend={false} defaultSmoothing={0.6} yDomain={d.domain} series={[{ name: d.label, points: series, color: "var(--lg-accent)" }]} />
              ) : (
                <p className="text-xs text-ink-3">not recorded by this family</p>
              )}
            </div>
          );
        })}
      </div>
    </Card>
  );
}

type Checkpoint = { update: number; digest: string; createdAt: Date };

export function Checkpoints({ runId, checkpoints, updatesTotal, every }: { runId: string; checkpoints: Checkpoint[]; updatesTotal: number; every: number }) {
  const trpc = useTRPC();
  const router = useRouter();
  const canRun = useCan("training:run");
  const [picked, setPicked] = useState<number | null>(null);
  const [updates, setUpdates] = useState(String(updatesTotal));
  const restore = useMutation(trpc.trainers.restoreRun.mutationOptions({ onSuccess: (r) => router.push(`/training/${r.id}`) }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (picked !== null) restore.mutate({ runId, update: picked, updates: Number(updates) || null });
  };
  return (
    <Card title="Checkpoints" description={`Sealed every ${every} updates (and whenever the run lets go). Restoring starts a new run from one; this run stays as it is.`}>
      {checkpoints.length === 0 ? (
        <p className="text-sm text-ink-3">None yet.</p>
      ) : (
        <ul className="max-h-72 divide-y divide-line overflow-auto text-sm" data-testid="checkpoints">
          {checkpoints.map((c) => (
            <li key={c.update} className="flex flex-wrap items-center justify-between gap-2 py-1.5">
              <span className="min-w-0">
                <span className="font-medium text-ink">update {c.update}</span> <span className="font-mono text-xs text-ink-3">{shortDigest(c.digest)}</span>{" "}
                <span className="text-xs text-ink-3" title={timestamp(c.createdAt)}>{relativeTime(c.createdAt)}</span>
              </span>
              {canRun && (
                <Button variant="ghost" className="text-xs" onClick={() => setPicked(c.update)} aria-label={`Restore from the checkpoint at update ${c.update}`}>
                  <History className="mr-1 inline h-3.5 w-3.5" /> Restore
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {!canRun && checkpoints.length > 0 && <NotAllowedNote subject="Restoring a checkpoint" scope="training:run" className="mt-2" />}
      {picked !== null && (
        <form onSubmit={submit} className="mt-3 space-y-2 rounded-md border border-line p-3" aria-label="Restore from a checkpoint" data-testid="restore-form">
          <p className="text-sm text-ink-2">
            A new run continues from update {picked} with this run&apos;s config, seed and pins (unchanged, it repeats this run bit for bit); its curve starts with this run&apos;s first {picked} updates.
          </p>
          <Field label="Update budget of the new run" htmlFor="restore-updates">
            <TextInput id="restore-updates" type="number" min={picked + 1} value={updates} onChange={(e) => setUpdates(e.target.value)} />
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={restore.isPending}>Restore into a new run</Button>
            <Button type="button" variant="secondary" onClick={() => setPicked(null)}>Cancel</Button>
          </div>
          {restore.error && <p className="text-xs text-fail">{restore.error.message}</p>}
        </form>
      )}
    </Card>
  );
}

export function RunLabels({ runId, name, tags, restoredFrom }: { runId: string; name: string | null; tags: string[]; restoredFrom: { runId: string; update: number } | null }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const canRun = useCan("training:run");
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [draftName, setDraftName] = useState(name ?? "");
  const [draftTags, setDraftTags] = useState(tags.join(", "));
  const save = useMutation(
    trpc.trainers.labelRun.mutationOptions({
      onSuccess: () => {
        setEditing(false);
        router.refresh(); // the page header shows the name
        return qc.invalidateQueries({ queryKey: trpc.trainers.getRun.queryKey({ runId }) });
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ runId, name: draftName.trim() || null, tags: draftTags.split(",").map((t) => t.trim()).filter(Boolean) });
  };
  if (editing)
    return (
      <form onSubmit={submit} className="grid gap-2 sm:grid-cols-[1fr_1fr_auto] sm:items-end" aria-label="Name and tags">
        <Field label="Name" htmlFor="run-name">
          <TextInput id="run-name" value={draftName} maxLength={120} onChange={(e) => setDraftName(e.target.value)} placeholder={runId} />
        </Field>
        <Field label="Tags (comma-separated)" htmlFor="run-tags">
          <TextInput id="run-tags" value={draftTags} onChange={(e) => setDraftTags(e.target.value)} placeholder="baseline, lr-0.05" />
        </Field>
        <div className="flex gap-2">
          <Button type="submit" disabled={save.isPending}>Save</Button>
          <Button type="button" variant="secondary" onClick={() => setEditing(false)}>Cancel</Button>
        </div>
        {save.error && <p className="text-xs text-fail sm:col-span-3">{save.error.message}</p>}
      </form>
    );
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="run-labels">
      {/* The name is the page's title; here it is only said when there is none. */}
      {!name && <span className="text-sm text-ink-3">No name yet</span>}
      {tags.length === 0 && <span className="text-sm text-ink-3">· no tags</span>}
      {tags.map((t) => (
        <Link key={t} href={`/training?tag=${encodeURIComponent(t)}`} className="rounded-full bg-panel-2 px-2 py-0.5 text-xs text-ink-2 hover:text-accent">
          #{t}
        </Link>
      ))}
      {restoredFrom && (
        <span className="text-xs text-ink-3">
          restored from{" "}
          <Link className="text-accent hover:underline" href={`/training/${restoredFrom.runId}`}>
            {restoredFrom.runId}
          </Link>{" "}
          @ update {restoredFrom.update}
        </span>
      )}
      {canRun && (
        <Button variant="ghost" className="text-xs" onClick={() => setEditing(true)} aria-label="Edit name and tags">
          <Pencil className="mr-1 inline h-3.5 w-3.5" /> Edit
        </Button>
      )}
    </div>
  );
}
