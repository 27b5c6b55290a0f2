// Reptile (Nichol, Achiam & Schulman, 2018), the first-order meta-learner: for each meta-iteration,
// sample task families (the records' `domain` — intents, domains or discovered clusters), adapt a copy
// of the current initialisation to each with k plain SGD steps on its demonstrations, and move the
// initialisation towards the adapted weights: θ ← θ + ε · mean_i(φ_i − θ). The result is an
// initialisation from which k steps on a new family go far. The report measures exactly that on the
// families kept out of meta-training: k-step adaptation from the meta-initialisation vs from the parent.
import { z } from "zod";
import type { Demonstration } from "@/server/datasets/records";
import { Rng, type RngState } from "@/server/environments/prng";
import { policyCandidate, requireRecords, withWeights, type AnyEnvironment, type FamilySession, type FamilyStart, softmaxFamily } from "../family";
import type { SoftmaxLinearPolicy } from "../policy";
import { imitationItems } from "../supervised/examples";
import { itemHit, itemLoss, type Item } from "../supervised/objective";
import { intIn as int } from "@/server/trainers/config-fields";

export const reptileConfigSchema = z
  .object({
    /** k: SGD steps of each inner adaptation (the seed's inner_gradient_steps). */
    innerSteps: int("innerSteps", 1, 1000).default(5),
    innerLearningRate: z.number().gt(0, "innerLearningRate must be > 0").max(100, "innerLearningRate must be ≤ 100").default(0.5),
    /** Items (steps) per inner SGD step (support examples). */
    innerBatch: int("innerBatch", 1, 100_000).default(32),
    /** ε of the outer update, annealed linearly to 0 over `annealUpdates` (0: constant). */
    metaStepSize: z.number().gt(0, "metaStepSize must be > 0").max(1, "metaStepSize must be ≤ 1").default(0.5),
    annealUpdates: int("annealUpdates", 0, 1_000_000).default(0),
    tasksPerIteration: int("tasksPerIteration", 1, 1000).default(4),
    /** Families kept out of meta-training; the report measures few-shot adaptation on them. */
    heldOutDomains: z.array(z.string().min(1)).default([]),
    /** Demonstrations of a held-out family used to adapt (the rest are the query set). */
    supportDemonstrations: int("supportDemonstrations", 1, 100_000).default(10),
  })
  .strict();
export type ReptileConfig = z.output<typeof reptileConfigSchema>;

/** k plain SGD steps of cross-entropy on minibatches drawn (seeded) from items; returns new weights. */
export function adaptSteps(weights: Float64Array, items: readonly Item[], nA: number, k: number, lr: number, batch: number, rng: Rng): Float64Array {
  const w = Float64Array.from(weights);
  const grad = new Float64Array(w.length);
  const p = new Float64Array(nA);
  for (let s = 0; s < k; s++) {
    grad.fill(0);
    const n = Math.min(batch, items.length);
    for (let j = 0; j < n; j++) itemLoss(w, items[rng.int(items.length)]!, p, grad, 1 / n);
    for (let i = 0; i < w.length; i++) w[i] = w[i]! - lr * grad[i]!;
  }
  return w;
}

export function accuracy(weights: Float64Array, items: readonly Item[], nA: number): number {
  const p = new Float64Array(nA);
  const hits = items.map((i) => itemHit(weights, i, p)).filter((h) => h !== null);
  return hits.length ? hits.filter(Boolean).length / hits.length : 0;
}

/** Support/query split of one family's demonstrations (in id order) and its items. */
export function fewShotSplit(env: AnyEnvironment, demos: readonly Demonstration[], support: number) {
  const sorted = [...demos].sort((a, b) => (a.id < b.id ? -1 : 1));
  return { support: imitationItems(env, sorted.slice(0, support), "uniform"), query: imitationItems(env, sorted.slice(support), "uniform") };
}

type ReptileState = { weights: number[]; updates: number; rng: RngState };

class ReptileSession implements FamilySession {
  readonly family = "reptile" as const;
  readonly #init: FamilyStart<ReptileConfig, SoftmaxLinearPolicy>;
  readonly #families: Map<string, Item[]>;
  readonly #heldOut: Map<string, Demonstration[]>;
  readonly #nA: number;
  #w: Float64Array;
  #updates: number;
  readonly #rng: Rng;

