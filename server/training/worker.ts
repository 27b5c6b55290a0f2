// The trainer worker: claims a queued run (or a running one whose worker's lease ran out — a killed worker),
// restores it from its last checkpoint, and executes it update by update: collect (through the store for
// PPO/Q-learning, in-process otherwise), learn, record the update's metrics, checkpoint every N updates,
// publish candidates, and — for continual runs — pause itself when the gate's stop conditions say so.
// Its curve is the trainer's validation split: the locked held-out set is the gate's to read, not the learner's.
// Between updates and while waiting on runners it re-reads the run, so pause/stop act within a poll.
import { hostname } from "node:os";
import { waitOrWake } from "@/lib/async/wait-or-wake";
import type { AuditActor } from "@/server/audit/audit-log";
import type { Database } from "@/server/db/client";
import { canonicalJson, newId } from "@/server/digest";
import type { EvidenceWindow } from "@/server/gate/stop-conditions";
import type { RolloutRollup } from "@/server/gate/receipt/stage2";
import type { LightningStore } from "@/server/store";
import { evaluatePolicy, type Evaluation } from "@/server/trainers/evaluate";
import type { FamilyName } from "@/server/trainers/family";
import { isPolicy } from "@/server/trainers/policy";
import { resolveRunContext, type RunContext } from "./context";
import { requestGateRun } from "@/server/receipts/gate-queue";
import { DomainError } from "@/server/errors";
import { collectThroughStore } from "./collect";
import { letGo, moveRunIfAllowed, renewHold, type RunEvent } from "./lifecycle";
import { publishCandidate } from "./publish";
import { onRunQueued } from "./run-news";
import { refreshRunSummary } from "./summary";

/** Validation rollouts each candidate of a continual run gets before its gate run. */
const VALIDATION_EPISODES = 16;
import { evaluateCandidate, openSession, type RunSession } from "./session";
import { evidenceWindow, judgeWindows, protectedRegressions } from "./stop";

export type WorkerOptions = { workerId?: string; leaseMs?: number; pollMs?: number; log?: (line: string) => void };

/** The longest hold a renewal grants, however slow the updates: a killed worker's run waits at most this long. */
export const MAX_LEASE_MS = 10 * 60_000;

/**
 * The hold a renewal grants: the configured lease, or three times the longest stretch between two renewals of
 * this run so far when that is longer. An update's learning is one synchronous stretch (a transformer epoch
 * under load can outlast 15 s) that nothing can renew during; a lease shorter than that would let a second
 * worker take a run that is still being trained. Collection renews often, so waiting on runners does not count.
 */
export function leaseFor(baseMs: number, longestGapMs: number): number {
  return Math.min(MAX_LEASE_MS, Math.max(baseMs, 3 * longestGapMs));
}

type RunRow = NonNullable<Awaited<ReturnType<Database["db"]["trainingRun"]["findUnique"]>>>;

export class TrainerWorker {
  readonly workerId: string;
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #log: (line: string) => void;
  readonly #actor: AuditActor;
  /** The run being executed: when its hold was last renewed, and the longest stretch between renewals (ms). */
  #lastRenewal: number | null = null;
  #longestGapMs = 0;

  constructor(
    readonly database: Database,
    readonly store: LightningStore,
    opts: WorkerOptions = {},
  ) {
    this.workerId = opts.workerId ?? `trainer-${hostname()}-${process.pid}`;
    this.#leaseMs = opts.leaseMs ?? 15_000;
    this.#pollMs = opts.pollMs ?? 500;
    this.#log = opts.log ?? (() => {});
    this.#actor = { kind: "service", id: `svc-${this.workerId}`, name: `trainer worker ${this.workerId}`, grants: [{ role: "algorithm", agent: null }] };
  }

