// Proximal Policy Optimization (Schulman et al., 2017) for the softmax-linear policy, with a linear
// value baseline. Exact and deterministic: minibatch order comes from the trainer's own seeded stream,
// which is saved in checkpoints, so a restored trainer continues bit for bit.
import { z } from "zod";
import { Rng, type RngState } from "@/server/environments/prng";
import type { Trajectory } from "@/server/environments/trajectory";
import { Adam, sgdStep, type AdamState } from "./adam";
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
import { approxKl, explainedVariance } from "./diagnostics";
import { softmaxInto, type SoftmaxLinearPolicy } from "./policy";
import { RunningMeanStd, discountedReturns, normalizeRewards, rewardModelConfigSchema, stepRewards, type RunningStatsState } from "./reward-model";
import { epsilonAt, epsilonScheduleSchema } from "./schedule";

export const ppoConfigSchema = z
  .object({
    learningRate: z.number().gt(0, "learningRate must be > 0").max(10, "learningRate must be ≤ 10").default(0.05).describe("Step size of the policy's updates"),
    optimizer: z.enum(["adam", "sgd"], { error: 'optimizer must be "adam" or "sgd"' }).default("adam").describe("How each step moves the weights"),
    /** ε of the clipped surrogate: the probability ratio is kept within [1 − clip, 1 + clip]. */
    clipRange: z.number().gt(0, "clipRange must be > 0").max(1, "clipRange must be ≤ 1").default(0.2).describe("PPO's ε: the probability ratio is kept within [1 − ε, 1 + ε]"),
    epochs: z.number().int("epochs must be an integer").min(1, "epochs must be ≥ 1").max(100, "epochs must be ≤ 100").default(4).describe("Passes over each update's episodes"),
    minibatchSize: z.number().int("minibatchSize must be an integer").min(1, "minibatchSize must be ≥ 1").max(65536).default(256).describe("Steps per gradient step"),
    advantage: z
      .discriminatedUnion("kind", [
        z.object({ kind: z.literal("gae"), lambda: z.number().min(0, "lambda must be ≥ 0").max(1, "lambda must be ≤ 1").default(0.95) }).strict(),
        z.object({ kind: z.literal("returns") }).strict(),
      ])
      .default({ kind: "gae", lambda: 0.95 })
      .describe('{"kind":"gae","lambda":λ} (generalised advantage estimation) or {"kind":"returns"}'),
    /** Subtract a learned linear V(s) from the returns (with GAE, V also bootstraps). */
    valueBaseline: z.boolean().default(true).describe("Subtract a learned value V(s) from the returns"),
    valueLearningRate: z.number().gt(0, "valueLearningRate must be > 0").max(10).default(0.05).describe("Step size of the value baseline"),
    normalizeAdvantages: z.boolean().default(true).describe("Scale each update's advantages to mean 0, deviation 1"),
    entropyCoefficient: z.number().min(0, "entropyCoefficient must be ≥ 0").max(1, "entropyCoefficient must be ≤ 1").default(0.05).describe("Weight of the entropy bonus that keeps the policy exploring"),
    exploration: epsilonScheduleSchema.default({ epsilonStart: 0.2, epsilonEnd: 0.02, epsilonDecay: 0.9 }),
    reward: rewardModelConfigSchema.prefault({}),
  })
  .strict();
export type PpoConfig = z.output<typeof ppoConfigSchema>;
export type PpoConfigInput = z.input<typeof ppoConfigSchema>;

type PpoState = { weights: number[]; value: number[]; policyOptimizer: AdamState; valueOptimizer: AdamState; rng: RngState; returnStats: RunningStatsState };

/** A step's features as its non-zero entries (most support-desk features are one-hot). */
type Sparse = { idx: Int32Array; val: Float64Array };

function sparse(features: number[]): Sparse {
  let n = 0;
  for (const f of features) if (f !== 0) n++;
  const idx = new Int32Array(n);
  const val = new Float64Array(n);
  let k = 0;
  features.forEach((f, i) => {
    if (f !== 0) {
      idx[k] = i;
      val[k++] = f;
    }
  });
  return { idx, val };
}

function dot(w: Float64Array, x: Sparse, offset = 0): number {
  let z = 0;
  for (let k = 0; k < x.idx.length; k++) z += w[offset + x.idx[k]!]! * x.val[k]!;
  return z;
}

