// The canary stage as the live panel shows it (Argo Rollouts' view of a step): what is in canary now, tasks
// done of those the boundary allows, time left, cost so far, verifications so far, and — once it ended — why.
import type { Database } from "@/server/db/client";
import { readPointer } from "@/server/candidates/pointers";
import type { CanaryBoundary } from "@/server/gate/receipt/stage1";
import { ZStage1 } from "@/server/gate/receipt/stage1";
import { parseResult } from "./judge";
import type { RunState } from "./step";

export type CanaryStageLive = {
  runId: string;
  status: string;
  phase: string;
  requestedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** When the current phase stops waiting (the boundary's wall time while serving). */
  deadlineAt: string | null;
  boundary: Pick<CanaryBoundary, "maxTasks" | "maxWallTimeSeconds" | "maxCostUsd" | "allowedTools">;
  /** notCounted: finished tasks a disqualified identity served (not a runner, or one with a hand in the candidate). */
  tasks: { asked: number; finished: number; waiting: number; cancelled: number; verified: number; notCounted: number };
  /** The first reason a task was not counted. */
  notCountedReason: string | null;
  costUsd: number;
  window: { start: string; end: string } | null;
  stop: { kind: string; reason: string; at: string } | null;
  /** What the guard did at a breach: the canary pointer moved back to the exact parent (or why not). */
  abort: { moved: boolean; detail: string } | null;
  /** What `/v1/pointers/<agent>/canary` names now, and whether that is this candidate. */
  canaryPointer: { resourcesId: string; version: number; isCandidate: boolean } | null;
  error: string | null;
};

/** The candidate's latest canary-stage run, or null when none was started (no canary-step approval yet). */
export async function canaryStageLive(database: Database, candidateId: string): Promise<CanaryStageLive | null> {
  const db = database.db;
  const run = await db.gateRun.findFirst({ where: { candidateId, kind: "canary-stage" }, orderBy: [{ requestedAt: "desc" }, { id: "desc" }] });
  if (!run) return null;
  const candidate = await db.candidate.findUniqueOrThrow({ where: { id: candidateId }, select: { agent: true, digest: true, stage1: true } });
  const boundary = ZStage1.parse(JSON.parse(candidate.stage1)).expectedEvidence.canaryBoundary;
  const tasks = await db.gateRunTask.findMany({ where: { gateRunId: run.id, phase: "canary_stage" }, select: { rolloutId: true, state: true, result: true } });
  const verified = tasks.length ? await db.gateVerification.count({ where: { rolloutId: { in: tasks.map((t) => t.rolloutId) } } }) : 0;
  let costUsd = 0;
  let notCounted = 0;
  let notCountedReason: string | null = null;
  for (const t of tasks) {
    const r = parseResult(t.result);
    if (r?.kind === "canary") costUsd += r.costUsd;
    if (r?.kind === "canary" && r.notCounted) {
      notCounted += 1;
      notCountedReason ??= r.notCounted;
    }
  }
  const state = run.pins ? (JSON.parse(run.pins) as RunState) : null;
  const pointer = await readPointer(db, candidate.agent, "canary");
  const count = (s: string) => tasks.filter((t) => t.state === s).length;
  return {
    runId: run.id,
    status: run.status,
    phase: run.phase,
    requestedAt: run.requestedAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    deadlineAt: run.deadlineAt?.toISOString() ?? null,
    boundary: { maxTasks: boundary.maxTasks, maxWallTimeSeconds: boundary.maxWallTimeSeconds, maxCostUsd: boundary.maxCostUsd, allowedTools: boundary.allowedTools },
    tasks: { asked: tasks.length, finished: count("done"), waiting: count("pending"), cancelled: count("cancelled"), verified, notCounted },
    notCountedReason,
    costUsd,
    window: state?.canary ? { start: state.canary.start, end: state.canary.end } : null,
    stop: state?.canary?.stop ?? null,
    abort: state?.abort ?? null,
    canaryPointer: pointer && { resourcesId: pointer.resourcesId, version: pointer.version, isCandidate: pointer.digest === candidate.digest },
    error: run.error,
  };
}
