// The stage 3 a gate run seals, assembled from what its tasks recorded and the verification records of its
// canary outcomes: the locked gate case by case for both sides (a case without a result is listed as
// unavailable with why — never scored), the canary's outcomes with how each was verified, and the rollback
// probes against the pinned parent.
import type { Database } from "@/server/db/client";
import type { CanaryOutcome, CanaryRun, CanaryStage, CaseResult, ProducedBy, RollbackTest, Stage3, UnavailableCase, Verification } from "@/server/gate/receipt/stage3";
import { evaluatorBodyDigest, isPinned, type GateRunContext } from "./context";
import { parseResult, type CanaryResult } from "./judge";
import type { GatePins } from "./pins";
import type { TaskRow } from "./tasks";

export type CanaryWindow = { start: string; end: string; stop?: CanaryRun["stop"] };

type VerificationRow = { rolloutId: string; method: string; matched: boolean; confidence: number | null; expected: string | null; observed: string | null; verifierId: string; createdAt: Date };

function verificationOf(row: VerificationRow | undefined, target: string, why: string): Verification {
  if (!row) return { method: "unverified", reason: why };
  const verdict = row.matched ? "pass" : "fail";
  if (row.method === "judge") return { method: "judge", judgeId: row.verifierId, verdict, confidence: row.confidence ?? 0 };
  if (row.method === "human") return { method: "human", reviewerId: row.verifierId, verdict, confidence: row.confidence ?? 0 };
  return { method: "destination", destination: { kind: "destination", ref: target }, expected: row.expected ?? "", observed: row.observed, matched: row.matched, checkedAt: row.createdAt.toISOString() };
}

function familyOf(ctx: GateRunContext, caseId: string): string {
  return (isPinned(ctx.heldOut) ? ctx.heldOut.cases.find((c) => c.caseId === caseId)?.family : undefined) ?? "general";
}

function lockedSide(ctx: GateRunContext, tasks: readonly TaskRow[], side: "candidate" | "parent") {
  const cases: CaseResult[] = [];
  const unavailable: UnavailableCase[] = [];
  for (const t of tasks.filter((x) => x.phase === "locked_gate" && x.side === side)) {
    const family = familyOf(ctx, t.caseId);
    const r = parseResult(t.result);
    if (r?.kind === "locked_gate" && r.status === "scored") cases.push({ caseId: t.caseId, family, score: r.score, passed: r.passed, rolloutId: t.rolloutId });
    else unavailable.push({ caseId: t.caseId, family, rolloutId: t.rolloutId, reason: r && "reason" in r ? r.reason : "no result by the deadline" });
  }
  return { cases, unavailable };
}

function canaryOutcome(t: TaskRow, verifications: ReadonlyMap<string, VerificationRow>): CanaryOutcome {
  const r = parseResult(t.result);
  const observed: Partial<CanaryResult> = r?.kind === "canary" ? r : {};
  const target = observed.sideEffects?.[0]?.target ?? t.rolloutId;
  const why = r?.kind === "canary" ? `no verification record for ${t.rolloutId}` : `the task did not finish (${r && "reason" in r ? r.reason : "no result"})`;
  // An outcome a disqualified identity produced is not counted, whatever a verifier later found at its target.
  const verification = observed.notCounted ? { method: "unverified" as const, reason: `not counted: ${observed.notCounted}` } : verificationOf(verifications.get(t.rolloutId), target, why);
  return {
    taskId: t.caseId,
    rolloutId: t.rolloutId,
    verification,
    toolsUsed: observed.toolsUsed ?? [],
    sideEffects: observed.sideEffects ?? [],
    costUsd: observed.costUsd ?? 0,
  };
}

/** Where the canary and the rollback probes run: the agent's bounded task set (the canary's, else the held-out one). */
const boundedEnvironment = (ctx: GateRunContext) => (ctx.stage1.data.canary ? `${ctx.stage1.agent}-canary:${ctx.stage1.data.canary.id}` : `${ctx.stage1.agent}-gate:${ctx.stage1.data.heldOut.id}`);

function rollbackTest(ctx: GateRunContext, pins: GatePins, tasks: readonly TaskRow[], checkedAt: string): RollbackTest {
  const base = { environment: boundedEnvironment(ctx), parent: ctx.stage1.parent, checkedAt };
  if (!pins.parent.pinId) {
    const reason = pins.parent.resolution.status === "unresolvable" ? pins.parent.resolution.reason : "the parent was not pinned";
    return { ...base, loaded: false, routedBack: false, detail: reason };
  }
  const notCounted: string[] = [];
  const probes = tasks.filter((t) => t.phase === "rollback").map((t) => {
    const r = parseResult(t.result);
    if (r?.kind === "rollback" && r.notCounted) notCounted.push(r.notCounted);
    return { rolloutId: t.rolloutId, status: r?.kind === "rollback" ? (r.notCounted ? "not counted" : r.status) : (r?.kind ?? "pending") };
  });
  const served = probes.filter((p) => p.status === "succeeded").length;
  const routedBack = probes.length > 0 && served === probes.length;
  const uncounted = notCounted.length ? ` (${notCounted.length} not counted: ${notCounted[0]})` : "";
  const detail = probes.length === 0 ? `parent pinned as ${pins.parent.pinId}, but no probe rollout was asked for` : `parent pinned as ${pins.parent.pinId}; ${served} of ${probes.length} probe rollouts succeeded on exactly that version${uncounted}`;
  return { ...base, loaded: true, routedBack, detail, probes };
}