  constructor(init: FamilyStart<ReptileConfig, SoftmaxLinearPolicy>, state?: ReptileState) {
    this.#init = init;
    const demos = requireRecords("reptile", init.data, "demonstration");
    const held = new Set(init.config.heldOutDomains);
    const byDomain = new Map<string, Demonstration[]>();
    for (const d of demos) byDomain.set(d.domain, [...(byDomain.get(d.domain) ?? []), d]);
    for (const h of held) if (!byDomain.has(h)) throw new Error(`reptile: held-out domain "${h}" has no demonstrations`);
    this.#families = new Map([...byDomain].filter(([d]) => !held.has(d)).sort(([a], [b]) => (a < b ? -1 : 1)).map(([d, ds]) => [d, imitationItems(init.environment, ds, "uniform")]));
    if (this.#families.size === 0) throw new Error("reptile: no task family left to meta-train on");
    this.#heldOut = new Map([...byDomain].filter(([d]) => held.has(d)));
    this.#nA = init.environment.actions.length;
    this.#w = Float64Array.from(state ? state.weights : init.parent.weights);
    this.#updates = state?.updates ?? 0;
    this.#rng = state ? Rng.fromState(state.rng) : Rng.from(`${init.seed}/reptile`);
  }

  get updates() {
    return this.#updates;
  }
  get finished() {
    return false;
  }

  async step() {
    const cfg = this.#init.config;
    const names = [...this.#families.keys()];
    const eps = cfg.annealUpdates > 0 ? cfg.metaStepSize * Math.max(0, 1 - this.#updates / cfg.annealUpdates) : cfg.metaStepSize;
    const delta = new Float64Array(this.#w.length);
    let innerAccuracy = 0;
    for (let t = 0; t < cfg.tasksPerIteration; t++) {
      const items = this.#families.get(names[this.#rng.int(names.length)]!)!;
      const phi = adaptSteps(this.#w, items, this.#nA, cfg.innerSteps, cfg.innerLearningRate, cfg.innerBatch, this.#rng);
      for (let i = 0; i < delta.length; i++) delta[i]! += (phi[i]! - this.#w[i]!) / cfg.tasksPerIteration;
      innerAccuracy += accuracy(phi, items, this.#nA) / cfg.tasksPerIteration;
    }
    for (let i = 0; i < delta.length; i++) this.#w[i] = this.#w[i]! + eps * delta[i]!;
    this.#updates++;
    return { update: this.#updates, finished: false, figures: { metaStepSize: eps, adaptedAccuracy: innerAccuracy } };
  }

  candidate() {
    return policyCandidate(withWeights(this.#init.parent, this.#w));
  }

  /** k-step adaptation on each held-out family: from the meta-initialisation and from the parent. */
  report() {
    const cfg = this.#init.config;
    const fewShot = Object.fromEntries(
      [...this.#heldOut].map(([domain, demos]) => {
        const { support, query } = fewShotSplit(this.#init.environment, demos, cfg.supportDemonstrations);
        const adapt = (from: Float64Array) => accuracy(adaptSteps(from, support, this.#nA, cfg.innerSteps, cfg.innerLearningRate, cfg.innerBatch, Rng.from(`${this.#init.seed}/few-shot/${domain}`)), query, this.#nA);
        return [domain, { fromMeta: adapt(this.#w), fromParent: adapt(Float64Array.from(this.#init.parent.weights)), zeroShotMeta: accuracy(this.#w, query, this.#nA) }];
      }),
    );
    return { metaTrainedOn: [...this.#families.keys()], fewShot };
  }

  state(): ReptileState {
    return { weights: Array.from(this.#w), updates: this.#updates, rng: this.#rng.state() };
  }
}

export const reptileFamily = softmaxFamily({
  name: "reptile",
  description: "First-order meta-learning (Reptile) over task families: an initialisation that adapts to a new family in a few steps.",
  configSchema: reptileConfigSchema,
  reads: ["demonstration"],
  start: (init, state) => new ReptileSession(init, state as ReptileState | undefined),
});
