// The text-policy family: a policy that reads the ticket, trained in three phases on the snapshot's expert
// demonstrations and then in the environment.
// 1. Pre-training, self-supervised: masked-token prediction over the texts the demonstrations' steps read (no
//    labels; 15 % of each text's tokens masked, the output layer tied to the embeddings). The encoder's
//    vocabulary grows to every token id the corpus holds first.
// 2. Behaviour cloning: cross-entropy to the expert's action at every step of the demonstrations that reached their
//    outcome.
// 3. PPO: episodes collected in this process with the current policy (softmax, ε 0), the clipped surrogate on
//    Monte-Carlo advantages (discounted return minus the batch's mean return at that step index, normalised; no
//    critic), an entropy bonus, the gradient clipped to a global norm, and (`demoCoefficient`, 0.5 unless set to 0)
//    the cloning loss on demonstration steps beside it.
// One update = `pretrainStepsPerUpdate` masked-token steps, one cloning epoch, or one PPO round, in that order.
// `reader: "words"` trains the feature MLP (mlp-softmax over the raw features, hashed words included) through the
// very same phases 2 and 3 — the comparison `bench:learning` makes on the text desks.
import type * as Tf from "@tensorflow/tfjs";
import { z } from "zod";
import { Rng, streamSeed, type RngState } from "@/server/environments/prng";
import { simulateEpisode } from "@/server/environments/episode";
import { DEFAULT_REWARD_WEIGHTS, weightedReward } from "@/server/environments/types";
import { POLICY_SPAN_FAMILIES, actionIndexer, policyCandidate, requireRecords, type AnyEnvironment, type FamilyDefinition, type FamilySession, type FamilyStart } from "../family";
import { actingPolicy, assertPolicyFits, type MlpPolicy, type Policy, type TextPolicy } from "../policy";
import { adam, clippedStep, forward, fromVariables, inputBatch, optimizerState, tfCpu, toVariables, type OptimizerState, type Scalar } from "../neural/tf";
import { MASK, rowIndex, SPECIAL_ROWS, structuredFeatureIndices, tokenRows } from "./encoder";
import { encodeBatch, maskedTokenLogits, policyLogits, readBack, textBatch, textVariables, type TextVars } from "./tf-encoder";
import { tokenize } from "./tokenizer";
import { intField as int, numField as num } from "@/server/trainers/config-fields";

export const textPolicyConfigSchema = z
  .object({
    pretrainUpdates: int("pretrainUpdates", 0, 1_000, 4).describe("Updates of masked-token pre-training on the tickets' text before cloning (0: none)"),
    pretrainStepsPerUpdate: int("pretrainStepsPerUpdate", 1, 10_000, 50).describe("Minibatches in each pre-training update"),
    maskShare: num("maskShare", 0.01, 0.9, 0.15).describe("Share of a ticket's tokens hidden for the encoder to predict"),
    cloneEpochs: int("cloneEpochs", 0, 1_000, 12).describe("Updates of behaviour cloning, each one pass over the demonstrations (0: none)"),
    ppoUpdates: int("ppoUpdates", 0, 1_000, 4).describe("PPO updates after cloning, on episodes the desk plays"),
    episodesPerUpdate: int("episodesPerUpdate", 1, 100_000, 128).describe("Episodes played for each PPO update"),
    batchSize: int("batchSize", 8, 4_096, 32).describe("Examples per minibatch in every phase"),
    learningRate: z.number().gt(0, "learningRate must be > 0").max(1, "learningRate must be ≤ 1").default(0.003).describe("Adam's step size in pre-training and cloning"),
    ppoLearningRate: z.number().gt(0, "ppoLearningRate must be > 0").max(1, "ppoLearningRate must be ≤ 1").default(0.0005).describe("Adam's step size during PPO"),
    ppoEpochs: int("ppoEpochs", 1, 50, 4).describe("Passes over each PPO update's episodes"),
    clipRange: num("clipRange", 0.01, 1, 0.2).describe("PPO's ε: the probability ratio is kept within [1 − ε, 1 + ε]"),
    entropyCoefficient: num("entropyCoefficient", 0, 1, 0.01).describe("Weight of the entropy bonus that keeps PPO exploring"),
    // During PPO, the cloning loss on a minibatch of demonstration steps as well, times this (0: plain PPO): the
    // environment's noisy advantages then cannot walk the policy away from what the expert showed (DAPG's idea).
    // 0.5 by default: plain PPO cost a cloned text policy 0.033 on v4-text and this costs it 0.002 (5 seeds each,
    // docs/benchmarks.md "A policy that reads the ticket").
    demoCoefficient: num("demoCoefficient", 0, 10, 0.5).describe("Weight of the cloning loss kept beside PPO's (0: plain PPO)"),
    discount: num("discount", 0, 1, 0.99).describe("γ of the returns over an episode's steps"),
    maxGradNorm: num("maxGradNorm", 0, 100, 0.5).describe("Gradients are scaled down to this global norm (0: never)"),
    toolFailureRate: num("toolFailureRate", 0, 1, 0.05).describe("Chance that a tool call fails in the desk the policy practises on"),
  })
  .strict();
