// One gate run as a state machine stepped by whichever process holds its lease (the server's orchestrator
// loop, a worker with --gates; several may run — a lease decides who steps a run, so each step happens once):
//   queued → collecting (locked gate for both sides + rollback probes) → canary (bounded, watched from its
//   spans, in waves) → verifying (waits for the verification records) → judging (seals stage 3) → done.
// A run of kind "canary-stage" (queued by the canary-step approval) takes the same path with rollback probes
// only, serves the candidate as `canary_stage` tasks, aborts to the exact parent at the first breach
// (canary-stage.ts) and seals a `canary-stage` link.
// Each phase has a deadline: what has not come back by then is cancelled and judged unavailable, never passed.
// A stage closes only once its rollouts all ended and the policy's settle window passed with nothing new for them
// (settle.ts); what moves on before the seal is judged again, what comes after it is late evidence.
// The gate runs no agent: every case is a rollout a runner serves through the store.
import type { Database } from "@/server/db/client";
import type { LinkContent } from "@/server/gate/receipt/seal";
import type { VersionSet } from "@/server/gate/versions";
import { boundaryBreach, type CanaryObservation } from "@/server/gate/evidence/gate-rollouts";
import { loadReceipt, openReceipt, sealLink } from "../links";
import { lateEvidenceOf } from "../late-evidence";
import { stage2FromStore } from "../rollups";
import { assembleCanaryStage, assembleStage3, type CanaryWindow } from "./assemble";
import { abortStageOf, canaryPointerMovedOff } from "./canary-stage";
import { gateRunContext, isPinned, type GateRunContext, type InForceAtStart } from "./context";
import { recordFinished, resultOf, parseResult } from "./judge";
import { rejudgeMoved, settle, type Settling } from "./settle";
import { resolvePins, type GatePins } from "./pins";
import { cancelTasks, enqueueTasks, isCanaryPhase, pendingTasks, readTasks, tasksOf, type TaskSpec } from "./tasks";
import { recordCheckResults } from "../check-results";
import { currentPolicy } from "../registries";
import { rerunCarry } from "@/server/promotion/rerun";
import { settleSecondsOf } from "@/server/gate/policy";

const LEASE_MS = 30_000;
/** Canary tasks in flight at once: a breach seen in one stops the rest before they touch a destination. */
export const CANARY_WAVE = 4;
export const ROLLBACK_PROBES = 5;

export type RunPhase = "queued" | "collecting" | "canary" | "verifying" | "judging" | "done" | "failed";
/**
 * `inForce`: the registry records and parent in force when the run started — what every later step computes with;
 * `settling`: the stage whose rollouts all ended, waiting out the settle window before it closes (settle.ts).
 */
export type RunState = { pins: GatePins; canary: CanaryWindow | null; abort?: { moved: boolean; detail: string }; inForce?: InForceAtStart; settling?: Settling };

type RunRow = NonNullable<Awaited<ReturnType<Database["db"]["gateRun"]["findUnique"]>>>;

const secondsFrom = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);

/** Steps' time not yet written to the run's row (no-op steps write nothing; the next real step adds it). */
const unflushedMs = new Map<string, number>();
/** When this process last wrote each run's progress counts: within a phase they are refreshed at most this often. */
const progressWrittenAt = new Map<string, number>();
const PROGRESS_EVERY_MS = 1_000;

async function claim(database: Database, runId: string, owner: string, now: Date): Promise<RunRow | null> {
  const row = await database.db.gateRun.findUnique({ where: { id: runId } });
  if (!row || !["queued", "running"].includes(row.status)) return null;
  const held = row.leaseUntil && row.leaseUntil > now;
  if (held && row.leaseOwner !== owner) return null;
  // Ours for a while yet: no write needed to keep stepping it.
  if (held && row.leaseUntil!.getTime() - now.getTime() > LEASE_MS / 2) return row;
  const { count } = await database.db.gateRun.updateMany({
    where: { id: runId, status: { in: ["queued", "running"] }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }, { leaseOwner: owner }] },
    data: { leaseOwner: owner, leaseUntil: new Date(now.getTime() + LEASE_MS) },
  });
  return count === 1 ? database.db.gateRun.findUnique({ where: { id: runId } }) : null;
}

const isStage = (run: RunRow) => run.kind === "canary-stage";
/** The tasks a run's canary is made of: the admission's bounded canary, or the canary stage. */
const canaryPhaseOf = (run: RunRow) => (isStage(run) ? ("canary_stage" as const) : ("canary" as const));

