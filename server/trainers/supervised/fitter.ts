// Fits a softmax-linear policy to weighted objective terms, one epoch per call, exactly and
// deterministically: validation split by group (all steps of one demonstration land on one side),
// seeded minibatch order, Adam or SGD, L2, an anchor penalty (L2-to-parent or EWC), input dropout and
// noise injection for training passes only, and early stopping on the validation loss that restores
// the best weights. Everything it holds round-trips through JSON for checkpoints.
import { z } from "zod";
import { Rng, type RngState } from "@/server/environments/prng";
import { Adam, sgdStep, type AdamState } from "../adam";
import { itemHit, itemLoss, type Item } from "./objective";
import { intIn as int } from "@/server/trainers/config-fields";

export const earlyStoppingSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Epochs without an improvement of more than minDelta before stopping. */
    patience: int("patience", 1, 1000).default(3),
    minDelta: z.number().min(0, "minDelta must be ≥ 0").default(1e-4),
    /** At the end, go back to the weights of the best epoch. */
    restoreBest: z.boolean().default(true),
  })
  .strict();

export const fitConfigShape = {
  batchSize: int("batchSize", 1, 65536).default(32),
  learningRate: z.number().gt(0, "learningRate must be > 0").max(10, "learningRate must be ≤ 10").default(0.05),
  optimizer: z.enum(["adam", "sgd"], { error: 'optimizer must be "adam" or "sgd"' }).default("adam"),
  maxEpochs: int("maxEpochs", 1, 1000).default(30),
  /** Share of groups (demonstrations, interactions) held out to measure validation loss. */
  validationSplit: z.number().min(0, "validationSplit must be ≥ 0").max(0.9, "validationSplit must be ≤ 0.9").default(0.2),
  earlyStopping: earlyStoppingSchema.prefault({}),
  /** Weight decay λ/2·‖W‖². */
  l2: z.number().min(0, "l2 must be ≥ 0").max(100, "l2 must be ≤ 100").default(0),
};
export const fitConfigSchema = z.object(fitConfigShape).strict();
export type FitConfig = z.output<typeof fitConfigSchema>;

/** Training-time input augmentation (behaviour cloning): inverted dropout and Gaussian noise on features. */
export type Augment = { dropout: number; noise: number };
/** strength/2 · Σ F_i (W_i − center_i)²; F = 1 everywhere is plain L2-to-parent. */
export type Anchor = { center: Float64Array; strength: number; fisher: Float64Array | null };

export type EpochReport = { epoch: number; trainLoss: number; valLoss: number | null; valAccuracy: number | null; trainAccuracy: number | null; improved: boolean; stopped: boolean };

export type FitterState = {
  weights: number[];
  optimizer: AdamState;
  rng: RngState;
  epoch: number;
  best: { loss: number; epoch: number; weights: number[] } | null;
  wait: number;
  done: boolean;
  history: EpochReport[];
};

export type FitterInit = { nA: number; weights: Float64Array; items: Item[]; config: FitConfig; seed: string; anchor?: Anchor | null; augment?: Augment | null };

/** Splits items into training and validation by group, deterministically for the seed. */
export function splitByGroup(items: readonly Item[], share: number, seed: string): { train: Item[]; validation: Item[] } {
  const groups = [...new Set(items.map((i) => i.group))].sort();
  Rng.from(`${seed}/validation-split`).shuffle(groups);
  let nVal = Math.round(groups.length * share);
  if (share > 0 && nVal === 0 && groups.length >= 2) nVal = 1;
  if (nVal >= groups.length) nVal = groups.length - 1;
  const val = new Set(groups.slice(0, Math.max(0, nVal)));
  return { train: items.filter((i) => !val.has(i.group)), validation: items.filter((i) => val.has(i.group)) };
}

export class SoftmaxFitter {
  readonly #nA: number;
  readonly #cfg: FitConfig;
  readonly #train: Item[];
  readonly #validation: Item[];
  readonly #anchor: Anchor | null;
  readonly #augment: Augment | null;
  readonly #w: Float64Array;
  readonly #opt: Adam;
  readonly #rng: Rng;
  #epoch = 0;
  #best: { loss: number; epoch: number; weights: Float64Array } | null = null;
  #wait = 0;
  #done = false;
  readonly history: EpochReport[] = [];