export type TextPolicyConfig = z.output<typeof textPolicyConfigSchema>;

type Phase = "pretrain" | "clone" | "ppo" | "done";
type State = { policy: TextPolicy | MlpPolicy; mlmBias: number[] | null; optimizer: OptimizerState | null; phase: Phase; inPhase: number; updates: number; rng: RngState; history: Record<string, number>[] };
type Item = { rows: number[]; structured: number[]; features: readonly number[]; action: number };

function phaseAfter(cfg: TextPolicyConfig, kind: Policy["kind"], phase: Phase, done: number): Phase {
  const order: [Phase, number][] = [
    ["pretrain", kind === "text-softmax" ? cfg.pretrainUpdates : 0],
    ["clone", cfg.cloneEpochs],
    ["ppo", cfg.ppoUpdates],
  ];
  let i = order.findIndex(([p]) => p === phase);
  if (i < 0) return "done";
  if (done < order[i]![1]) return phase;
  for (i++; i < order.length; i++) if (order[i]![1] > 0) return order[i]![0];
  return "done";
}

/** The encoder's vocabulary grown by every token id the texts hold (new rows small and seeded). */
function withVocabulary(p: TextPolicy, texts: readonly string[], seed: string): TextPolicy {
  const known = new Set(p.encoder.vocab);
  const fresh: number[] = [];
  for (const t of texts) {
    for (const id of tokenize(t)) {
      if (known.has(id)) continue;
      known.add(id);
      fresh.push(id);
    }
  }
  if (fresh.length === 0) return p;
  const rng = Rng.from(`text-vocab/${seed}`);
  const rows = Array.from({ length: fresh.length * p.encoder.dim }, () => Math.fround((rng.next() * 2 - 1) * 0.1));
  return { ...p, encoder: { ...p.encoder, vocab: [...p.encoder.vocab, ...fresh], tokenEmbedding: [...p.encoder.tokenEmbedding, ...rows] } };
}

class TextPolicySession implements FamilySession {
  readonly family = "text-policy" as const;
  readonly #init: FamilyStart<TextPolicyConfig, TextPolicy | MlpPolicy>;
  readonly #items: Item[];
  readonly #texts: string[];
  readonly #structured: number[];
  #s: State;