function lockedSpecs(ctx: GateRunContext, pins: GatePins): TaskSpec[] {
  const specs: TaskSpec[] = [];
  const { candidate, parent } = pins;
  if (isPinned(ctx.heldOut) && ctx.scoring.ok && candidate.pinId && parent.pinId) {
    for (const c of ctx.heldOut.cases) {
      specs.push({ phase: "locked_gate", side: "candidate", caseId: c.caseId, input: c.input, resourcesId: candidate.pinId });
      specs.push({ phase: "locked_gate", side: "parent", caseId: c.caseId, input: c.input, resourcesId: parent.pinId });
    }
  }
  return specs;
}

function rollbackSpecs(ctx: GateRunContext, pins: GatePins): TaskSpec[] {
  const specs: TaskSpec[] = [];
  const { parent } = pins;
  // Probes run the parent inside the same bounded task set the canary uses (the held-out set when none is pinned).
  const probeCases = isPinned(ctx.canary) ? ctx.canary.cases : isPinned(ctx.heldOut) ? ctx.heldOut.cases : [];
  if (parent.pinId && probeCases.length > 0) {
    for (let i = 0; i < ROLLBACK_PROBES; i++) {
      const c = probeCases[i % probeCases.length]!;
      specs.push({ phase: "rollback", side: null, caseId: `${c.caseId}#probe-${i + 1}`, input: c.input, resourcesId: parent.pinId });
    }
  }
  return specs;
}

async function start(database: Database, run: RunRow, ctx: GateRunContext, deadlineSeconds: number, now: Date) {
  const loaded = await loadReceipt(database, run.candidateId);
  if (!loaded.verification.ok) throw new Error("the stored receipt fails verification; the gate does not run on it");
  if (isStage(run)) {
    if (!loaded.receipt?.stage3) throw new Error("the canary stage follows a sealed stage 3 and a canary-step approval; this receipt has no stage 3");
    const pins = await resolvePins(database, ctx);
    await enqueueTasks(database, ctx, rollbackSpecs(ctx, pins), deadlineSeconds);
    const state: RunState = { pins, canary: null, inForce: ctx.inForce };
    return { phase: "collecting" as const, pins: JSON.stringify(state), deadlineAt: secondsFrom(now, deadlineSeconds) };
  }
  if (loaded.chain.length === 0) await openReceipt(database, run.candidateId);
  const receipt = (await loadReceipt(database, run.candidateId)).receipt!;
  // A first run seals stage 2; a re-run seals a new one when admitted rollouts changed since (late evidence).
  if (!receipt.stage2 || (await lateEvidenceOf(database.db, receipt.stage2)).length > 0) {
    const candidate = await database.db.candidate.findUniqueOrThrow({ where: { id: run.candidateId } });
    await sealLink(database, run.candidateId, "stage2", await stage2FromStore(database, candidate, ctx.versions));
  }
  const pins = await resolvePins(database, ctx);
  await enqueueTasks(database, ctx, [...lockedSpecs(ctx, pins), ...rollbackSpecs(ctx, pins)], deadlineSeconds);
  const state: RunState = { pins, canary: null, inForce: ctx.inForce };
  return { phase: "collecting" as const, pins: JSON.stringify(state), deadlineAt: secondsFrom(now, deadlineSeconds) };
}

async function collect(database: Database, run: RunRow, ctx: GateRunContext, state: RunState, deadlineSeconds: number, now: Date, wait: Waiting) {
  const pending = await pendingTasks(database, run.id, ["locked_gate", "rollback"]);
  // One read of every pending rollout's status; spans and attempts only for those that finished.
  const reads = await readTasks(database, pending);
  const recorded = await recordFinished(database, ctx, reads);
  // The phase moves on when the last of them ends: that is when the next step matters.
  wait.on = { rollouts: reads.filter((r) => !r.finished).map((r) => r.task.rolloutId), all: true, until: run.deadlineAt! };
  const left = pending.length - recorded;
  if (left > 0 && now < run.deadlineAt!) return recorded === 0 ? null : {};
  if (left > 0) await cancelTasks(database, await pendingTasks(database, run.id, ["locked_gate", "rollback"]), `no result by the deadline (${deadlineSeconds} s)`);
  else if (now < run.deadlineAt!) {
    // All ended: the evidence closes once the settle window passed with nothing new for them (the deadline caps it).
    const moved = await rejudgeMoved(database, ctx, await tasksOf(database, run.id, ["locked_gate", "rollback"]));
    const s = settle(state.settling, "collecting", moved, now, await settleSecondsFor(database, ctx));
    state.settling = s.settling;
    if (!s.closed) {
      wait.on = undefined; // nothing ends while a stage settles: the poll steps it
      return s.wrote ? { pins: JSON.stringify(state) } : null;
    }
  }
  if (!state.pins.candidate.pinId || !isPinned(ctx.canary)) {
    if (isStage(run)) throw new Error(!state.pins.candidate.pinId ? "the candidate's resources could not be pinned, so the canary stage cannot serve them" : "the receipt pins no published canary dataset, so the canary stage has no bounded task set to serve");
    return { phase: "judging" as const };
  }
  const boundary = ctx.stage1.expectedEvidence.canaryBoundary;
  state.canary = { start: now.toISOString(), end: now.toISOString() };
  return { phase: "canary" as const, pins: JSON.stringify(state), deadlineAt: secondsFrom(now, Math.min(boundary.maxWallTimeSeconds, deadlineSeconds)) };
}