  get #db() {
    return this.database.db;
  }

  /** Atomically takes one run: a queued one, or a running one whose lease expired. Returns its id. */
  async claim(): Promise<string | null> {
    const now = new Date();
    const open = await this.#db.trainingRun.findMany({
      where: { OR: [{ status: "queued" }, { status: "running", leaseUntil: { lt: now } }, { status: "running", leaseUntil: null }] },
      orderBy: { createdAt: "asc" },
      take: 5,
      select: { id: true, status: true, leaseUntil: true },
    });
    for (const r of open) {
      if (await moveRunIfAllowed(this.#db, r.id, { kind: "claim", workerId: this.workerId, leaseMs: this.#leaseMs }, now)) return r.id;
    }
    return null;
  }

  /** Claims and executes one run; false when there was none. */
  async runOne(): Promise<boolean> {
    const id = await this.claim();
    if (!id) return false;
    await this.execute(id);
    return true;
  }

  #signal: AbortSignal | undefined;

  /**
   * Claims and executes runs until the signal aborts. Idle, it polls every pollMs — for lapsed leases and, on
   * SQLite, new runs — and on PostgreSQL wakes as soon as any process queues a run (run-news.ts).
   */
  async run(signal: AbortSignal): Promise<void> {
    this.#signal = signal;
    let news = false;
    let wake: (() => void) | null = null;
    const unsubscribe = onRunQueued(this.database, () => {
      news = true;
      wake?.();
    });
    try {
      while (!signal.aborted) {
        news = false;
        const worked = await this.runOne().catch((e: Error) => (this.#log(`worker error: ${e.message}`), false));
        if (worked || news) continue; // a run queued while this one looked is claimed now, not a poll later
        await waitOrWake(this.#pollMs, signal, (w) => (wake = w));
      }
    } finally {
      unsubscribe();
    }
  }

  /** True while this worker still holds the run and it should keep going; renews the lease. */
  async holds(runId: string): Promise<boolean> {
    // Asked to stop: hand the run back (checkpointed) so another worker continues it at once.
    if (this.#signal?.aborted) return false;
    const now = Date.now();
    if (this.#lastRenewal !== null) this.#longestGapMs = Math.max(this.#longestGapMs, now - this.#lastRenewal);
    this.#lastRenewal = now;
    return renewHold(this.#db, runId, this.workerId, leaseFor(this.#leaseMs, this.#longestGapMs));
  }

  async #event(runId: string, kind: string, message: string, data?: unknown) {
    this.#log(`${runId}: ${message}`);
    await this.#db.trainingEvent.create({ data: { id: newId("tev"), runId, kind, message, data: data === undefined ? null : canonicalJson(data) } });
  }

  async #checkpoint(runId: string, session: RunSession) {
    const c = session.checkpoint();
    const state = canonicalJson(c);
    await this.#db.trainingCheckpoint.upsert({ where: { runId_update: { runId, update: session.updates } }, create: { runId, update: session.updates, digest: c.digest, state }, update: { digest: c.digest, state } });
  }

  /**
   * Ends this worker's hold on a run through the run lifecycle: finished, failed, or paused by a stop condition.
   * When the lifecycle refuses (a person stopped the run meanwhile, or paused it before a stop condition could),
   * the run stays as the person left it and the worker just lets go. True when the status moved.
   */
  async #settle(runId: string, event: RunEvent): Promise<boolean> {
    const moved = await moveRunIfAllowed(this.#db, runId, event);
    if (!moved) await letGo(this.#db, runId, this.workerId);
    await refreshRunSummary(this.#db, runId);
    return moved !== null;
  }

  /** Lets go of a run that was paused or stopped under it (after checkpointing what it learned). */
  async #release(runId: string, session: RunSession) {
    if (session.updates > 0) await this.#checkpoint(runId, session);
    await letGo(this.#db, runId, this.workerId);
  }

  async execute(runId: string): Promise<void> {
    const run = await this.#db.trainingRun.findUnique({ where: { id: runId } });
    if (!run) return;
    this.#lastRenewal = null;
    this.#longestGapMs = 0;
    try {
      await this.#execute(run);
    } catch (e) {
      const message = (e as Error).message.slice(0, 1_000);
      if (await this.#settle(runId, { kind: "fail", workerId: this.workerId, message })) await this.#event(runId, "failed", `failed: ${message}`);
    }
  }

  async #execute(run: RunRow): Promise<void> {
    const ctx = await resolveRunContext(this.database, this.store, run);
    const init = { environment: ctx.environment, distribution: ctx.distribution, seed: run.seed, data: ctx.data, heldOut: ctx.heldOut, validation: ctx.validation, family: run.family as FamilyName, config: JSON.parse(run.config), parent: ctx.parent, codeRevision: run.codeRevision, retryBudget: run.retryBudget };
    const last = await this.#db.trainingCheckpoint.findFirst({ where: { runId: run.id }, orderBy: { update: "desc" } });
    const session = openSession({ runId: run.id, agent: run.agent, store: this.store, init, checkpoint: last ? JSON.parse(last.state) : undefined });
    // The parent and every update are measured on the trainer's validation split, never on the exam.
    const parentEval = isPolicy(ctx.parent) ? evaluatePolicy(ctx.environment, ctx.parent, ctx.validation) : null;
    // Anything recorded after the checkpoint is re-done: drop those metrics so the curve never shows both.
    await this.#db.trainingMetric.deleteMany({ where: { runId: run.id, update: { gt: session.updates } } });
    await this.#db.trainingRun.update({
      where: { id: run.id },
      data: { startedAt: run.startedAt ?? new Date(), stage1Facts: run.stage1Facts ?? canonicalJson(session.facts), parentHeldOutReward: parentEval?.meanReward ?? null, updatesDone: session.updates },
    });
    await refreshRunSummary(this.#db, run.id);
    await this.#event(run.id, last ? "resumed" : "started", last ? `${this.workerId} resumed from the checkpoint at update ${last.update}` : `${this.workerId} started ${run.family}`);

    const windows: EvidenceWindow[] = [];
    let rollups: RolloutRollup[] = [];
    const keepGoing = () => this.holds(run.id);
    while (session.updates < run.updatesTotal && !session.finished) {
      // SQLite calls resolve as microtasks: yield to timers and I/O once per update so the process stays responsive.
      await new Promise((r) => setImmediate(r));
      if (!(await keepGoing())) return this.#release(run.id, session);
      if (run.paceSeconds > 0 && !(await this.#pace(run))) return this.#release(run.id, session);
      const step = await session.step(keepGoing);
      if (!step) return this.#release(run.id, session);
      rollups.push(...step.rollups);
      const evaluation = evaluateCandidate(init, session.candidate(), ctx.validation);
      await this.#recordUpdate(run, step, evaluation);
      if (session.updates % run.checkpointEvery === 0) await this.#checkpoint(run.id, session);
      const due = run.continual && session.updates % run.candidateEvery === 0 && session.updates < run.updatesTotal && !session.finished;
      if (!due) continue;
      await this.#publish(run, session, ctx);
      if (!session.throughStore) continue;
      windows.push(
        evidenceWindow(
          { label: `updates ${session.updates - run.candidateEvery + 1}–${session.updates}`, rollups, parentResolvable: await this.#parentLoads(ctx), protectedFamilies: parentEval && evaluation ? protectedRegressions(parentEval, evaluation, session.facts) : null },
          session.facts,
        ),
      );
      rollups = [];
      const decision = judgeWindows(windows.slice(-2), run.retryBudget);
      if (decision.action === "pause") {
        const reason = decision.reasons.map((r) => r.sentence).join(" ");
        await this.#checkpoint(run.id, session);
        if (await this.#settle(run.id, { kind: "pauseOnStopCondition", workerId: this.workerId, reason })) await this.#event(run.id, "paused", `paused by the gate's stop conditions: ${reason}`, { ...decision, window: windows.at(-1) });
        return;
      }
      await this.#event(run.id, "evidence", decision.usefulProgress ? "evidence healthy; reward rising" : "evidence healthy", { ...decision, window: windows.at(-1) });
    }
    await this.#checkpoint(run.id, session);
    if (!(await keepGoing())) return this.#release(run.id, session);
    await this.#publish(run, session, ctx);
    if (await this.#settle(run.id, { kind: "finish", workerId: this.workerId, familyEnded: session.finished })) await this.#event(run.id, "finished", `finished after ${session.updates} updates`);
  }

  async #recordUpdate(run: RunRow, step: NonNullable<Awaited<ReturnType<RunSession["step"]>>>, evaluation: Evaluation | null) {
    const row = { episodes: step.episodes, meanReward: step.meanReward, heldOutReward: evaluation?.meanReward ?? null, coverage: step.coverage, retries: step.retries, failed: step.failed, figures: canonicalJson(step.figures), at: new Date() };
    await this.#db.trainingMetric.upsert({ where: { runId_update: { runId: run.id, update: step.update } }, create: { runId: run.id, update: step.update, ...row }, update: row });
    await this.#db.trainingRun.updateMany({ where: { id: run.id, workerId: this.workerId }, data: { updatesDone: step.update, episodesDone: { increment: step.episodes } } });
    await refreshRunSummary(this.#db, run.id);
  }

  async #publish(run: RunRow, session: RunSession, ctx: RunContext) {
    const published = await publishCandidate(this.database, this.store, { run, update: session.updates, facts: session.facts, candidate: session.candidate(), parent: ctx.parentRef, heldOut: ctx.heldOut, actor: this.#actor });
    await this.#event(run.id, "candidate", `candidate ${published.candidateId} (${published.resourcesId} v${published.version}) after update ${session.updates}`, published);
    // Subscribed to the gate (any continual run whose candidate is a policy, however it learned): the runners run
    // the candidate itself on validation rollouts (its stage-2 evidence), then a gate run is requested; a gate
    // worker (runPendingGates) seals stage 3.
    const policy = (session.candidate() as unknown as { policy?: unknown }).policy;
    if (!run.continual || !isPolicy(policy)) return;
    const c = session.facts.algorithm.config as { toolFailureRate?: number; maxAttempts?: number };
    const req = { runId: run.id, agent: run.agent, update: session.updates, environment: run.environment, distribution: run.distribution, seed: run.seed, episodes: VALIDATION_EPISODES, toolFailureRate: c.toolFailureRate ?? 0, maxAttempts: c.maxAttempts ?? 3, policy, expectedFamilies: session.facts.expectedEvidence.spanFamilies };
    const validated = await collectThroughStore(this.store, { ...req, resourcesId: published.resourcesId, mode: "val" }, () => this.holds(run.id));
    if (!validated) return;
    try {
      await requestGateRun(this.database, { candidateId: published.candidateId, actor: this.#actor });
      await this.#event(run.id, "gate", `gate run requested for ${published.candidateId} after ${VALIDATION_EPISODES} validation rollouts`);
    } catch (e) {
      // The gate refuses what it cannot ask runners for (no published exam for this agent): said, not fatal.
      if (!(e instanceof DomainError)) throw e;
      await this.#event(run.id, "gate", `no gate run for ${published.candidateId}: ${e.message}`);
    }
  }

  /** Waits until the run's pace allows its next update, renewing the lease; false when the run was let go meanwhile. */
  async #pace(run: RunRow): Promise<boolean> {
    const last = await this.#db.trainingMetric.findFirst({ where: { runId: run.id }, orderBy: { update: "desc" }, select: { at: true } });
    const due = (last?.at.getTime() ?? 0) + run.paceSeconds * 1000;
    while (Date.now() < due) {
      await new Promise((r) => setTimeout(r, Math.min(1_000, due - Date.now())));
      if (!(await this.holds(run.id))) return false;
    }
    return true;
  }

  async #parentLoads(ctx: RunContext): Promise<boolean> {
    const v = await this.store.resourcesVersion(ctx.parentRef.resourcesId, ctx.parentRef.version).catch(() => null);
    return v?.digest === ctx.parentRef.digest;
  }
}

