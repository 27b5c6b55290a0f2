// PPO with an MLP actor-critic on the environment's raw features (no hand-made crosses): the clipped
// surrogate, GAE(λ) advantages from the critic, an entropy bonus, one Adam optimizer over actor and
// critic (TensorFlow.js, neural/tf.ts's backend). One update = a batch collected with the current actor (ε of the
// schedule mixed in) — in this process, or by runner processes through the store when a trainer worker runs it
// (RunnerCollected) — then `epochs` passes of shuffled minibatches. The actor is the policy
// resource (`mlp-softmax`); the critic and the optimizer's moments live in the checkpoint.
import { z } from "zod";
import { approxKl, explainedVariance } from "../diagnostics";
import { Rng, type RngState } from "@/server/environments/prng";
import { usableTrajectories } from "../algorithm";
import { POLICY_SPAN_FAMILIES, policyCandidate, type AnyEnvironment, type CollectedBatch, type FamilyDefinition, type FamilySession, type FamilyStart, type RunnerCollected } from "../family";
import { assertPolicyFits, type MlpPolicy, type Policy } from "../policy";
import { RunningMeanStd, normalizeRewards, rewardModelConfigSchema, stepRewards, type RunningStatsState } from "../reward-model";
import { epsilonAt, epsilonScheduleSchema } from "../schedule";
import { initMlp, mlpForward, type Mlp } from "./mlp";
import { collectUsable } from "./collect";
import { emptyFigures, ppoMinibatch } from "./ppo-minibatch";
import { adam, forward, fromVariables, inputBatch, optimizerState, tfCpu, toVariables, type OptimizerState } from "./tf";
import { intField as int, numField as num } from "@/server/trainers/config-fields";

export const collectShape = {
  episodesPerUpdate: int("episodesPerUpdate", 1, 100_000, 128),
  toolFailureRate: num("toolFailureRate", 0, 1, 0.05),
  maxAttempts: int("maxAttempts", 1, 10, 3),
};

export const ppoMlpConfigSchema = z
  .object({
    /**
     * Measured on v2 (3 seeds, 40 updates, clipping at 0.5): 0.01 swung between seeds and between updates
     * (held-out +0.469 to +0.612, one seed fell from +0.49 to +0.15 in five updates); 0.003 gives +0.616 to +0.635.
     */
    learningRate: z.number().gt(0, "learningRate must be > 0").max(1, "learningRate must be ≤ 1").default(0.003),
    clipRange: z.number().gt(0, "clipRange must be > 0").max(1, "clipRange must be ≤ 1").default(0.2),
    epochs: int("epochs", 1, 50, 4),
    minibatchSize: int("minibatchSize", 8, 65_536, 64),
    gaeLambda: num("gaeLambda", 0, 1, 0.95),
    valueCoefficient: num("valueCoefficient", 0, 10, 0.5),
    /** Measured: 0.01 let the MLP settle on a poor deterministic policy (success 0.14 after 40 updates); 0.05 reaches 0.93. */
    entropyCoefficient: num("entropyCoefficient", 0, 1, 0.05),
    normalizeAdvantages: z.boolean().default(true),
    /** Global L2 norm the gradient is clipped to before each Adam step (0: no clipping); 0.5 as in the PPO paper's code. Measured at 0.003: +0.573 without, +0.622 with. */
    maxGradNorm: num("maxGradNorm", 0, 100, 0.5),
    exploration: epsilonScheduleSchema.default({ epsilonStart: 0.2, epsilonEnd: 0.02, epsilonDecay: 0.9 }),
    reward: rewardModelConfigSchema.prefault({}),
    ...collectShape,
  })
  .strict();
export type PpoMlpConfig = z.output<typeof ppoMlpConfigSchema>;

type State = { actor: Mlp; critic: Mlp; optimizer: OptimizerState | null; rng: RngState; returnStats: RunningStatsState; updates: number; retries: number };

/** The parent as an MLP policy of `kind` made for this environment. */
export function mlpParent(family: string, kind: MlpPolicy["kind"]) {
  return (resource: unknown, env: AnyEnvironment): MlpPolicy => {
    const p = resource as Policy;
    if (!p || typeof p !== "object" || p.kind !== kind) throw new Error(`${family} trains ${kind} policies; the parent is ${(p as { kind?: string })?.kind ?? "not a policy"}`);
    assertPolicyFits(p, env);
    return p;
  };
}

class PpoMlpSession implements FamilySession, RunnerCollected {
  readonly family = "ppo-mlp" as const;
  readonly #init: FamilyStart<PpoMlpConfig, MlpPolicy>;
  #s: State;
  #last: Record<string, number> = {};

  constructor(init: FamilyStart<PpoMlpConfig, MlpPolicy>, state?: State) {
    this.#init = init;
    const actor = init.parent.network;
    const hidden = actor.layers.slice(0, -1).map((l) => l.units);
    this.#s = state
      ? structuredClone(state)
      : { actor, critic: initMlp(actor.inputs, hidden, 1, actor.activation, `${init.seed}/critic`), optimizer: null, rng: Rng.from(`${init.seed}/ppo-mlp`).state(), returnStats: new RunningMeanStd().state(), updates: 0, retries: 0 };
  }

  get updates() {
    return this.#s.updates;
  }
  get finished() {
    return false;
  }

  #policy(epsilon: number): MlpPolicy {
    return { ...this.#init.parent, network: this.#s.actor, epsilon };
  }

  /** The policy the next batch is collected with: the actor, ε of the schedule mixed in. */
  collectionPolicy(): MlpPolicy {
    return this.#policy(epsilonAt(this.#init.config.exploration, this.#s.updates));
  }