async function watchCanary(database: Database, run: RunRow, ctx: GateRunContext, state: RunState, deadlineSeconds: number, now: Date, wait: Waiting) {
  const phase = canaryPhaseOf(run);
  const boundary = ctx.stage1.expectedEvidence.canaryBoundary;
  const cases = isPinned(ctx.canary) ? ctx.canary.cases.slice(0, boundary.maxTasks) : [];
  // A finished task whose rollout moved on (a span flushed late, a new attempt) is judged again before anything else.
  let tasks = await tasksOf(database, run.id, phase);
  const movedOn = await rejudgeMoved(database, ctx, tasks);
  if (movedOn) tasks = await tasksOf(database, run.id, phase);
  const pending = tasks.filter((t) => t.state === "pending");
  const reads = await readTasks(database, pending, { running: true });
  const recorded = await recordFinished(database, ctx, reads);
  // What every canary task did so far: recorded results, and the spans of those still running.
  const observed: CanaryObservation[] = [];
  for (const t of tasks.filter((x) => x.state !== "pending")) {
    const r = parseResult(t.result);
    if (r?.kind === "canary") observed.push(r);
  }
  for (const read of reads) {
    const r = resultOf(ctx, read);
    if (r?.kind === "canary") observed.push(r);
  }
  const window = state.canary!;
  const close = async (stop?: CanaryWindow["stop"]) => {
    const still = await pendingTasks(database, run.id, [phase]);
    await cancelTasks(database, still, stop ? stop.reason : "the canary closed");
    state.canary = { ...window, end: now.toISOString(), ...(stop ? { stop } : {}) };
    if (stop?.kind === "breach" && isStage(run)) state.abort = await abortStage(database, run, ctx, stop.reason, now);
    return { phase: "verifying" as const, pins: JSON.stringify(state), deadlineAt: secondsFrom(now, deadlineSeconds) };
  };
  const breach = boundaryBreach(observed, boundary);
  if (breach) return close({ kind: "breach", reason: breach, at: now.toISOString() });
  if (isStage(run)) {
    const moved = await canaryPointerMovedOff(database, ctx);
    if (moved) return close({ kind: "rolled_back", reason: moved, at: now.toISOString() });
  }
  // The lease makes this step the only writer of the run's tasks: what it did not record is still in flight.
  const inFlight = pending.length - recorded;
  const ids = reads.filter((r) => !r.finished).map((r) => r.task.rolloutId);
  if (tasks.length >= cases.length && inFlight === 0) {
    const s = settle(state.settling, "canary", movedOn, now, await settleSecondsFor(database, ctx));
    state.settling = s.settling;
    if (s.closed || now >= run.deadlineAt!) return close();
    return s.wrote ? { pins: JSON.stringify(state) } : null;
  }
  if (now >= run.deadlineAt!) {
    const kind = boundary.maxWallTimeSeconds <= deadlineSeconds ? "wall_time" : "deadline";
    const reason = kind === "wall_time" ? `the boundary's wall time (${boundary.maxWallTimeSeconds} s) was reached with ${inFlight} task(s) unfinished` : `the run's deadline (${deadlineSeconds} s) was reached with ${inFlight} task(s) unfinished`;
    return close({ kind, reason, at: now.toISOString() });
  }
  const next = cases.slice(tasks.length, tasks.length + Math.max(0, CANARY_WAVE - inFlight));
  if (next.length) {
    const timeout = Math.max(1, (run.deadlineAt!.getTime() - now.getTime()) / 1000);
    ids.push(...(await enqueueTasks(database, ctx, next.map((c) => ({ phase, side: null, caseId: c.caseId, input: c.input, resourcesId: state.pins.candidate.pinId! })), timeout)));
  }
  // Any canary task ending frees a place in the wave (and may show a breach): each is worth a step.
  wait.on = { rollouts: ids, all: false };
  return next.length || recorded ? {} : null;
}

