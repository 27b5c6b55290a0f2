// Tabular Q-learning (Watkins, 1989) over the environment's discrete state keys, with experience replay,
// double Q-learning (van Hasselt, 2010: two tables, each evaluating the other's greedy choice) and
// prioritized replay with importance weights. Deterministic for a seed, checkpointable to JSON.
import { z } from "zod";
import { Rng, type RngState } from "@/server/environments/prng";
import type { Trajectory } from "@/server/environments/trajectory";
import {
  checkpointOf,
  resumeTrainer,
  startTrainer,
  usableTrajectories,
  type EnvShape,
  type Trainer,
  type TrainerBase,
  type TrainerCheckpoint,
  type TrainerInit,
  type UpdateStats,
} from "./algorithm";
import type { QTabularPolicy } from "./policy";
import { ReplayBuffer, type ReplayState, type Transition } from "./replay";
import { RunningMeanStd, observeReturns, rewardModelConfigSchema, scaleReward, stepRewards, type RunningStatsState } from "./reward-model";
import { epsilonAt, epsilonScheduleSchema, linearAt } from "./schedule";

export const qLearningConfigSchema = z
  .object({
    /** α: step size of each Q update. */
    learningRate: z.number().gt(0, "learningRate must be > 0").max(1, "learningRate must be ≤ 1").default(0.2),
    exploration: epsilonScheduleSchema.default({ epsilonStart: 0.5, epsilonEnd: 0.05, epsilonDecay: 0.9 }),
    replay: z
      .object({
        enabled: z.boolean().default(true),
        capacity: z.number().int("capacity must be an integer").min(1, "capacity must be ≥ 1").max(1_000_000).default(5000),
        batchSize: z.number().int("batchSize must be an integer").min(1, "batchSize must be ≥ 1").default(32),
        /** Replayed samples per new transition: an update draws ⌈new × ratio / batchSize⌉ minibatches. */
        replayRatio: z.number().gt(0, "replayRatio must be > 0").max(64).default(4),
      })
      .strict()
      .prefault({})
      .refine((r) => r.batchSize <= r.capacity, { message: "batchSize must not exceed capacity", path: ["batchSize"] }),
    doubleQ: z.boolean().default(false),
    prioritized: z
      .object({
        enabled: z.boolean().default(false),
        /** How strongly priority shapes sampling: 0 is uniform. */
        alpha: z.number().min(0, "alpha must be ≥ 0").max(1, "alpha must be ≤ 1").default(0.6),
        /** Importance-weight exponent, annealed linearly from betaStart to betaEnd over betaUpdates updates. */
        betaStart: z.number().min(0, "betaStart must be ≥ 0").max(1, "betaStart must be ≤ 1").default(0.4),
        betaEnd: z.number().min(0, "betaEnd must be ≥ 0").max(1, "betaEnd must be ≤ 1").default(1),
        betaUpdates: z.number().int().min(0).default(50),
        /** Added to |TD error| so no transition's priority is ever zero. */
        epsilon: z.number().gt(0, "epsilon must be > 0").default(0.01),
      })
      .strict()
      .prefault({}),
    reward: rewardModelConfigSchema.prefault({}),
  })
  .strict()
  .refine((c) => !c.prioritized.enabled || c.replay.enabled, { message: "prioritized replay needs replay.enabled", path: ["prioritized", "enabled"] });
export type QLearningConfig = z.output<typeof qLearningConfigSchema>;
export type QLearningConfigInput = z.input<typeof qLearningConfigSchema>;

type Table = Map<string, Float64Array>;
type QState = { tableA: Record<string, number[]>; tableB: Record<string, number[]> | null; rng: RngState; returnStats: RunningStatsState; replay: ReplayState | null };

function toTable(rows: Record<string, number[]>): Table {
  return new Map(Object.entries(rows).map(([k, v]) => [k, Float64Array.from(v)]));
}
function fromTable(t: Table): Record<string, number[]> {
  return Object.fromEntries([...t.keys()].sort().map((k) => [k, Array.from(t.get(k)!)]));
}

