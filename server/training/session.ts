// One interface over the ways a run executes: PPO and Q-learning (trainer-backed) and families that can
// (RunnerCollected: PPO-MLP, DQN-MLP) collect through the store — rollouts the runners execute, spans read back — and every
// other family steps in-process through the registry. All checkpoint in the registry's sealed family-checkpoint
// format — a store-collected PPO checkpoint restores as an in-process PPO session and the other way round, because
// the trainer state is the same.
import type { RolloutRollup } from "@/server/gate/receipt/stage2";
import type { LightningStore } from "@/server/store";
import { openSealed, type AlgorithmName, type Trainer } from "@/server/trainers/algorithm";
import { checkpointFamily, FAMILY_CHECKPOINT_FORMAT, restoreFamily, startFamily, type FamilyCheckpoint, type FamilyRunInit, type StartedFamily } from "@/server/trainers/families";
import { isRunnerCollected, type CandidateResource, type FamilyName, type FamilySession, type RunnerCollected } from "@/server/trainers/family";
import { evaluatePolicy, type Evaluation, type HeldOutSet } from "@/server/trainers/evaluate";
import type { Policy } from "@/server/trainers/policy";
import { policyCandidate } from "@/server/trainers/family";
import { createTrainer, restoreTrainer } from "@/server/trainers/trainers";
import type { Stage1Facts } from "@/server/trainers/stage1";
import { collectThroughStore } from "./collect";

export type StepResult = {
  update: number;
  episodes: number;
  meanReward: number | null;
  coverage: number | null;
  retries: number;
  failed: number;
  figures: Record<string, number>;
  /** Rollups of the rollouts this update collected through the store (stop-condition evidence). */
  rollups: RolloutRollup[];
};

export interface RunSession {
  /** Its episodes are rollouts runners execute through the store (so each update has stop-condition evidence). */
  readonly throughStore: boolean;
  readonly updates: number;
  readonly finished: boolean;
  readonly facts: Stage1Facts;
  /** Null when the update was interrupted (paused, stopped, lease lost); nothing was learned then. */
  step(keepGoing: () => Promise<boolean>): Promise<StepResult | null>;
  candidate(): CandidateResource;
  checkpoint(): FamilyCheckpoint;
}

/** Trainer-backed families (server/trainers/trainers.ts) whose worker runs collect through the store. */
const TRAINER_COLLECTED: readonly FamilyName[] = ["ppo", "q-learning"];

type CollectFrom = { started: StartedFamily; runId: string; store: LightningStore; agent?: string };

/** One update's episodes through the store, acted by `policy`; null when `keepGoing` said stop meanwhile. */
function collectFor(o: CollectFrom, update: number, policy: Policy, keepGoing: () => Promise<boolean>) {
  const init = o.started.init;
  const c = init.config as Collect;
  return collectThroughStore(
    o.store,
    {
      runId: o.runId,
      agent: o.agent,
      update,
      environment: init.environment.id,
      distribution: init.distribution.version,
      seed: init.seed,
      episodes: c.episodesPerUpdate,
      toolFailureRate: c.toolFailureRate,
      maxAttempts: c.maxAttempts,
      policy,
      expectedFamilies: o.started.facts.expectedEvidence.spanFamilies,
    },
    keepGoing,
  );
}

type Collect = { episodesPerUpdate: number; toolFailureRate: number; maxAttempts: number };
type TrainerState = { checkpoint: unknown; retries: number };

/** PPO / Q-learning whose batches come from runners through the store. */
class StoreCollectedSession implements RunSession {
  readonly throughStore = true;
  readonly #trainer: Trainer;
  #retries: number;