class PpoTrainer implements Trainer {
  readonly algorithm = "ppo" as const;
  updates: number;
  readonly #base: TrainerBase<PpoConfig, SoftmaxLinearPolicy>;
  readonly #cfg: PpoConfig;
  readonly #env: EnvShape;
  readonly #nA: number;
  readonly #nF: number;
  readonly #w: Float64Array;
  readonly #v: Float64Array;
  readonly #optW: Adam;
  readonly #optV: Adam;
  readonly #rng: Rng;
  readonly #returnStats: RunningMeanStd;

  constructor(base: TrainerBase<PpoConfig, SoftmaxLinearPolicy>, updates: number, state: PpoState | null) {
    const env = base.env;
    this.#base = base;
    this.#cfg = base.cfg;
    this.#env = env;
    this.updates = updates;
    this.#nA = env.actions.length;
    this.#nF = env.featureNames.length;
    this.#w = Float64Array.from(state ? state.weights : base.parent.weights);
    this.#v = state ? Float64Array.from(state.value) : new Float64Array(this.#nF);
    this.#optW = new Adam(this.#w.length, state?.policyOptimizer);
    this.#optV = new Adam(this.#v.length, state?.valueOptimizer);
    this.#rng = state ? Rng.fromState(state.rng) : Rng.from(`${base.seed}/ppo`);
    this.#returnStats = state ? RunningMeanStd.from(state.returnStats) : new RunningMeanStd();
  }