  constructor(init: FamilyStart<TextPolicyConfig, TextPolicy | MlpPolicy>, state?: State) {
    this.#init = init;
    const demos = requireRecords("text-policy", init.data, "demonstration");
    const indexOf = actionIndexer(init.environment);
    const steps = demos.flatMap((d) => d.steps);
    if (init.parent.kind === "text-softmax" && steps.some((s) => s.text === undefined)) throw new Error("text-policy reads what each step's agent read (demonstration steps need `text`); this snapshot's steps carry none");
    this.#texts = [...new Set(steps.map((s) => s.text ?? ""))].filter((t) => t.length > 0);
    this.#structured = structuredFeatureIndices(init.environment.featureNames);
    const first: TextPolicy | MlpPolicy = init.parent.kind === "text-softmax" ? withVocabulary(init.parent, this.#texts, init.seed) : init.parent;
    this.#s = state ? structuredClone(state) : { policy: first, mlmBias: null, optimizer: null, phase: phaseAfter(init.config, first.kind, "pretrain", 0), inPhase: 0, updates: 0, rng: Rng.from(`${init.seed}/text-policy`).state(), history: [] };
    const rowOf = this.#s.policy.kind === "text-softmax" ? rowIndex(this.#s.policy.encoder.vocab) : new Map<number, number>();
    this.#items = demos
      .filter((d) => d.outcomeReached !== false)
      .flatMap((d) => d.steps.map((s) => ({ rows: this.#s.policy.kind === "text-softmax" ? tokenRows((this.#s.policy as TextPolicy).encoder, rowOf, s.text ?? "") : [], structured: this.#structured.map((i) => s.features[i]!), features: s.features, action: indexOf(s.action) })));
    if (init.config.cloneEpochs > 0 && this.#items.length === 0) throw new Error("text-policy found no successful demonstration steps to clone");
  }

  get updates() {
    return this.#s.updates;
  }
  get finished() {
    return this.#s.phase === "done";
  }

  async step() {
    if (this.finished) throw new Error("text-policy has finished all its phases");
    const tf = await tfCpu();
    const s = this.#s;
    const cfg = this.#init.config;
    const phase = s.phase;
    const lr = phase === "ppo" ? cfg.ppoLearningRate : cfg.learningRate;
    const text = s.policy.kind === "text-softmax" ? s.policy : null;
    const vars = text ? textVariables(tf, text, s.mlmBias) : null;
    const net = text ? null : toVariables((s.policy as MlpPolicy).network);
    const opt = await adam(lr, s.optimizer);
    const rng = Rng.fromState(s.rng);
    const trainable = vars ? (phase === "pretrain" ? [...vars.all.slice(0, vars.all.length - 1 - vars.head.length * 2), vars.mlmBias] : vars.all.filter((v) => v !== vars.mlmBias)) : net!.vars;
    const logits = (items: readonly Item[]) => (vars ? policyLogits(tf, vars, text!.encoder, textBatch(items, text!.encoder.maxTokens)) : forward(net!, inputBatch(items.map((it) => net!.inputs.map((f) => it.features[f]!)), net!.inputs.length)));
    let figures: Record<string, number>;
    if (phase === "pretrain") figures = this.#pretrain(tf, vars!, text!, opt, trainable, rng);
    else if (phase === "clone") figures = this.#clone(tf, logits, opt, trainable, rng);
    else figures = this.#ppo(tf, logits, opt, trainable, rng);
    if (text) {
      const back = readBack(vars!, text);
      s.policy = back.policy;
      s.mlmBias = back.mlmBias;
      tf.dispose(vars!.all);
    } else {
      s.policy = { ...(s.policy as MlpPolicy), network: fromVariables(net!) };
      tf.dispose(net!.vars);
    }
    s.optimizer = await optimizerState(opt);
    opt.dispose();
    s.rng = rng.state();
    s.updates++;
    s.inPhase++;
    const next = phaseAfter(cfg, s.policy.kind, phase, s.inPhase);
    if (next !== phase) {
      // Each phase has its own optimizer (other variables, another learning rate).
      s.optimizer = null;
      s.inPhase = 0;
    }
    s.phase = next;
    s.history.push(figures);
    return { update: s.updates, finished: this.finished, figures, note: phase };
  }

  #pretrain(tf: typeof Tf, vars: TextVars, p: TextPolicy, opt: Tf.Optimizer, trainable: Tf.Variable[], rng: Rng): Record<string, number> {
    const cfg = this.#init.config;
    const rowOf = rowIndex(p.encoder.vocab);
    const corpus = this.#texts.map((t) => tokenRows(p.encoder, rowOf, t)).filter((r) => r.length > 0);
    if (corpus.length === 0) throw new Error("text-policy found no text to pre-train on");
    let loss = 0;
    let correct = 0;
    let masked = 0;
    for (let k = 0; k < cfg.pretrainStepsPerUpdate; k++) {
      const picked = Array.from({ length: Math.min(cfg.batchSize, corpus.length) }, () => corpus[rng.int(corpus.length)]!);
      const batch = textBatch(picked.map((rows) => ({ rows, structured: [] })), p.encoder.maxTokens);
      const input = Int32Array.from(batch.rows);
      const target = new Float32Array(batch.n * batch.length);
      for (let i = 0; i < input.length; i++) {
        if (batch.mask[i] === 0 || rng.next() >= cfg.maskShare) continue;
        target[i] = 1;
        input[i] = MASK;
      }
      tf.tidy(() => {
        const labels = tf.oneHot(tf.tensor1d(batch.rows, "int32"), SPECIAL_ROWS + p.encoder.vocab.length);
        const weight = tf.tensor1d(target);
        const count = Math.max(1, target.reduce((a, b) => a + b, 0));
        clippedStep(
          opt,
          () => {
            const flat = tf.reshape(maskedTokenLogits(tf, vars, encodeBatch(tf, vars, p.encoder, batch, input)), [batch.n * batch.length, -1]);
            const pred = tf.argMax(flat, 1).dataSync();
            for (let i = 0; i < target.length; i++) {
              if (!target[i]) continue;
              masked++;
              if (pred[i] === batch.rows[i]) correct++;
            }
            const ce = tf.neg(tf.sum(tf.mul(labels, tf.logSoftmax(flat)), 1));
            const l = tf.div(tf.sum(tf.mul(ce, weight)), count) as Scalar;
            loss += l.dataSync()[0]!;
            return l;
          },
          trainable,
          cfg.maxGradNorm,
        );
      });
    }
    return { maskedTokenLoss: loss / cfg.pretrainStepsPerUpdate, maskedTokenAccuracy: masked ? correct / masked : 0, vocabulary: p.encoder.vocab.length };
  }

  #clone(tf: typeof Tf, logits: (items: readonly Item[]) => Tf.Tensor2D, opt: Tf.Optimizer, trainable: Tf.Variable[], rng: Rng): Record<string, number> {
    const cfg = this.#init.config;
    const order = rng.shuffle(this.#items.map((_, i) => i));
    const nA = this.#init.environment.actions.length;
    let loss = 0;
    let correct = 0;
    for (let start = 0; start < order.length; start += cfg.batchSize) {
      const items = order.slice(start, start + cfg.batchSize).map((i) => this.#items[i]!);
      tf.tidy(() => {
        const y = tf.oneHot(tf.tensor1d(items.map((i) => i.action), "int32"), nA);
        let hits = 0;
        clippedStep(
          opt,
          () => {
            const z = logits(items);
            hits = tf.sum(tf.cast(tf.equal(tf.argMax(z, 1), tf.argMax(y, 1)), "float32")).dataSync()[0]!;
            const ce = tf.mean(tf.neg(tf.sum(tf.mul(y, tf.logSoftmax(z)), 1))) as Scalar;
            loss += ce.dataSync()[0]! * items.length;
            return ce;
          },
          trainable,
          cfg.maxGradNorm,
        );
        correct += hits;
      });
    }
    return { cloneLoss: loss / order.length, imitationAccuracy: correct / order.length, steps: order.length };
  }

  #ppo(tf: typeof Tf, logits: (items: readonly Item[]) => Tf.Tensor2D, opt: Tf.Optimizer, trainable: Tf.Variable[], rng: Rng): Record<string, number> {
    const cfg = this.#init.config;
    const env = this.#init.environment;
    const s = this.#s;
    const acting = actingPolicy({ ...s.policy, epsilon: 0 }, "explore");
    const rowOf = s.policy.kind === "text-softmax" ? rowIndex(s.policy.encoder.vocab) : null;
    const items: Item[] = [];
    const oldLogP: number[] = [];
    const returns: number[] = [];
    const stepIndex: number[] = [];
    let rewardSum = 0;
    for (let e = 0; e < cfg.episodesPerUpdate; e++) {
      const seed = streamSeed(this.#init.seed, "text-ppo", s.updates, e);
      const task = env.sampleTask(this.#init.distribution, seed);
      const ep = simulateEpisode(env, acting, task, { episodeKey: `ppo/${seed}`, seed, options: { toolFailureRate: cfg.toolFailureRate } });
      const r = ep.steps.map((st) => weightedReward(st.components, DEFAULT_REWARD_WEIGHTS));
      rewardSum += r.reduce((a, b) => a + b, 0);
      let g = 0;
      const g2 = new Array<number>(r.length);
      for (let i = r.length - 1; i >= 0; i--) g2[i] = g = r[i]! + cfg.discount * g;
      ep.steps.forEach((st, i) => {
        items.push({ rows: rowOf ? tokenRows((s.policy as TextPolicy).encoder, rowOf, st.text ?? "") : [], structured: this.#structured.map((f) => st.features[f]!), features: st.features, action: st.actionIndex });
        oldLogP.push(st.logProb);
        returns.push(g2[i]!);
        stepIndex.push(i);
      });
    }
    // Baseline: the batch's mean return at the same step index; then normalised.
    const byStep = new Map<number, { sum: number; n: number }>();
    stepIndex.forEach((k, i) => {
      const b = byStep.get(k) ?? { sum: 0, n: 0 };
      b.sum += returns[i]!;
      b.n++;
      byStep.set(k, b);
    });
    const adv = returns.map((g, i) => g - byStep.get(stepIndex[i]!)!.sum / byStep.get(stepIndex[i]!)!.n);
    const mean = adv.reduce((a, b) => a + b, 0) / Math.max(1, adv.length);
    const std = Math.sqrt(adv.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, adv.length)) + 1e-8;
    const A = adv.map((a) => (a - mean) / std);
    const nA = env.actions.length;
    const order = items.map((_, i) => i);
    let clipped = 0;
    let batches = 0;
    let demoLoss = 0;
    const anchored = cfg.demoCoefficient > 0 && this.#items.length > 0;
    for (let epoch = 0; epoch < cfg.ppoEpochs; epoch++) {
      rng.shuffle(order);
      for (let start = 0; start < order.length; start += cfg.batchSize) {
        const idx = order.slice(start, start + cfg.batchSize);
        const demos = anchored ? idx.map(() => this.#items[rng.int(this.#items.length)]!) : [];
        tf.tidy(() => {
          const onehot = tf.oneHot(tf.tensor1d(idx.map((i) => items[i]!.action), "int32"), nA);
          const old = tf.tensor1d(idx.map((i) => oldLogP[i]!));
          const adv = tf.tensor1d(idx.map((i) => A[i]!));
          clippedStep(
            opt,
            () => {
              const logp = tf.logSoftmax(logits(idx.map((i) => items[i]!)));
              const ratio = tf.exp(tf.sub(tf.sum(tf.mul(logp, onehot), 1), old));
              const surrogate = tf.minimum(tf.mul(ratio, adv), tf.mul(tf.clipByValue(ratio, 1 - cfg.clipRange, 1 + cfg.clipRange), adv));
              const entropy = tf.neg(tf.mean(tf.sum(tf.mul(tf.exp(logp), logp), 1)));
              clipped += tf.mean(tf.cast(tf.greater(tf.abs(tf.sub(ratio, 1)), cfg.clipRange), "float32")).dataSync()[0]!;
              const ppo = tf.sub(tf.neg(tf.mean(surrogate)), tf.mul(cfg.entropyCoefficient, entropy)) as Scalar;
              if (!anchored) return ppo;
              const y = tf.oneHot(tf.tensor1d(demos.map((d) => d.action), "int32"), nA);
              const ce = tf.mean(tf.neg(tf.sum(tf.mul(y, tf.logSoftmax(logits(demos))), 1))) as Scalar;
              demoLoss += ce.dataSync()[0]!;
              return tf.add(ppo, tf.mul(cfg.demoCoefficient, ce)) as Scalar;
            },
            trainable,
            cfg.maxGradNorm,
          );
          batches++;
        });
      }
    }
    return { meanEpisodeReward: rewardSum / cfg.episodesPerUpdate, steps: items.length, clipFraction: batches ? clipped / batches : 0, ...(anchored ? { demoLoss: demoLoss / Math.max(1, batches) } : {}) };
  }

  candidate() {
    return policyCandidate({ ...this.#s.policy, epsilon: 0 });
  }
  report() {
    const p = this.#s.policy;
    return { updates: this.#s.updates, phase: this.#s.phase, reader: p.kind === "text-softmax" ? { tokenizer: p.encoder.tokenizer, vocabulary: p.encoder.vocab.length, dim: p.encoder.dim, blocks: p.encoder.blocks.length, heads: p.encoder.heads } : "words", demonstrationSteps: this.#items.length, texts: this.#texts.length, history: this.#s.history };
  }
  state(): State {
    return structuredClone(this.#s);
  }
}

/** The parent: a text-softmax policy made for this environment (or, for the words baseline, an mlp-softmax one). */
export function textParent(resource: unknown, env: AnyEnvironment): TextPolicy | MlpPolicy {
  const p = resource as Policy;
  if (!p || typeof p !== "object" || (p.kind !== "text-softmax" && p.kind !== "mlp-softmax")) throw new Error(`text-policy trains text-softmax policies; the parent is ${(p as { kind?: string })?.kind ?? "not a policy"}`);
  assertPolicyFits(p, env);
  return p;
}

export const textPolicyFamily: FamilyDefinition<typeof textPolicyConfigSchema, TextPolicy | MlpPolicy> = {
  name: "text-policy",
  description: "Reads the ticket: a tiny transformer over cl100k_base tokens, pre-trained by masked-token prediction, then behaviour cloning, then PPO with the cloning loss beside it (demoCoefficient; TensorFlow.js).",
  resourceKind: "policy",
  parentKind: "text-softmax",
  configSchema: textPolicyConfigSchema,
  reads: ["demonstration"],
  spanFamilies: POLICY_SPAN_FAMILIES,
  parentOf: textParent,
  start: (init, state) => new TextPolicySession(init, state as State | undefined),
};