type GateTaskRow = Awaited<ReturnType<Database["db"]["gateRunTask"]["findMany"]>>[number];

/** The canary of one phase (the admission's bounded canary, or the canary stage) with each outcome's verification. */
async function canaryRun(database: Database, ctx: GateRunContext, tasks: readonly GateTaskRow[], phase: "canary" | "canary_stage", window: CanaryWindow | null): Promise<CanaryRun | null> {
  const canaryTasks = tasks.filter((t) => t.phase === phase);
  if (!window || canaryTasks.length === 0) return null;
  const rows = await database.db.gateVerification.findMany({ where: { rolloutId: { in: canaryTasks.map((t) => t.rolloutId) } } });
  const verifications = new Map(rows.map((v) => [v.rolloutId, v]));
  return {
    environment: boundedEnvironment(ctx),
    modelServer: ctx.versions.modelServer,
    window: { start: window.start, end: window.end },
    outcomes: canaryTasks.map((t) => canaryOutcome(t, verifications)),
    ...(window.stop ? { stop: window.stop } : {}),
  };
}

/** What produced this run's evidence, from its context (never re-derived from what is in force at sealing). */
function producedBy(ctx: GateRunContext): ProducedBy {
  const { training, heldOut, canary } = ctx.stage1.data;
  const ref = (d: { id: string; digest: ProducedBy["parent"]["digest"] }) => ({ id: d.id, digest: d.digest });
  return {
    gateRun: ctx.runId,
    evaluator: ctx.evaluator,
    evaluatorBodyDigest: evaluatorBodyDigest(ctx),
    parent: ctx.stage1.parent,
    datasets: { training: ref(training), heldOut: ref(heldOut), ...(canary ? { canary: ref(canary) } : {}) },
  };
}

export async function assembleStage3(database: Database, ctx: GateRunContext, pins: GatePins, window: CanaryWindow | null, computedAt: string): Promise<Stage3> {
  const tasks = await database.db.gateRunTask.findMany({ where: { gateRunId: ctx.runId }, orderBy: [{ enqueuedAt: "asc" }, { rolloutId: "asc" }] });
  const s1 = ctx.stage1;
  const stage3: Stage3 = { resolution: pins.resolution, computedAt, versions: ctx.versions, producedBy: producedBy(ctx) };
  if (tasks.some((t) => t.phase === "locked_gate")) {
    const candidate = lockedSide(ctx, tasks, "candidate");
    const parent = lockedSide(ctx, tasks, "parent");
    stage3.lockedGate = {
      // The evaluator that judged these cases: the one in force when this run started.
      evaluator: ctx.evaluator,
      dataset: { id: s1.data.heldOut.id, digest: s1.data.heldOut.digest },
      candidate: { resource: { resourceId: s1.candidate.resourceId, version: s1.candidate.version ?? 1, digest: s1.candidate.digest! }, ...candidate },
      parent: { resource: s1.parent, ...parent },
      ranAt: computedAt,
    };
  }
  const canary = await canaryRun(database, ctx, tasks, "canary", window);
  if (canary) stage3.canary = canary;
  stage3.rollbackTest = rollbackTest(ctx, pins, tasks, computedAt);
  return stage3;
}

/**
 * The canary stage a canary-stage run seals: the candidate served inside the boundary after the canary-step
 * approval (its outcomes and how each was verified; `stop` when it aborted) and fresh rollback probes against
 * the pinned parent. A stage that never served a task cannot be sealed: there is nothing to judge.
 */
export async function assembleCanaryStage(database: Database, ctx: GateRunContext, pins: GatePins, window: CanaryWindow, computedAt: string): Promise<CanaryStage> {
  const tasks = await database.db.gateRunTask.findMany({ where: { gateRunId: ctx.runId }, orderBy: [{ enqueuedAt: "asc" }, { rolloutId: "asc" }] });
  const canary = (await canaryRun(database, ctx, tasks, "canary_stage", window)) ?? {
    environment: boundedEnvironment(ctx),
    modelServer: ctx.versions.modelServer,
    window: { start: window.start, end: window.end },
    outcomes: [],
    ...(window.stop ? { stop: window.stop } : {}),
  };
  return { canary, rollbackTest: rollbackTest(ctx, pins, tasks, computedAt), computedAt, versions: ctx.versions, producedBy: producedBy(ctx) };
}