/** A breach in the canary stage: the canary pointer goes back to the exact parent before anything else runs. */
const abortStage = (database: Database, run: RunRow, ctx: GateRunContext, reason: string, now: Date) => abortStageOf(database, run, ctx.stage1, reason, now);

/** The settle window of the policy in force for the candidate's agent. */
async function settleSecondsFor(database: Database, ctx: GateRunContext): Promise<number> {
  return settleSecondsOf(await currentPolicy(database.db, ctx.stage1.agent));
}

/**
 * Until the seal, whatever moved on since a task was judged is judged again (settle.ts); a canary breach found
 * so stops the canary as one seen live would — in the canary stage through the same abort. True: state changed.
 */
async function recheckBeforeSeal(database: Database, run: RunRow, ctx: GateRunContext, state: RunState, now: Date): Promise<boolean> {
  if (!(await rejudgeMoved(database, ctx, await tasksOf(database, run.id)))) return false;
  if (!state.canary || state.canary.stop?.kind === "breach") return false;
  const observed = (await tasksOf(database, run.id, canaryPhaseOf(run))).flatMap((t) => {
    const r = parseResult(t.result);
    return r?.kind === "canary" ? [r] : [];
  });
  const breach = boundaryBreach(observed, ctx.stage1.expectedEvidence.canaryBoundary);
  if (!breach) return false;
  state.canary = { ...state.canary, stop: { kind: "breach", reason: breach, at: now.toISOString() } };
  if (isStage(run)) state.abort = await abortStage(database, run, ctx, breach, now);
  return true;
}

async function awaitVerifications(database: Database, run: RunRow, ctx: GateRunContext, state: RunState, now: Date, wait: Waiting) {
  const changed = (await recheckBeforeSeal(database, run, ctx, state, now)) ? { pins: JSON.stringify(state) } : null;
  const done = (await tasksOf(database, run.id, canaryPhaseOf(run))).filter((t) => t.state === "done");
  const verified = await database.db.gateVerification.findMany({ where: { rolloutId: { in: done.map((t) => t.rolloutId) } }, select: { rolloutId: true } });
  if (verified.length >= done.length || now >= run.deadlineAt!) return { phase: "judging" as const, ...changed };
  // Judging waits for the last record: the verification route tells this process of each one as it lands.
  const have = new Set(verified.map((v) => v.rolloutId));
  wait.on = { rollouts: done.map((t) => t.rolloutId).filter((id) => !have.has(id)), all: true, until: run.deadlineAt! };
  return changed;
}

async function judge(database: Database, run: RunRow, ctx: GateRunContext, state: RunState, now: Date) {
  await recheckBeforeSeal(database, run, ctx, state, now);
  // Sealed with the versions this run computed with (ctx.versions, fixed at its start), never those in force now.
  const link = isStage(run)
    ? await sealLink(database, run.candidateId, "canary-stage", (await assembleCanaryStage(database, ctx, state.pins, state.canary!, now.toISOString())) as LinkContent<"canary-stage">)
    : await sealLink(database, run.candidateId, "stage3", { ...(await assembleStage3(database, ctx, state.pins, state.canary, now.toISOString())), ...(await carried(database, run.candidateId, ctx.versions, now)) } as LinkContent<"stage3">);
  await recordCheckResults(database, run.candidateId, now);
  return { phase: "done" as const, status: "done", finishedAt: now, linkDigest: link.digest, pins: JSON.stringify(state), leaseUntil: null, leaseOwner: null };
}

/** A re-run after a sealed canary stage still fresh keeps the candidate at the default step (server/promotion decides). */
async function carried(database: Database, candidateId: string, versions: VersionSet, now: Date) {
  const { chain, receipt } = await loadReceipt(database, candidateId);
  if (!receipt?.canaryStage) return {};
  const candidate = await database.db.candidate.findUniqueOrThrow({ where: { id: candidateId }, select: { agent: true } });
  const at = { versions, policy: await currentPolicy(database.db, candidate.agent), now, lateEvidence: await lateEvidenceOf(database.db, receipt.stage2) };
  const { carriesCanaryStage } = rerunCarry(chain, at);
  return carriesCanaryStage ? { carriesCanaryStage } : {};
}

/**
 * The rollouts whose end (while verifying: whose verification) is worth stepping the run again for (all of
 * them, or any one); the orchestrator wakes on them rather than waiting out its poll. Without it, the run is
 * stepped at the poll. `until`: nothing but their end or this deadline moves the run on, so the poll may be
 * sparser (only the progress counts wait).
 */
