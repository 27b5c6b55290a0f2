// A training run's lifecycle, in one place: its states, the events that move it, their guards (pure `decideRun`)
// and the only code that writes a run's status — `createQueuedRun` (every run starts queued) and `moveRun` (a
// compare-and-set on the status, and on the worker's hold, the decision started from). The worker's hold (worker
// id and lease) is among the facts the guards read, so it is written here too. A status write anywhere else fails
// tests/unit/training/run-status-writers.test.ts.
import { FAMILY_ENDED_REASON } from "@/lib/training/run-status";
import type { Db, Prisma, Tx } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { announceQueuedRun } from "./run-news";

/** "stopped": a person ended it before its update budget (apart from "finished": the work ran to its end). */
export const RUN_STATUSES = ["queued", "running", "paused", "finished", "stopped", "failed"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** Nothing leaves these: a person's stop is never overwritten by a worker that finished or failed meanwhile. */
export const TERMINAL_STATUSES: readonly RunStatus[] = ["finished", "stopped", "failed"];
export const isRunStatus = (s: string): s is RunStatus => (RUN_STATUSES as readonly string[]).includes(s);

/** What may happen to a run: a person's pause, resume and stop (by name), and a worker's (by its id). */
export type RunEvent =
  | { kind: "pause" | "resume" | "stop"; by: string }
  | { kind: "claim"; workerId: string; leaseMs: number }
  | { kind: "pauseOnStopCondition"; workerId: string; reason: string }
  | { kind: "finish"; workerId: string; familyEnded: boolean }
  | { kind: "fail"; workerId: string; message: string };
export type RunEventKind = RunEvent["kind"];

type Rule = { from: readonly RunStatus[]; to: RunStatus; verb: string };
/**
 * The machine. A claim takes a queued run, or a running one whose lease lapsed (its worker was killed). A person
 * pauses what has not ended, resumes only what is paused, stops anything not ended. A worker's pause on a stop
 * condition applies only to a run still running under it (a person's pause or stop that came in meanwhile
 * stands); finishing and failing say what happened to the work, so they also end a run a person paused under it.
 */
export const RUN_RULES: Record<RunEventKind, Rule> = {
  claim: { from: ["queued", "running"], to: "running", verb: "claimed" },
  pause: { from: ["queued", "running"], to: "paused", verb: "paused" },
  resume: { from: ["paused"], to: "queued", verb: "resumed" },
  stop: { from: ["queued", "running", "paused"], to: "stopped", verb: "stopped" },
  pauseOnStopCondition: { from: ["running"], to: "paused", verb: "paused by a stop condition" },
  finish: { from: ["running", "paused"], to: "finished", verb: "finished" },
  fail: { from: ["running", "paused"], to: "failed", verb: "failed" },
};
export const RUN_EVENT_KINDS = Object.keys(RUN_RULES) as RunEventKind[];

/** What the guards read: the run's status and its worker's hold, at `now`. */
export type RunFacts = { id?: string; status: string; workerId: string | null; leaseUntil: Date | null; now: Date };
/** The worker's hold after the move: kept (the worker notices a pause or stop and lets go), taken or dropped. */
export type Hold = "keep" | "drop" | { workerId: string; until: Date };
/** What the writer must still find at commit besides the status. */
export type Requires = { heldBy: string } | { leaseLapsedAt: Date } | null;
/** `reason`: the statusReason the move records when allowed; why not when refused. */
export type RunDecision =
  | { allowed: true; from: RunStatus; to: RunStatus; reason: string | null; hold: Hold; requires: Requires }
  | { allowed: false; reason: string };

const workerOf = (e: RunEvent) => ("workerId" in e ? e.workerId : null);

export function decideRun(f: RunFacts, e: RunEvent): RunDecision {
  const rule = RUN_RULES[e.kind];
  const run = f.id ? `run ${f.id}` : "the run";
  const no = (why: string): RunDecision => ({ allowed: false, reason: `${run} ${why}; it cannot be ${rule.verb}` });
  if (!isRunStatus(f.status)) return no(`is "${f.status}", not a status of the run lifecycle`);
  if (TERMINAL_STATUSES.includes(f.status)) return no(`is ${f.status}, and nothing leaves ${f.status}`);
  if (!rule.from.includes(f.status)) return no(`is ${f.status}`);
  const allow = (reason: string | null, hold: Hold, requires: Requires = null): RunDecision => ({ allowed: true, from: f.status as RunStatus, to: rule.to, reason, hold, requires });
  const held = f.workerId ? `under worker ${f.workerId}` : "under no worker";
  const worker = workerOf(e);
  if (e.kind === "claim") {
    if (f.status === "queued") return allow(null, { workerId: e.workerId, until: new Date(f.now.getTime() + e.leaseMs) });
    if (f.leaseUntil && f.leaseUntil >= f.now) return no(`is running ${held} until ${f.leaseUntil.toISOString()}`);
    return allow(null, { workerId: e.workerId, until: new Date(f.now.getTime() + e.leaseMs) }, { leaseLapsedAt: f.now });
  }
  if (worker !== null && f.workerId !== worker) return no(`is ${f.status} ${held}, not ${worker}`);
  const requires = worker === null ? null : { heldBy: worker };
  switch (e.kind) {
    case "pause":
      return allow(`paused by ${e.by}`, "keep");
    case "stop":
      return allow(`stopped by ${e.by}`, "keep");
    case "resume":
      return allow(null, "drop");
    case "pauseOnStopCondition":
      return allow(`stop condition: ${e.reason}`, "drop", requires);
    case "finish":
      return allow(e.familyEnded ? FAMILY_ENDED_REASON : null, "drop", requires);
    case "fail":
      return allow(e.message.slice(0, 1_000), "drop", requires);
  }
}

export type RunMove = { from: RunStatus; to: RunStatus; reason: string | null };

const holdData = (hold: Hold) => (hold === "keep" ? {} : hold === "drop" ? { workerId: null, leaseUntil: null } : { workerId: hold.workerId, leaseUntil: hold.until });
const requiresWhere = (r: Requires): Prisma.TrainingRunWhereInput =>
  r === null ? {} : "heldBy" in r ? { workerId: r.heldBy } : { OR: [{ leaseUntil: { lt: r.leaseLapsedAt } }, { leaseUntil: null }] };

/**
 * The one writer of a run's status: decides `event` on the run as it is, then writes the decision only where the
 * run still has the status (and hold) the decision started from. Refused, or moved by someone else in between →
 * CONFLICT naming the state it found. Ending states record their moment (`finishedAt`).
 */
export async function moveRun(db: Db | Tx, runId: string, event: RunEvent, now = new Date()): Promise<RunMove> {
  const facts = await db.trainingRun.findUnique({ where: { id: runId }, select: { status: true, workerId: true, leaseUntil: true } });
  if (!facts) throw new DomainError("NOT_FOUND", `runId: no training run ${runId}`, "runId");
  const d = decideRun({ id: runId, ...facts, now }, event);
  if (!d.allowed) throw new DomainError("CONFLICT", d.reason, "runId");
  const ends = TERMINAL_STATUSES.includes(d.to) ? { finishedAt: now } : {};
  const moved = await db.trainingRun.updateMany({
    where: { id: runId, status: d.from, ...requiresWhere(d.requires) },
    data: { status: d.to, statusReason: d.reason, ...holdData(d.hold), ...ends },
  });
  if (moved.count === 0) {
    const found = await db.trainingRun.findUnique({ where: { id: runId }, select: { status: true, workerId: true } });
    const state = found ? `${found.status}${found.workerId ? ` under worker ${found.workerId}` : ""}` : "gone";
    throw new DomainError("CONFLICT", `run ${runId} changed while it was being ${RUN_RULES[event.kind].verb}: it is ${state} now`, "runId");
  }
  if (d.to === "queued") await announceQueuedRun(db, runId);
  return { from: d.from, to: d.to, reason: d.reason };
}

/** `moveRun` for a worker, to whom a refusal is news, not an error: null when the run could not move. */
export async function moveRunIfAllowed(db: Db | Tx, runId: string, event: RunEvent, now = new Date()): Promise<RunMove | null> {
  try {
    return await moveRun(db, runId, event, now);
  } catch (e) {
    if (e instanceof DomainError && e.code === "CONFLICT") return null;
    throw e;
  }
}

/** Renews the worker's lease while the run is running under it; false once it no longer holds the run. */
export async function renewHold(db: Db | Tx, runId: string, workerId: string, leaseMs: number, now = new Date()): Promise<boolean> {
  const res = await db.trainingRun.updateMany({ where: { id: runId, workerId, status: "running" }, data: { leaseUntil: new Date(now.getTime() + leaseMs) } });
  return res.count === 1;
}

/** The worker lets go of a run (paused or stopped under it, or one it could not move): the status stays. */
export async function letGo(db: Db | Tx, runId: string, workerId: string): Promise<void> {
  await db.trainingRun.updateMany({ where: { id: runId, workerId }, data: { workerId: null, leaseUntil: null } });
}

/** A new run's fields: everything but its place in the lifecycle. */
export type NewRunData = Omit<Prisma.TrainingRunUncheckedCreateInput, "status" | "statusReason" | "workerId" | "leaseUntil" | "finishedAt">;

/** Records a new run, queued and held by nobody, whatever the caller's fields (a spread copy of another run) say. */
export async function createQueuedRun(tx: Tx, data: NewRunData) {
  const { status: _s, statusReason: _r, workerId: _w, leaseUntil: _l, finishedAt: _f, ...fields } = data as Prisma.TrainingRunUncheckedCreateInput;
  const run = await tx.trainingRun.create({ data: { ...fields, status: "queued", statusReason: null, workerId: null, leaseUntil: null, finishedAt: null } });
  await announceQueuedRun(tx, run.id);
  return run;
}
