// The rollouts a gate run asks runners for, exactly as an Agent Lightning algorithm asks: enqueued into the
// store (input = the case's input verbatim, mode "test", resources_id = a pin, lightgate.* metadata), one
// gate_run_tasks row each, held from retention while the receipt may cite them — and read back as they finish.
import type { Database } from "@/server/db/client";
import type { CanaryBoundary } from "@/server/gate/receipt/stage1";
import type { GateSpan } from "@/server/gate/evidence/gate-rollouts";
import type { ServedBy } from "@/server/gate/evidence/serving";
import { storeFor } from "@/server/store";
import { TERMINAL_ROLLOUT_STATUSES, type Json, type JsonObject, type RolloutStatus, type Span } from "@/server/store/types";
import type { GateRunContext } from "./context";
import { SOURCE_COLUMNS, sourceKey, sourceOf, spanCountsOf } from "./sources";

export const GATE_RUN_PHASES = ["locked_gate", "canary", "rollback", "canary_stage"] as const;
export type TaskPhase = (typeof GATE_RUN_PHASES)[number];

/** The phases that act inside the canary boundary: the admission's bounded canary and the later canary stage. */
export const isCanaryPhase = (phase: string): phase is "canary" | "canary_stage" => phase === "canary" || phase === "canary_stage";

export type TaskSpec = { phase: TaskPhase; side: "candidate" | "parent" | null; caseId: string; input: unknown; resourcesId: string };

/** Spans beyond this on one gate rollout are not read: the case is judged unavailable instead. */
const MAX_SPANS = 5_000;

export const holdReason = (runId: string) => `gate-run:${runId}`;

function metadataFor(ctx: GateRunContext, spec: TaskSpec, boundary: CanaryBoundary | null): JsonObject {
  return {
    "lightgate.gate_run": ctx.runId,
    "lightgate.receipt": ctx.candidateId,
    "lightgate.agent": ctx.stage1.agent,
    "lightgate.phase": spec.phase,
    "lightgate.case": spec.caseId,
    ...(spec.side ? { "lightgate.side": spec.side } : {}),
    "lightgate.evaluator": ctx.evaluatorName,
    "lightgate.evaluator_spec": ctx.evaluatorBody as Json,
    ...(boundary ? { "lightgate.boundary": boundary as unknown as JsonObject } : {}),
  };
}

/** Enqueues the tasks and records them; returns their rollout ids in order. */
export async function enqueueTasks(database: Database, ctx: GateRunContext, specs: readonly TaskSpec[], timeoutSeconds: number): Promise<string[]> {
  if (specs.length === 0) return [];
  const store = storeFor(database);
  const boundary = ctx.stage1.expectedEvidence.canaryBoundary;
  const rollouts = await store.enqueueRollouts(
    specs.map((spec) => ({
      input: spec.input as Json,
      mode: "test",
      resources_id: spec.resourcesId,
      config: { ...ctx.retry, timeout_seconds: timeoutSeconds },
      metadata: metadataFor(ctx, spec, isCanaryPhase(spec.phase) ? boundary : null),
    })),
  );
  const ids = rollouts.map((r) => r.rollout_id);
  await store.holdRollouts(ids, holdReason(ctx.runId));
  const now = new Date();
  await database.db.gateRunTask.createMany({
    data: specs.map((spec, i) => ({ rolloutId: ids[i]!, gateRunId: ctx.runId, phase: spec.phase, side: spec.side, caseId: spec.caseId, resourcesId: spec.resourcesId, enqueuedAt: now, state: "pending" })),
  });
  return ids;
}

export type TaskRow = { rolloutId: string; phase: string; side: string | null; caseId: string; state: string; result: string | null };

/**
 * A task's rollout as the gate reads it: status, the latest attempt's failure, spans (when asked for) and who
 * served it (`served_by` and that key's role; null when no attempt was read).
 */
export type TaskRead = {
  task: TaskRow;
  status: RolloutStatus | "missing";
  finished: boolean;
  failure: string | null;
  spans: GateSpan[] | null;
  tooManySpans: boolean;
  servedBy: ServedBy | null;
  /** A finished rollout's store state as read before its spans (sources.ts): what its result is computed from. */
  source?: string;
};

export async function tasksOf(database: Database, runId: string, phase?: TaskPhase | readonly TaskPhase[]): Promise<TaskRow[]> {
  return database.db.gateRunTask.findMany({
    where: { gateRunId: runId, ...(phase ? { phase: { in: typeof phase === "string" ? [phase] : [...phase] } } : {}) },
    orderBy: [{ enqueuedAt: "asc" }, { rolloutId: "asc" }],
    select: { rolloutId: true, phase: true, side: true, caseId: true, state: true, result: true },
  });
}

/** The tasks still waiting for their rollout (no result column: what a step reads most often). */
export async function pendingTasks(database: Database, runId: string, phases: readonly TaskPhase[]): Promise<TaskRow[]> {
  const rows = await database.db.gateRunTask.findMany({
    where: { gateRunId: runId, state: "pending", phase: { in: [...phases] } },
    orderBy: [{ enqueuedAt: "asc" }, { rolloutId: "asc" }],
    select: { rolloutId: true, phase: true, side: true, caseId: true, state: true },
  });
  return rows.map((r) => ({ ...r, result: null }));
}