  /** One update with episodes collected in this process. */
  async step() {
    const { batch } = collectUsable(this.#init, this.collectionPolicy(), this.#s.updates);
    return this.learn({ trajectories: batch.trajectories, retries: batch.retries, coverage: batch.window.coverage });
  }

  /** One update from a collected batch — this process's (`step`) or runners' through the store (RunnerCollected). */
  async learn(batch: CollectedBatch) {
    const tf = await tfCpu();
    const cfg = this.#init.config;
    const s = this.#s;
    const env = this.#init.environment;
    const { used, skipped } = usableTrajectories(batch.trajectories, env);
    s.retries += batch.retries;
    const stats = RunningMeanStd.from(s.returnStats);
    const rewards = normalizeRewards(used, cfg.reward, stats);
    s.returnStats = stats.state();
    const gamma = cfg.reward.discount;
    const inputs = s.actor.inputs;
    const critic = mlpForward(s.critic);
    const v = new Float64Array(1);
    const rows: number[][] = [];
    const actions: number[] = [];
    const oldLogP: number[] = [];
    const adv: number[] = [];
    const ret: number[] = [];
    const predicted: number[] = [];
    let rewardSum = 0;
    used.forEach((t, k) => {
      const r = rewards[k]!;
      rewardSum += stepRewards(t, cfg.reward.weights).reduce((x, y) => x + y, 0);
      const values = t.steps.map((st) => (critic(st.features, v), v[0]!));
      let last = 0;
      const a = new Array<number>(t.steps.length);
      for (let i = t.steps.length - 1; i >= 0; i--) {
        const next = i + 1 < t.steps.length ? values[i + 1]! : 0;
        last = r[i]! + gamma * next - values[i]! + gamma * cfg.gaeLambda * last;
        a[i] = last;
      }
      t.steps.forEach((st, i) => {
        rows.push(inputs.map((f) => st.features[f]!));
        actions.push(st.actionIndex);
        oldLogP.push(st.logProb);
        adv.push(a[i]!);
        ret.push(a[i]! + values[i]!);
        predicted.push(values[i]!);
      });
    });
    const n = rows.length;
    if (cfg.normalizeAdvantages && n > 1) {
      const mean = adv.reduce((x, y) => x + y, 0) / n;
      const std = Math.sqrt(adv.reduce((x, y) => x + (y - mean) ** 2, 0) / n) + 1e-8;
      for (let i = 0; i < n; i++) adv[i] = (adv[i]! - mean) / std;
    }

    const actor = toVariables(s.actor);
    const criticNet = toVariables(s.critic);
    const opt = await adam(cfg.learningRate, s.optimizer);
    const rng = Rng.fromState(s.rng);
    const figures = emptyFigures();
    const samples = { rows, actions, oldLogP, adv, ret };
    const order = Array.from({ length: n }, (_, i) => i);
    const nA = env.actions.length;
    for (let epoch = 0; epoch < cfg.epochs && n > 0; epoch++) {
      rng.shuffle(order);
      for (let start = 0; start < n; start += cfg.minibatchSize) {
        const idx = order.slice(start, start + cfg.minibatchSize);
        ppoMinibatch(tf, { actor, critic: criticNet }, opt, samples, idx, cfg, nA, figures);
      }
    }
    // Approximate KL between the policy that acted and the updated one, on the same samples.
    const newLogP = n ? tf.tidy(() => tf.sum(tf.mul(tf.logSoftmax(forward(actor, inputBatch(rows, inputs.length))), tf.oneHot(tf.tensor1d(actions, "int32"), nA)), 1).dataSync()) : new Float32Array(0);
    s.actor = fromVariables(actor);
    s.critic = fromVariables(criticNet);
    s.optimizer = await optimizerState(opt);
    tf.dispose([...actor.vars, ...criticNet.vars]);
    opt.dispose();
    s.rng = rng.state();
    s.updates++;
    const m = Math.max(1, figures.minibatches);
    this.#last = { meanEpisodeReward: used.length ? rewardSum / used.length : 0, epsilon: epsilonAt(cfg.exploration, s.updates), skippedIncomplete: skipped, retries: batch.retries, steps: n, policyLoss: figures.policyLoss / m, valueLoss: figures.valueLoss / m, entropy: figures.entropy / m, clipFraction: figures.clipFraction / m, gradNorm: figures.gradNorm / m, approxKl: approxKl(oldLogP, newLogP) };
    if (batch.coverage !== null) this.#last.coverage = batch.coverage;
    const ev = explainedVariance(ret, predicted);
    if (ev !== null) this.#last.explainedVariance = ev;
    return { update: s.updates, finished: false, figures: this.#last };
  }

  candidate() {
    return policyCandidate(this.#policy(0));
  }
  report() {
    return { updates: this.#s.updates, unexpectedRetries: this.#s.retries, last: this.#last, network: { inputs: this.#s.actor.inputs.length, hidden: this.#s.actor.layers.slice(0, -1).map((l) => l.units) } };
  }
  state(): State {
    return structuredClone(this.#s);
  }
}

export const ppoMlpFamily: FamilyDefinition<typeof ppoMlpConfigSchema, MlpPolicy> = {
  name: "ppo-mlp",
  description: "PPO with an MLP actor-critic (TensorFlow.js, CPU) on the raw features: clipped surrogate, GAE, entropy bonus, ε schedule.",
  resourceKind: "policy",
  parentKind: "mlp-softmax",
  configSchema: ppoMlpConfigSchema,
  reads: [],
  spanFamilies: POLICY_SPAN_FAMILIES,
  parentOf: mlpParent("ppo-mlp", "mlp-softmax"),
  start: (init, state) => new PpoMlpSession(init, state as State | undefined),
};