class QLearningTrainer implements Trainer {
  readonly algorithm = "q-learning" as const;
  updates: number;
  readonly #base: TrainerBase<QLearningConfig, QTabularPolicy>;
  readonly #cfg: QLearningConfig;
  readonly #env: EnvShape;
  readonly #nA: number;
  readonly #a: Table;
  readonly #b: Table | null;
  readonly #rng: Rng;
  readonly #returnStats: RunningMeanStd;
  readonly #replay: ReplayBuffer | null;
  readonly #zeros: Float64Array;

  constructor(base: TrainerBase<QLearningConfig, QTabularPolicy>, updates: number, state: QState | null) {
    const { cfg, env, parent } = base;
    this.#base = base;
    this.#cfg = cfg;
    this.#env = env;
    this.updates = updates;
    this.#nA = env.actions.length;
    this.#zeros = new Float64Array(this.#nA);
    this.#a = toTable(state ? state.tableA : parent.table);
    this.#b = cfg.doubleQ ? toTable(state?.tableB ?? parent.table) : null;
    this.#rng = state ? Rng.fromState(state.rng) : Rng.from(`${base.seed}/q-learning`);
    this.#returnStats = state ? RunningMeanStd.from(state.returnStats) : new RunningMeanStd();
    this.#replay = cfg.replay.enabled ? new ReplayBuffer(cfg.replay.capacity, cfg.prioritized.enabled, state?.replay ?? undefined) : null;
  }

