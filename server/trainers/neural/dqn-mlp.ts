// DQN with an MLP Q-network on the raw features: ε-greedy collection, a uniform experience replay
// buffer, a target network synced every `targetSyncEvery` updates, double-Q targets (the online
// network picks a', the target network values it) and the Huber loss; Adam from TensorFlow.js (neural/tf.ts).
// Its batches come from this process or, in a trainer worker's run, from runners through the store (RunnerCollected).
// The online network is the policy resource (`mlp-q`, greedy); the target network, the replay buffer
// and the optimizer's moments live in the checkpoint.
import { z } from "zod";
import { Rng, type RngState } from "@/server/environments/prng";
import { usableTrajectories } from "../algorithm";
import { POLICY_SPAN_FAMILIES, policyCandidate, type CollectedBatch, type FamilyDefinition, type FamilySession, type FamilyStart, type RunnerCollected } from "../family";
import type { MlpPolicy } from "../policy";
import { rewardModelConfigSchema, stepRewards } from "../reward-model";
import { epsilonAt, epsilonScheduleSchema } from "../schedule";
import type { Mlp } from "./mlp";
import { collectShape, mlpParent } from "./ppo-mlp";
import { collectUsable } from "./collect";
import { adam, forward, fromVariables, inputBatch, optimizerState, tfCpu, toVariables, type OptimizerState, type Scalar } from "./tf";
import { intField as int } from "@/server/trainers/config-fields";

export const dqnMlpConfigSchema = z
  .object({
    learningRate: z.number().gt(0, "learningRate must be > 0").max(1, "learningRate must be ≤ 1").default(0.001),
    batchSize: int("batchSize", 1, 4_096, 64),
    /** Gradient steps (minibatches from the replay buffer) per update. */
    gradientSteps: int("gradientSteps", 1, 10_000, 48),
    replayCapacity: int("replayCapacity", 16, 200_000, 6_000),
    targetSyncEvery: int("targetSyncEvery", 1, 1_000, 2),
    doubleQ: z.boolean().default(true),
    /** Huber loss threshold; 0 uses the squared error. */
    huberDelta: z.number().min(0, "huberDelta must be ≥ 0").max(100).default(1),
    exploration: epsilonScheduleSchema.default({ epsilonStart: 0.5, epsilonEnd: 0.05, epsilonDecay: 0.85 }),
    reward: rewardModelConfigSchema.prefault({}),
    ...collectShape,
  })
  .strict();
export type DqnMlpConfig = z.output<typeof dqnMlpConfigSchema>;

/** One transition: raw inputs now, action, reward, raw inputs next (empty when the episode ended). */
type Transition = { x: number[]; a: number; r: number; next: number[] | null };
type State = { online: Mlp; target: Mlp; optimizer: OptimizerState | null; rng: RngState; replay: Transition[]; cursor: number; updates: number; retries: number };

class DqnMlpSession implements FamilySession, RunnerCollected {
  readonly family = "dqn-mlp" as const;
  readonly #init: FamilyStart<DqnMlpConfig, MlpPolicy>;
  #s: State;
  #last: Record<string, number> = {};

  constructor(init: FamilyStart<DqnMlpConfig, MlpPolicy>, state?: State) {
    this.#init = init;
    const net = init.parent.network;
    this.#s = state ? structuredClone(state) : { online: net, target: structuredClone(net), optimizer: null, rng: Rng.from(`${init.seed}/dqn-mlp`).state(), replay: [], cursor: 0, updates: 0, retries: 0 };
  }

  get updates() {
    return this.#s.updates;
  }
  get finished() {
    return false;
  }
  #policy(epsilon: number): MlpPolicy {
    return { ...this.#init.parent, network: this.#s.online, epsilon };
  }

  #remember(t: Transition): void {
    const s = this.#s;
    if (s.replay.length < this.#init.config.replayCapacity) s.replay.push(t);
    else s.replay[s.cursor] = t;
    s.cursor = (s.cursor + 1) % this.#init.config.replayCapacity;
  }