export type Waiting = { on?: { rollouts: string[]; all: boolean; until?: Date } };
/** When to step the run again: at once (it changed phase), when these rollouts end, or (absent) at the poll. */
export type NextStep = "now" | NonNullable<Waiting["on"]>;
export type StepResult = { runId: string; candidateId: string; phase: RunPhase; status: string; error?: string; next?: NextStep };

/** Steps one run once if this owner can hold its lease; null when another owner holds it or it is finished. */
export async function stepGateRun(database: Database, runId: string, owner: string, deadlineSeconds: number, now = new Date()): Promise<StepResult | null> {
  const t0 = performance.now();
  const run = await claim(database, runId, owner, now);
  if (!run) return null;
  // null: nothing changed this step (no result arrived, no deadline passed) — nothing to write either.
  let patch: Record<string, unknown> | null = {};
  const wait: Waiting = {};
  try {
    const ctx = await gateRunContext(database, run);
    const state = run.pins ? (JSON.parse(run.pins) as RunState) : null;
    const phase = run.phase as RunPhase;
    if (run.status === "queued" || phase === "queued") patch = { status: "running", startedAt: now, ...(await start(database, run, ctx, deadlineSeconds, now)) };
    else if (phase === "collecting") patch = await collect(database, run, ctx, state!, deadlineSeconds, now, wait);
    else if (phase === "canary") patch = await watchCanary(database, run, ctx, state!, deadlineSeconds, now, wait);
    else if (phase === "verifying") patch = await awaitVerifications(database, run, ctx, state!, now, wait);
    else if (phase === "judging") patch = await judge(database, run, ctx, state!, now);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const pending = await pendingTasks(database, run.id, ["locked_gate", "rollback", "canary", "canary_stage"]);
    await cancelTasks(database, pending, `the gate run failed: ${message.slice(0, 200)}`).catch(() => {});
    patch = { phase: "failed", status: "failed", finishedAt: now, error: message.slice(0, 2000), leaseUntil: null, leaseOwner: null };
  }
  const carried = unflushedMs.get(run.id) ?? 0;
  if (patch === null) {
    unflushedMs.set(run.id, carried + (performance.now() - t0));
    return { runId: run.id, candidateId: run.candidateId, phase: run.phase as RunPhase, status: run.status, ...(wait.on ? { next: wait.on } : {}) };
  }
  unflushedMs.delete(run.id);
  // The counts are for people watching: a step that moves the run on writes them, others at most once a second.
  const moved = patch.phase !== undefined || patch.status !== undefined;
  const fresh = !moved && Date.now() - (progressWrittenAt.get(run.id) ?? 0) < PROGRESS_EVERY_MS;
  if (!fresh) {
    if (progressWrittenAt.size > 256 && !progressWrittenAt.has(run.id)) progressWrittenAt.clear();
    progressWrittenAt.set(run.id, Date.now());
  }
  const progress = fresh ? undefined : JSON.stringify(await progressOf(database, run.id));
  const spent = Math.round(carried + (performance.now() - t0));
  const updated = await database.db.gateRun.update({ where: { id: run.id }, data: { ...patch, ...(progress ? { progress } : {}), orchestrationMs: { increment: spent } } });
  // A step that moved the run to another phase waits on nothing yet: the next one runs at once.
  const next: NextStep | undefined = updated.phase !== run.phase ? "now" : wait.on;
  return { runId: run.id, candidateId: run.candidateId, phase: updated.phase as RunPhase, status: updated.status, ...(next ? { next } : {}), ...(updated.error ? { error: updated.error } : {}) };
}

/** Counts per phase for the page and the API: asked, finished, still waiting, unavailable/cancelled, verified. */
export async function progressOf(database: Database, runId: string) {
  const groups = await database.db.gateRunTask.groupBy({ by: ["phase", "state"], where: { gateRunId: runId }, _count: { _all: true } });
  // Verifications come only for canary tasks: a run that has asked for none has none to count.
  const verified = groups.some((g) => isCanaryPhase(g.phase)) ? await database.db.gateVerification.count({ where: { gateRunId: runId } }) : 0;
  const count = (phase: string) => {
    const n = (state?: string) => groups.filter((g) => g.phase === phase && (state === undefined || g.state === state)).reduce((s, g) => s + g._count._all, 0);
    return { asked: n(), finished: n("done"), waiting: n("pending"), cancelled: n("cancelled") };
  };
  return { locked_gate: count("locked_gate"), rollback: count("rollback"), canary: { ...count("canary"), verified }, canary_stage: { ...count("canary_stage"), verified } };
}