  constructor(init: FitterInit, state?: FitterState) {
    this.#nA = init.nA;
    this.#cfg = init.config;
    const split = splitByGroup(init.items, init.config.validationSplit, init.seed);
    this.#train = split.train;
    this.#validation = split.validation;
    if (this.#train.length === 0) throw new Error("nothing to fit: every item is in the validation split or there are no items");
    this.#anchor = init.anchor ?? null;
    this.#augment = init.augment && (init.augment.dropout > 0 || init.augment.noise > 0) ? init.augment : null;
    this.#w = Float64Array.from(state ? state.weights : init.weights);
    this.#opt = new Adam(this.#w.length, state?.optimizer);
    this.#rng = state ? Rng.fromState(state.rng) : Rng.from(`${init.seed}/fit`);
    if (state) {
      this.#epoch = state.epoch;
      this.#best = state.best && { ...state.best, weights: Float64Array.from(state.best.weights) };
      this.#wait = state.wait;
      this.#done = state.done;
      this.history.push(...state.history);
    }
  }

  get done(): boolean {
    return this.#done;
  }
  get epoch(): number {
    return this.#epoch;
  }
  get sizes(): { train: number; validation: number } {
    return { train: this.#train.length, validation: this.#validation.length };
  }

  /** The fitted weights: the best epoch's once stopped (when restoreBest), the current ones otherwise. */
  weights(): Float64Array {
    if (this.#done && this.#cfg.earlyStopping.restoreBest && this.#best) return Float64Array.from(this.#best.weights);
    return Float64Array.from(this.#w);
  }

  #augmented(x: Float64Array): Float64Array {
    const a = this.#augment!;
    const out = new Float64Array(x.length);
    const keep = 1 - a.dropout;
    for (let f = 0; f < x.length; f++) {
      let v = x[f]!;
      if (a.dropout > 0) v = this.#rng.next() < a.dropout ? 0 : v / keep;
      if (a.noise > 0) v += a.noise * gaussian(this.#rng);
      out[f] = v;
    }
    return out;
  }

  /** Mean loss and accuracy (of ce items) over items, without augmentation. */
  evaluate(items: readonly Item[], weights: Float64Array = this.#w): { loss: number; accuracy: number | null } {
    const p = new Float64Array(this.#nA);
    let loss = 0;
    let hits = 0;
    let counted = 0;
    for (const item of items) {
      loss += itemLoss(weights, item, p, null);
      const hit = itemHit(weights, item, p);
      if (hit !== null) {
        counted++;
        if (hit) hits++;
      }
    }
    return { loss: items.length ? loss / items.length : 0, accuracy: counted ? hits / counted : null };
  }

  /** One pass over the training items; then validation and the early-stopping decision. */
  runEpoch(): EpochReport {
    if (this.#done) throw new Error("fitting has finished (early stopping or maxEpochs): no more epochs");
    const cfg = this.#cfg;
    const order = Array.from({ length: this.#train.length }, (_, i) => i);
    this.#rng.shuffle(order);
    const grad = new Float64Array(this.#w.length);
    const p = new Float64Array(this.#nA);
    const xOf = this.#augment ? (x: Float64Array) => this.#augmented(x) : undefined;
    let trainLoss = 0;
    for (let start = 0; start < order.length; start += cfg.batchSize) {
      const batch = order.slice(start, start + cfg.batchSize);
      grad.fill(0);
      const scale = 1 / batch.length;
      for (const i of batch) trainLoss += itemLoss(this.#w, this.#train[i]!, p, grad, scale, xOf);
      this.#regularize(grad);
      if (cfg.optimizer === "adam") this.#opt.step(this.#w, grad, cfg.learningRate);
      else sgdStep(this.#w, grad, cfg.learningRate);
    }
    this.#epoch++;
    const train = this.evaluate(this.#train);
    const val = this.#validation.length ? this.evaluate(this.#validation) : null;
    const monitored = val ? val.loss : train.loss;
    const improved = !this.#best || monitored < this.#best.loss - cfg.earlyStopping.minDelta;
    if (improved) {
      this.#best = { loss: monitored, epoch: this.#epoch, weights: Float64Array.from(this.#w) };
      this.#wait = 0;
    } else this.#wait++;
    const stopped = (cfg.earlyStopping.enabled && this.#wait >= cfg.earlyStopping.patience) || this.#epoch >= cfg.maxEpochs;
    this.#done = stopped;
    const report: EpochReport = {
      epoch: this.#epoch,
      trainLoss: trainLoss / order.length,
      valLoss: val ? val.loss : null,
      valAccuracy: val ? val.accuracy : null,
      trainAccuracy: train.accuracy,
      improved,
      stopped,
    };
    this.history.push(report);
    return report;
  }

  #regularize(grad: Float64Array): void {
    const w = this.#w;
    const l2 = this.#cfg.l2;
    if (l2 > 0) for (let i = 0; i < w.length; i++) grad[i]! += l2 * w[i]!;
    const a = this.#anchor;
    if (a && a.strength > 0) {
      for (let i = 0; i < w.length; i++) grad[i]! += a.strength * (a.fisher ? a.fisher[i]! : 1) * (w[i]! - a.center[i]!);
    }
  }

  bestEpoch(): number | null {
    return this.#best?.epoch ?? null;
  }

  state(): FitterState {
    return {
      weights: Array.from(this.#w),
      optimizer: this.#opt.state(),
      rng: this.#rng.state(),
      epoch: this.#epoch,
      best: this.#best && { loss: this.#best.loss, epoch: this.#best.epoch, weights: Array.from(this.#best.weights) },
      wait: this.#wait,
      done: this.#done,
      history: this.history.map((h) => ({ ...h })),
    };
  }
}

/** Standard normal draw (Box–Muller) from the fitter's stream. */
export function gaussian(rng: Rng): number {
  const u = 1 - rng.next();
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