/**
 * Reads the rollouts of `tasks`; spans of the latest attempt are read for finished rollouts, and for running
 * ones when `running` is set (the canary is judged from its spans while it runs). A step reads many rollouts at
 * once, so this is a fixed handful of queries whatever their number: statuses, span counts, spans, attempts and
 * the keys that served them.
 */
export async function readTasks(database: Database, tasks: readonly TaskRow[], opts: { running?: boolean } = {}): Promise<TaskRead[]> {
  if (tasks.length === 0) return [];
  const db = database.db;
  const rows = await db.storeRollout.findMany({ where: { rolloutId: { in: tasks.map((t) => t.rolloutId) } }, select: SOURCE_COLUMNS });
  const byId = new Map(rows.map((r) => [r.rolloutId, r]));
  const isFinished = (status: string) => TERMINAL_ROLLOUT_STATUSES.includes(status as RolloutStatus);
  // Before the spans are read: a span landing meanwhile makes the source look older than the result, never newer.
  const counts = await spanCountsOf(db, rows.filter((r) => isFinished(r.status)).map((r) => r.rolloutId));
  // The latest attempts whose spans this read needs.
  const latest = rows.filter((r) => r.latestAttemptId && (isFinished(r.status) || opts.running)).map((r) => ({ rolloutId: r.rolloutId, attemptId: r.latestAttemptId! }));
  const spansOf = new Map<string, GateSpan[]>();
  const tooMany = new Set<string>();
  const attempts = new Map<string, { metadata: string | null; status: string; servedBy: string | null }>();
  const roles = new Map<string, string>();
  if (latest.length > 0) {
    const counts = await db.storeSpan.groupBy({ by: ["rolloutId"], where: { OR: latest }, _count: { _all: true } });
    for (const c of counts) if (c._count._all > MAX_SPANS) tooMany.add(c.rolloutId);
    const readable = latest.filter((l) => !tooMany.has(l.rolloutId));
    const spans = readable.length
      ? await db.storeSpan.findMany({ where: { OR: readable }, orderBy: [{ rolloutId: "asc" }, { sequenceId: "asc" }, { startTime: "asc" }, { spanId: "asc" }], select: { rolloutId: true, body: true } })
      : [];
    for (const row of spans) {
      const s = JSON.parse(row.body) as Span;
      const list = spansOf.get(row.rolloutId) ?? [];
      list.push({ sequence_id: s.sequence_id, name: s.name, attributes: (s.attributes ?? {}) as Record<string, unknown>, end_time: s.end_time });
      spansOf.set(row.rolloutId, list);
    }
    for (const a of await db.storeAttempt.findMany({ where: { OR: latest }, select: { rolloutId: true, metadata: true, status: true, servedBy: true } })) attempts.set(a.rolloutId, a);
    // The role of each key that served: only runner keys' results count (judge.ts).
    const servers = [...new Set([...attempts.values()].flatMap((a) => (a.servedBy ? [a.servedBy] : [])))];
    if (servers.length) for (const k of await db.apiKey.findMany({ where: { id: { in: servers } }, select: { id: true, role: true } })) roles.set(k.id, k.role);
  }
  return tasks.map((task): TaskRead => {
    const row = byId.get(task.rolloutId);
    if (!row) return { task, status: "missing", finished: true, failure: "the rollout is gone from the store", spans: null, tooManySpans: false, servedBy: null };
    const status = row.status as RolloutStatus;
    const finished = isFinished(status);
    const source = finished ? { source: sourceKey(sourceOf(row, counts)) } : {};
    if (!row.latestAttemptId || !(finished || opts.running)) return { task, status, finished, failure: null, spans: null, tooManySpans: false, servedBy: null, ...source };
    const attempt = attempts.get(task.rolloutId);
    const why = attempt?.metadata ? (JSON.parse(attempt.metadata) as Record<string, unknown>)["lightgate.failure"] : undefined;
    const failure = typeof why === "string" ? why : attempt && attempt.status !== "succeeded" ? `latest attempt ${attempt.status}` : null;
    const tooManySpans = tooMany.has(task.rolloutId);
    const server = attempt?.servedBy ?? null;
    const servedBy = attempt ? { identity: server, role: server ? (roles.get(server) ?? null) : null } : null;
    return { task, status, finished, failure, spans: tooManySpans ? [] : (spansOf.get(task.rolloutId) ?? []), tooManySpans, servedBy, ...source };
  });
}

/** Cancels unfinished tasks (the gate no longer waits for them) and marks them with why. */
export async function cancelTasks(database: Database, tasks: readonly TaskRow[], reason: string): Promise<void> {
  const store = storeFor(database);
  for (const t of tasks) {
    await store.updateRollout(t.rolloutId, { status: "cancelled" }).catch(() => {
      // Finished meanwhile, or gone: what the store holds is judged as it is.
    });
  }
  await database.db.gateRunTask.updateMany({ where: { rolloutId: { in: tasks.map((t) => t.rolloutId) }, state: "pending" }, data: { state: "cancelled", result: JSON.stringify({ reason }), judgedAt: new Date() } });
}