  /** The policy the next batch is collected with: the online network, ε of the schedule mixed in. */
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
    const inputs = s.online.inputs;
    let rewardSum = 0;
    for (const t of used) {
      const r = stepRewards(t, cfg.reward.weights);
      t.steps.forEach((st, i) => {
        rewardSum += r[i]!;
        const next = t.steps[i + 1];
        this.#remember({ x: inputs.map((f) => st.features[f]!), a: st.actionIndex, r: r[i]!, next: next ? inputs.map((f) => next.features[f]!) : null });
      });
    }

    const online = toVariables(s.online);
    const target = toVariables(s.target);
    const opt = await adam(cfg.learningRate, s.optimizer);
    const rng = Rng.fromState(s.rng);
    const nA = env.actions.length;
    const width = inputs.length;
    const zeros = new Array<number>(width).fill(0);
    let lossSum = 0;
    let qSum = 0;
    for (let g = 0; g < cfg.gradientSteps && s.replay.length > 0; g++) {
      const sample = Array.from({ length: Math.min(cfg.batchSize, s.replay.length) }, () => s.replay[rng.int(s.replay.length)]!);
      tf.tidy(() => {
        const x = inputBatch(sample.map((t) => t.x), width);
        const x2 = inputBatch(sample.map((t) => t.next ?? zeros), width);
        const notDone = tf.tensor1d(sample.map((t) => (t.next ? 1 : 0)));
        const reward = tf.tensor1d(sample.map((t) => t.r));
        const oneHot = tf.oneHot(tf.tensor1d(sample.map((t) => t.a), "int32"), nA);
        const qNextTarget = forward(target, x2);
        const nextValue = cfg.doubleQ ? tf.sum(tf.mul(qNextTarget, tf.oneHot(tf.argMax(forward(online, x2), 1), nA)), 1) : tf.max(qNextTarget, 1);
        const y = tf.add(reward, tf.mul(cfg.reward.discount, tf.mul(notDone, nextValue)));
        let meanQ = 0;
        const loss = opt.minimize(() => {
          const q = tf.sum(tf.mul(forward(online, x), oneHot), 1);
          meanQ = tf.mean(q).dataSync()[0]!;
          const err = tf.sub(q, y);
          return (cfg.huberDelta > 0 ? tf.losses.huberLoss(y, q, undefined, cfg.huberDelta) : tf.mean(tf.square(err))) as Scalar;
        }, true, online.vars);
        lossSum += loss!.dataSync()[0]!;
        qSum += meanQ;
      });
    }
    s.online = fromVariables(online);
    s.optimizer = await optimizerState(opt);
    tf.dispose([...online.vars, ...target.vars]);
    opt.dispose();
    s.rng = rng.state();
    s.updates++;
    if (s.updates % cfg.targetSyncEvery === 0) s.target = structuredClone(s.online);
    this.#last = { meanEpisodeReward: used.length ? rewardSum / used.length : 0, epsilon: epsilonAt(cfg.exploration, s.updates), skippedIncomplete: skipped, retries: batch.retries, replaySize: s.replay.length, tdLoss: lossSum / cfg.gradientSteps, meanQ: qSum / cfg.gradientSteps };
    if (batch.coverage !== null) this.#last.coverage = batch.coverage;
    return { update: s.updates, finished: false, figures: this.#last };
  }

  candidate() {
    return policyCandidate(this.#policy(0));
  }
  report() {
    return { updates: this.#s.updates, unexpectedRetries: this.#s.retries, last: this.#last, replaySize: this.#s.replay.length };
  }
  state(): State {
    return structuredClone(this.#s);
  }
}

export const dqnMlpFamily: FamilyDefinition<typeof dqnMlpConfigSchema, MlpPolicy> = {
  name: "dqn-mlp",
  description: "DQN with an MLP Q-network (TensorFlow.js, CPU) on the raw features: replay buffer, target network, double-Q, Huber loss.",
  resourceKind: "policy",
  parentKind: "mlp-q",
  configSchema: dqnMlpConfigSchema,
  reads: [],
  spanFamilies: POLICY_SPAN_FAMILIES,
  parentOf: mlpParent("dqn-mlp", "mlp-q"),
  start: (init, state) => new DqnMlpSession(init, state as State | undefined),
};