  constructor(
    readonly started: StartedFamily,
    readonly runId: string,
    readonly store: LightningStore,
    state?: TrainerState,
    readonly agent?: string,
  ) {
    const { episodesPerUpdate: _e, toolFailureRate: _t, maxAttempts: _m, ...config } = started.init.config as Collect & Record<string, unknown>;
    const init = started.init;
    this.#trainer = state ? restoreTrainer(state.checkpoint, init.environment) : createTrainer({ algorithm: started.family as AlgorithmName, config, parent: init.parent as Policy, seed: init.seed, environment: init.environment });
    this.#retries = state?.retries ?? 0;
  }
  get facts() {
    return this.started.facts;
  }
  get updates() {
    return this.#trainer.updates;
  }
  get finished() {
    return false;
  }
  async step(keepGoing: () => Promise<boolean>): Promise<StepResult | null> {
    const c = this.started.init.config as Collect;
    const batch = await collectFor(this, this.#trainer.updates, this.#trainer.currentPolicy(), keepGoing);
    if (!batch) return null;
    const stats = this.#trainer.update(batch.trajectories);
    this.#retries += batch.retries;
    return {
      update: stats.update,
      episodes: c.episodesPerUpdate,
      meanReward: batch.meanReward,
      coverage: batch.coverage,
      retries: batch.retries,
      failed: batch.failed,
      figures: { meanEpisodeReward: stats.meanEpisodeReward, epsilon: stats.epsilon, skippedIncomplete: stats.skippedIncomplete, ...stats.figures },
      rollups: batch.rollups,
    };
  }
  candidate() {
    return policyCandidate({ ...this.#trainer.currentPolicy(), epsilon: 0 });
  }
  checkpoint() {
    const state: TrainerState = { checkpoint: this.#trainer.checkpoint(), retries: this.#retries };
    const session = { updates: this.#trainer.updates, state: () => state } as unknown as FamilySession;
    return checkpointFamily({ ...this.started, session });
  }
}

/** A registry family's session: what stepping it in this process and through runners share. */
abstract class RegistrySession implements RunSession {
  abstract readonly throughStore: boolean;
  constructor(readonly started: StartedFamily) {}
  get facts() {
    return this.started.facts;
  }
  get updates() {
    return this.started.session.updates;
  }
  get finished() {
    return this.started.session.finished;
  }
  abstract step(keepGoing: () => Promise<boolean>): Promise<StepResult | null>;
  candidate() {
    return this.started.session.candidate();
  }
  checkpoint() {
    return checkpointFamily(this.started);
  }
}

/** Any family of the registry, stepping in this process. */
class InProcessSession extends RegistrySession {
  readonly throughStore = false;
  async step(): Promise<StepResult> {
    const u = await this.started.session.step();
    const f = u.figures;
    const reward = f.meanEpisodeReward ?? f.meanReward ?? null;
    const retries = f.retries ?? 0;
    return { update: u.update, episodes: f.episodes ?? 0, meanReward: reward, coverage: f.coverage ?? null, retries, failed: 0, figures: f, rollups: [] };
  }
}

/** A registry family that learns from batches runners collect through the store (RunnerCollected: PPO-MLP, DQN-MLP). */
class RunnerCollectedSession extends RegistrySession {
  readonly throughStore = true;
  constructor(
    started: StartedFamily,
    readonly collecting: FamilySession & RunnerCollected,
    readonly runId: string,
    readonly store: LightningStore,
    readonly agent?: string,
  ) {
    super(started);
  }
  async step(keepGoing: () => Promise<boolean>): Promise<StepResult | null> {
    const session = this.collecting;
    const batch = await collectFor(this, session.updates, session.collectionPolicy(), keepGoing);
    if (!batch) return null;
    const u = await session.learn({ trajectories: batch.trajectories, retries: batch.retries, coverage: batch.coverage });
    const c = this.started.init.config as Collect;
    return { update: u.update, episodes: c.episodesPerUpdate, meanReward: batch.meanReward, coverage: batch.coverage, retries: batch.retries, failed: batch.failed, figures: u.figures, rollups: batch.rollups };
  }
}

/** `agent`: tags the runners' rollouts (metadata lightgate.agent), so runner keys bound to it serve them. */
export type SessionSpec = { runId: string; agent?: string; store: LightningStore; init: FamilyRunInit; checkpoint?: unknown };

/** A new session, or one restored from a sealed checkpoint (the context must pin the same things). */
export function openSession(spec: SessionSpec): RunSession {
  const trainerBacked = TRAINER_COLLECTED.includes(spec.init.family);
  const registryFamily = (started: StartedFamily): RunSession =>
    isRunnerCollected(started.session) ? new RunnerCollectedSession(started, started.session, spec.runId, spec.store, spec.agent) : new InProcessSession(started);
  if (spec.checkpoint === undefined) {
    const started = startFamily(spec.init);
    return trainerBacked ? new StoreCollectedSession(started, spec.runId, spec.store, undefined, spec.agent) : registryFamily(started);
  }
  const c = openSealed<FamilyCheckpoint>(spec.checkpoint, FAMILY_CHECKPOINT_FORMAT, "family checkpoint");
  if (!trainerBacked) return registryFamily(restoreFamily(c, spec.init));
  const started = startFamily({ ...spec.init, seed: c.seed, config: c.config, parent: c.parent });
  return new StoreCollectedSession({ ...started, facts: c.facts }, spec.runId, spec.store, c.state as TrainerState, spec.agent);
}

/** The candidate's held-out evaluation, for policy candidates; null for other resource kinds. */
export function evaluateCandidate(init: FamilyRunInit, candidate: CandidateResource, heldOut: HeldOutSet): Evaluation | null {
  if (candidate.resource_type !== "lightgate_policy") return null;
  return evaluatePolicy(init.environment, candidate.policy as Policy, heldOut);
}