  #row(t: Table, key: string): Float64Array {
    let row = t.get(key);
    if (!row) t.set(key, (row = new Float64Array(this.#nA)));
    return row;
  }

  #peek(t: Table, key: string | null): Float64Array {
    return (key !== null && t.get(key)) || this.#zeros;
  }

  currentPolicy(): QTabularPolicy {
    const keys = new Set([...this.#a.keys(), ...(this.#b?.keys() ?? [])]);
    // State keys come from runners' spans: fromEntries defines each one, even `__proto__`.
    const table: Record<string, number[]> = Object.fromEntries(
      [...keys].sort().map((key) => {
        const a = this.#peek(this.#a, key);
        // Double Q acts on the average of its two estimates.
        return [key, this.#b ? Array.from(a, (v, i) => (v + this.#peek(this.#b!, key)[i]!) / 2) : Array.from(a)];
      }),
    );
    return { ...this.#base.parent, table, epsilon: epsilonAt(this.#cfg.exploration, this.updates) };
  }

  /** One Q update on a transition with weight w (importance weight); returns the TD error. */
  #learn(t: Transition, reward: number, w: number): number {
    const gamma = this.#cfg.reward.discount;
    const alpha = this.#cfg.learningRate;
    if (!this.#b) {
      const next = this.#peek(this.#a, t.nextKey);
      let max = 0;
      if (t.nextKey !== null) {
        max = -Infinity;
        for (let i = 0; i < this.#nA; i++) if (next[i]! > max) max = next[i]!;
      }
      const row = this.#row(this.#a, t.key);
      const delta = reward + gamma * max - row[t.action]!;
      row[t.action] = row[t.action]! + alpha * w * delta;
      return delta;
    }
    // Double Q: a coin picks the table to update; the other one values its greedy next action.
    const [learner, critic] = this.#rng.next() < 0.5 ? [this.#a, this.#b] : [this.#b, this.#a];
    let bootstrap = 0;
    if (t.nextKey !== null) {
      const own = this.#peek(learner, t.nextKey);
      let best = 0;
      for (let i = 1; i < this.#nA; i++) if (own[i]! > own[best]!) best = i;
      bootstrap = this.#peek(critic, t.nextKey)[best]!;
    }
    const row = this.#row(learner, t.key);
    const delta = reward + gamma * bootstrap - row[t.action]!;
    row[t.action] = row[t.action]! + alpha * w * delta;
    return delta;
  }

  update(trajectories: readonly Trajectory[]): UpdateStats {
    const cfg = this.#cfg;
    const { used, skipped } = usableTrajectories(trajectories, this.#env);
    // Rewards stay raw in the buffer and are scaled on use, so replayed old transitions follow the current scale.
    const raw = used.map((t) => stepRewards(t, cfg.reward.weights));
    if (cfg.reward.normalize) observeReturns(raw, cfg.reward.discount, this.#returnStats);
    const fresh: Transition[] = [];
    let rewardSum = 0;
    used.forEach((t, k) => {
      rewardSum += raw[k]!.reduce((a, b) => a + b, 0);
      t.steps.forEach((s, i) => {
        const next = t.steps[i + 1];
        fresh.push({ key: s.key, action: s.actionIndex, reward: raw[k]![i]!, nextKey: next ? next.key : null });
      });
    });
    const figures: Record<string, number> = { meanAbsTdError: 0, updatesApplied: 0, meanImportanceWeight: 0, replaySize: 0, beta: 0 };
    const clip = (r: number) => scaleReward(r, cfg.reward, this.#returnStats);
    let tdSum = 0;
    let wSum = 0;
    let n = 0;
    if (!this.#replay) {
      for (const t of fresh) {
        tdSum += Math.abs(this.#learn(t, clip(t.reward), 1));
        wSum += 1;
        n++;
      }
    } else {
      for (const t of fresh) this.#replay.push(t);
      const replay = this.#replay;
      const { batchSize, replayRatio } = cfg.replay;
      const minibatches = Math.ceil((fresh.length * replayRatio) / batchSize);
      const beta = linearAt(cfg.prioritized.betaStart, cfg.prioritized.betaEnd, cfg.prioritized.betaUpdates, this.updates);
      figures.beta = cfg.prioritized.enabled ? beta : 0;
      for (let m = 0; m < minibatches; m++) {
        const idx = replay.sample(batchSize, this.#rng);
        let weights = idx.map(() => 1);
        if (cfg.prioritized.enabled) {
          // w_i = (N · P(i))^−β, divided by the batch's largest weight so updates only shrink.
          weights = idx.map((i) => (replay.size * replay.probability(i)) ** -beta);
          const max = Math.max(...weights);
          weights = weights.map((w) => w / max);
        }
        idx.forEach((i, j) => {
          const t = replay.get(i);
          const delta = this.#learn(t, clip(t.reward), weights[j]!);
          if (cfg.prioritized.enabled) replay.setPriority(i, (Math.abs(delta) + cfg.prioritized.epsilon) ** cfg.prioritized.alpha);
          tdSum += Math.abs(delta);
          wSum += weights[j]!;
          n++;
        });
      }
      figures.replaySize = replay.size;
    }
    figures.meanAbsTdError = n ? tdSum / n : 0;
    figures.meanImportanceWeight = n ? wSum / n : 0;
    figures.updatesApplied = n;
    this.updates++;
    return {
      update: this.updates,
      trajectories: used.length,
      skippedIncomplete: skipped,
      steps: fresh.length,
      meanEpisodeReward: used.length ? rewardSum / used.length : 0,
      epsilon: epsilonAt(cfg.exploration, this.updates),
      figures,
    };
  }

  checkpoint(): TrainerCheckpoint {
    const state: QState = {
      tableA: fromTable(this.#a),
      tableB: this.#b ? fromTable(this.#b) : null,
      rng: this.#rng.state(),
      returnStats: this.#returnStats.state(),
      replay: this.#replay?.state() ?? null,
    };
    return checkpointOf("q-learning", this.#base, this.updates, state);
  }
}

export function createQLearningTrainer(init: Omit<TrainerInit, "algorithm">): Trainer {
  return new QLearningTrainer(startTrainer("q-learning", "q-tabular", qLearningConfigSchema, init), 0, null);
}

export function restoreQLearningTrainer(input: unknown, env: EnvShape): Trainer {
  const { base, updates, state } = resumeTrainer<typeof qLearningConfigSchema, QTabularPolicy, QState>("q-learning", qLearningConfigSchema, input, env);
  return new QLearningTrainer(base, updates, state);
}
