// Judging what came back: each finished task's result is recorded on its gate_run_tasks row as it finishes
// (the evidence functions are pure, in server/gate/evidence/gate-rollouts.ts), so the final stage 3 is
// assembled from rows — and a canary is watched from the spans of its running tasks too. Each result names
// the identity that served it; what a disqualified identity served (no runner key, or one that had a hand in
// the candidate: serving.ts) is recorded as not counted — unavailable, never scored.
import type { Database } from "@/server/db/client";
import { judgeLockedCase, observeCanaryTask, type CanaryObservation, type CaseJudgement } from "@/server/gate/evidence/gate-rollouts";
import { servingDisqualification } from "@/server/gate/evidence/serving";
import { isPinned, type GateRunContext } from "./context";
import { isCanaryPhase, type TaskRead } from "./tasks";

/** Who served a task (`served_by`, null when its attempt names none; absent when no attempt was read) and, when that identity may not count, why. */
export type Served = { servedBy?: string | null; notCounted?: string };
export type LockedResult = { kind: "locked_gate" } & CaseJudgement & Served;
export type CanaryResult = { kind: "canary"; status: string; failure: string | null } & CanaryObservation & Served;
export type RollbackResult = { kind: "rollback"; status: string; failure: string | null } & Served;
/** `source`: the rollout's store state the result was computed from (sources.ts); later changes are late evidence. */
export type TaskResult = (LockedResult | CanaryResult | RollbackResult | { kind: "cancelled" | "unavailable"; reason: string }) & { source?: string };

export function parseResult(text: string | null): TaskResult | null {
  return text === null ? null : (JSON.parse(text) as TaskResult);
}

function expectedOf(ctx: GateRunContext, caseId: string): unknown {
  return isPinned(ctx.heldOut) ? (ctx.heldOut.cases.find((c) => c.caseId === caseId)?.expected ?? null) : null;
}

/** Who served `read`, and why it does not count when it may not. */
function servedOf(ctx: GateRunContext, read: TaskRead): Served {
  if (!read.servedBy) return {};
  const why = servingDisqualification(read.servedBy, ctx.excluded);
  return { servedBy: read.servedBy.identity, ...(why ? { notCounted: why } : {}) };
}

/** What one read task shows: its judgement when finished; for a running canary task, what it did so far. */
export function resultOf(ctx: GateRunContext, read: TaskRead): TaskResult | null {
  const { task } = read;
  if (read.tooManySpans) return { kind: "unavailable", reason: "the rollout recorded more spans than the gate reads (5,000)" };
  const served = servedOf(ctx, read);
  if (task.phase === "locked_gate") {
    if (!read.finished) return null;
    if (served.notCounted) return { kind: "locked_gate", status: "unavailable", reason: `not counted: ${served.notCounted}`, ...served };
    if (!ctx.scoring.ok) return { kind: "locked_gate", status: "unavailable", reason: ctx.scoring.reason, ...served };
    return { kind: "locked_gate", ...judgeLockedCase({ status: read.status, failure: read.failure, spans: read.spans ?? [] }, ctx.scoring.spec, ctx.evaluatorName, expectedOf(ctx, task.caseId)), ...served };
  }
  if (isCanaryPhase(task.phase)) {
    if (!read.spans && !read.finished) return null;
    // Observed whoever served it: a boundary breach still stops the canary; the outcome itself is not counted (assemble.ts).
    const observed = observeCanaryTask(read.spans ?? [], ctx.contracts, ctx.pricing, task.rolloutId);
    return { kind: "canary", status: read.status, failure: read.failure, ...observed, ...served };
  }
  return read.finished ? { kind: "rollback", status: read.status, failure: read.failure, ...served } : null;
}

/** Records the results of the finished tasks (state done) in one transaction; returns how many were recorded. */
export async function recordFinished(database: Database, ctx: GateRunContext, reads: readonly TaskRead[]): Promise<number> {
  return record(database, ctx, reads, "pending");
}

/**
 * Records again done tasks whose rollout moved on before the stage sealed (settle.ts): a finished rollout is
 * judged on what it now holds; one running again (a new attempt) goes back to pending.
 */
export async function recordAgain(database: Database, ctx: GateRunContext, reads: readonly TaskRead[]): Promise<number> {
  return record(database, ctx, reads, "done");
}

async function record(database: Database, ctx: GateRunContext, reads: readonly TaskRead[], from: "pending" | "done"): Promise<number> {
  const results: { rolloutId: string; state: string; result: string | null }[] = [];
  for (const read of reads) {
    if (read.task.state !== from) continue;
    const result = read.finished ? resultOf(ctx, read) : null;
    if (result) results.push({ rolloutId: read.task.rolloutId, state: "done", result: JSON.stringify({ ...result, ...(read.source ? { source: read.source } : {}) }) });
    else if (from === "done") results.push({ rolloutId: read.task.rolloutId, state: "pending", result: null });
  }
  if (results.length === 0) return 0;
  const judgedAt = new Date();
  return database.transaction(async (tx) => {
    let recorded = 0;
    for (const r of results) {
      const { count } = await tx.gateRunTask.updateMany({ where: { rolloutId: r.rolloutId, state: from }, data: { state: r.state, result: r.result, judgedAt: r.result ? judgedAt : null } });
      recorded += count;
    }
    return recorded;
  });
}