  currentPolicy(): SoftmaxLinearPolicy {
    return { ...this.#base.parent, weights: Array.from(this.#w), epsilon: epsilonAt(this.#cfg.exploration, this.updates) };
  }

  update(trajectories: readonly Trajectory[]): UpdateStats {
    const cfg = this.#cfg;
    const { used, skipped } = usableTrajectories(trajectories, this.#env);
    const rewards = normalizeRewards(used, cfg.reward, this.#returnStats);
    const gamma = cfg.reward.discount;
    const xs: Sparse[] = [];
    const actions: number[] = [];
    const oldLogP: number[] = [];
    const adv: number[] = [];
    const targets: number[] = [];
    const predicted: number[] = [];
    let rewardSum = 0;
    used.forEach((t, k) => {
      rewardSum += stepRewards(t, cfg.reward.weights).reduce((a, b) => a + b, 0);
      const r = rewards[k]!;
      const x = t.steps.map((s) => sparse(s.features));
      const values = x.map((xi) => (cfg.valueBaseline ? dot(this.#v, xi) : 0));
      const T = x.length;
      const a = new Float64Array(T);
      const ret = new Float64Array(T);
      if (cfg.advantage.kind === "gae") {
        const lambda = cfg.advantage.lambda;
        let last = 0;
        for (let i = T - 1; i >= 0; i--) {
          const next = i + 1 < T ? values[i + 1]! : 0;
          last = r[i]! + gamma * next - values[i]! + gamma * lambda * last;
          a[i] = last;
          ret[i] = last + values[i]!;
        }
      } else {
        const g = discountedReturns(r, gamma);
        for (let i = 0; i < T; i++) {
          a[i] = g[i]! - values[i]!;
          ret[i] = g[i]!;
        }
      }
      t.steps.forEach((s, i) => {
        xs.push(x[i]!);
        actions.push(s.actionIndex);
        oldLogP.push(s.logProb);
        adv.push(a[i]!);
        targets.push(ret[i]!);
        predicted.push(values[i]!);
      });
    });
    const n = xs.length;
    if (cfg.normalizeAdvantages && n > 1) {
      const mean = adv.reduce((s, v) => s + v, 0) / n;
      const std = Math.sqrt(adv.reduce((s, v) => s + (v - mean) ** 2, 0) / n) + 1e-8;
      for (let i = 0; i < n; i++) adv[i] = (adv[i]! - mean) / std;
    }

    const figures = { policyLoss: 0, valueLoss: 0, entropy: 0, clipFraction: 0, approxKl: 0 };
    let passes = 0;
    const order = Array.from({ length: n }, (_, i) => i);
    const gradW = new Float64Array(this.#w.length);
    const gradV = new Float64Array(this.#v.length);
    const p = new Float64Array(this.#nA);
    const dense = new Float64Array(this.#nF);
    for (let epoch = 0; epoch < cfg.epochs; epoch++) {
      this.#rng.shuffle(order);
      for (let start = 0; start < n; start += cfg.minibatchSize) {
        const batch = order.slice(start, start + cfg.minibatchSize);
        gradW.fill(0);
        gradV.fill(0);
        const scale = 1 / batch.length;
        for (const i of batch) {
          const x = xs[i]!;
          dense.fill(0);
          for (let k = 0; k < x.idx.length; k++) dense[x.idx[k]!] = x.val[k]!;
          softmaxInto(this.#w, dense, p);
          const a = actions[i]!;
          const ratio = Math.exp(Math.log(p[a]!) - oldLogP[i]!);
          const A = adv[i]!;
          const clipped = (A >= 0 && ratio > 1 + cfg.clipRange) || (A < 0 && ratio < 1 - cfg.clipRange);
          const bounded = Math.min(Math.max(ratio, 1 - cfg.clipRange), 1 + cfg.clipRange);
          figures.policyLoss -= Math.min(ratio * A, bounded * A) * scale;
          if (clipped) figures.clipFraction += scale;
          let entropy = 0;
          for (let b = 0; b < this.#nA; b++) if (p[b]! > 0) entropy -= p[b]! * Math.log(p[b]!);
          figures.entropy += entropy * scale;
          // d(surrogate)/d(log π(a|s)) is A·ratio where the clip is inactive, 0 where it is active.
          const pg = clipped ? 0 : A * ratio;
          for (let b = 0; b < this.#nA; b++) {
            const pb = p[b]!;
            const dEntropy = pb > 0 ? -pb * (Math.log(pb) + entropy) : 0;
            const dz = pg * ((b === a ? 1 : 0) - pb) + cfg.entropyCoefficient * dEntropy;
            // Descent on −(surrogate + β·entropy).
            for (let k = 0; k < x.idx.length; k++) gradW[b * this.#nF + x.idx[k]!]! -= dz * x.val[k]! * scale;
          }
          if (cfg.valueBaseline) {
            const err = dot(this.#v, x) - targets[i]!;
            figures.valueLoss += 0.5 * err * err * scale;
            for (let k = 0; k < x.idx.length; k++) gradV[x.idx[k]!]! += err * x.val[k]! * scale;
          }
        }
        passes++;
        this.#step(this.#w, gradW, this.#optW, cfg.learningRate);
        if (cfg.valueBaseline) this.#step(this.#v, gradV, this.#optV, cfg.valueLearningRate);
      }
    }
    const newLogP = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const x = xs[i]!;
      dense.fill(0);
      for (let k = 0; k < x.idx.length; k++) dense[x.idx[k]!] = x.val[k]!;
      softmaxInto(this.#w, dense, p);
      newLogP[i] = Math.log(p[actions[i]!]!);
    }
    figures.approxKl = approxKl(oldLogP, newLogP);
    if (passes > 0) for (const k of ["policyLoss", "valueLoss", "entropy", "clipFraction"] as const) figures[k] /= passes;
    // How well V(s), as it was when the batch was collected, explained the targets it is then fitted to.
    const ev = cfg.valueBaseline ? explainedVariance(targets, predicted) : null;
    this.updates++;
    return {
      update: this.updates,
      trajectories: used.length,
      skippedIncomplete: skipped,
      steps: n,
      meanEpisodeReward: used.length ? rewardSum / used.length : 0,
      epsilon: epsilonAt(cfg.exploration, this.updates),
      figures: ev === null ? figures : { ...figures, explainedVariance: ev },
    };
  }

  #step(params: Float64Array, grad: Float64Array, opt: Adam, lr: number): void {
    if (this.#cfg.optimizer === "adam") opt.step(params, grad, lr);
    else sgdStep(params, grad, lr);
  }

  checkpoint(): TrainerCheckpoint {
    const state: PpoState = {
      weights: Array.from(this.#w),
      value: Array.from(this.#v),
      policyOptimizer: this.#optW.state(),
      valueOptimizer: this.#optV.state(),
      rng: this.#rng.state(),
      returnStats: this.#returnStats.state(),
    };
    return checkpointOf("ppo", this.#base, this.updates, state);
  }
}

export function createPpoTrainer(init: Omit<TrainerInit, "algorithm">): Trainer {
  return new PpoTrainer(startTrainer("ppo", "softmax-linear", ppoConfigSchema, init), 0, null);
}

export function restorePpoTrainer(input: unknown, env: EnvShape): Trainer {
  const { base, updates, state } = resumeTrainer<typeof ppoConfigSchema, SoftmaxLinearPolicy, PpoState>("ppo", ppoConfigSchema, input, env);
  return new PpoTrainer(base, updates, state);
}
