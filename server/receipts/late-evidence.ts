// Late evidence: a rollout whose store state (spans, attempts, status, end) moved on after the stage that judged it
// was sealed. An admitted rollout of stage 2 (sealed with its rollup) makes checks 2 and 3 stale; a gate rollout
// of a sealed stage 3 or canary stage (sealed with its task's source, gate-run/sources.ts) makes the checks it
// fed stale (freshness.ts); a gate re-run seals anew from the store as it now is.
import type { Db, Tx } from "@/server/db/client";
import type { CheckScope, LateEvidence } from "@/server/gate/freshness";
import type { SealedLink } from "@/server/gate/receipt/seal";
import type { CheckId } from "@/server/gate/versions";
import { movedTasks, parseSourceKey, type RolloutSource } from "./gate-run/sources";
import type { Stage2 } from "@/server/gate/receipt/stage2";
import { HEAD_COLUMNS, sourceKeyOf, type RolloutHead } from "./rollups";

function describe(sealed: string, head: RolloutHead): string {
  const [spans, attempts, status, end] = sealed.split("|");
  const changes: string[] = [];
  if (Number(attempts) !== head.attemptCount) changes.push(`attempts ${attempts} → ${head.attemptCount}`);
  if (status !== head.status) changes.push(`status ${status} → ${head.status}`);
  if (Number(spans) !== head.spanSeq) changes.push("new spans");
  if (!changes.length && end !== String(head.endTime ?? "")) changes.push("end time changed");
  return changes.join(", ") || "changed";
}

export async function lateEvidenceOf(db: Db | Tx, stage2: Stage2 | undefined): Promise<LateEvidence[]> {
  const sealed = new Map((stage2?.rollouts ?? []).filter((r) => r.source).map((r) => [r.rolloutId, r.source!]));
  if (sealed.size === 0) return [];
  const ids = [...sealed.keys()];
  const heads = new Map<string, RolloutHead>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const h of await db.storeRollout.findMany({ where: { rolloutId: { in: ids.slice(i, i + 500) } }, select: HEAD_COLUMNS })) heads.set(h.rolloutId, h);
  }
  const late: LateEvidence[] = [];
  for (const [rolloutId, source] of sealed) {
    const head = heads.get(rolloutId);
    if (!head) late.push({ rolloutId, change: "gone from the store" });
    else if (sourceKeyOf(head) !== source) late.push({ rolloutId, change: describe(source, head) });
  }
  return late;
}

/** The checks each gate task's phase feeds, by the kind of run that asked for it. */
const FEEDS: Record<string, Record<string, { scope: CheckScope; checks: CheckId[] }>> = {
  admission: { locked_gate: { scope: "admission", checks: [4, 5] }, canary: { scope: "admission", checks: [6] }, rollback: { scope: "admission", checks: [7] } },
  "canary-stage": { canary_stage: { scope: "canary-stage", checks: [6] }, rollback: { scope: "canary-stage", checks: [7] } },
};

const isoOf = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();
const plural = (n: number, noun: string) => `${n === 1 ? "a" : n} new ${noun}${n === 1 ? "" : "s"}`;

/** What came for one rollout after the seal, and when (the latest of the new spans' and attempts' times). */
async function whatCame(db: Db | Tx, rolloutId: string, was: ReturnType<typeof parseSourceKey>, now: RolloutSource, at: Date): Promise<{ what: string; when: string }> {
  const parts: string[] = [];
  const times: number[] = [];
  if (now.attempts !== was.attempts) {
    parts.push(now.attempts > was.attempts ? plural(now.attempts - was.attempts, "attempt") : `attempts ${was.attempts} → ${now.attempts}`);
    const latest = now.latestAttemptId ? await db.storeAttempt.findFirst({ where: { rolloutId, attemptId: now.latestAttemptId }, select: { startTime: true } }) : null;
    if (latest) times.push(latest.startTime);
  }
  if (now.spans !== was.spans) {
    const spans = await db.storeSpan.findMany({ where: { rolloutId, sequenceId: { gt: was.maxSeq } }, orderBy: { sequenceId: "desc" }, take: 20, select: { name: true, startTime: true, endTime: true } });
    const names = [...new Set(spans.map((s) => s.name))].slice(0, 3).map((n) => n.slice(0, 80));
    parts.push(`${plural(now.spans - was.spans, "span")}${names.length ? ` (${names.join(", ")})` : ""}`);
    for (const s of spans) if (s.endTime ?? s.startTime) times.push((s.endTime ?? s.startTime)!);
  }
  if (now.status !== was.status) parts.push(`status ${was.status} → ${now.status}`);
  if (!parts.length) parts.push("its end time changed");
  // Span times are the runner's clock; with none to go by, when the gate saw it.
  return { what: parts.join(", "), when: times.length ? isoOf(Math.max(...times)) : at.toISOString() };
}

/**
 * Late evidence of the gate runs whose links the receipt now carries (its latest stage 3 and canary stage): a
 * judged task's rollout whose store state moved on after the seal. One read of the runs and tasks, two of the
 * store per 500 rollouts; each late rollout costs a read or two more to say what came when.
 */
export async function gateRunLateEvidenceOf(db: Db | Tx, candidateId: string, chain: readonly SealedLink[], at: Date = new Date()): Promise<LateEvidence[]> {
  const sealed = (["stage3", "canary-stage"] as const).flatMap((kind) => chain.filter((l) => l.kind === kind).slice(-1).map((l) => l.digest));
  if (sealed.length === 0) return [];
  const runs = await db.gateRun.findMany({ where: { candidateId, status: "done", linkDigest: { in: sealed } }, select: { id: true, kind: true, finishedAt: true } });
  if (runs.length === 0) return [];
  const byRun = new Map(runs.map((r) => [r.id, r]));
  const tasks = await db.gateRunTask.findMany({ where: { gateRunId: { in: runs.map((r) => r.id) }, state: "done" }, select: { rolloutId: true, gateRunId: true, phase: true, state: true, caseId: true, side: true, result: true } });
  const moved = await movedTasks(db, tasks);
  const late: LateEvidence[] = [];
  for (const { task, was, now } of moved) {
    const run = byRun.get(task.gateRunId)!;
    const feeds = FEEDS[run.kind]?.[task.phase];
    if (!feeds) continue;
    const sealedAt = run.finishedAt?.toISOString() ?? "(unknown)";
    const came = now && late.length < 20 ? await whatCame(db, task.rolloutId, parseSourceKey(was), now, at) : { what: now ? "new evidence" : "the rollout is gone from the store", when: at.toISOString() };
    const sentence = `late evidence: ${came.what} for ${task.rolloutId} (${task.phase} ${task.caseId}) at ${came.when}, after the seal at ${sealedAt}`;
    late.push({ rolloutId: task.rolloutId, change: came.what, feeds, sentence });
  }
  return late;
}
