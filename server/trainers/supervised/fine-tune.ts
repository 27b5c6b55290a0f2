// Task-specific fine-tuning: specialise a general parent policy on one domain's demonstrations while
// preserving what it can do elsewhere. Preservation is a penalty towards the parent's weights — plain
// L2, or EWC (Kirkpatrick et al., 2017) with the parent's exact Fisher diagonal over the other domains'
// states, so the weights that matter for them move least. The report measures it: imitation accuracy
// on the target domain and on every other domain, before and after, and retention = after / before.
import { z } from "zod";
import type { Demonstration } from "@/server/datasets/records";
import { policyCandidate, requireRecords, softmaxParent, withWeights, type AnyEnvironment, type FamilyDefinition, type FamilySession, type FamilyStart } from "../family";
import type { SoftmaxLinearPolicy } from "../policy";
import { filterByQuality, imitationItems, qualityFilterSchema } from "./examples";
import { fisherDiagonal, type Item } from "./objective";
import { fitConfigShape, SoftmaxFitter, type FitterState } from "./fitter";
import { epochFigures } from "./supervised";

export const preserveSchema = z
  .object({
    method: z.enum(["none", "l2", "ewc"], { error: 'preserve.method must be "none", "l2" or "ewc"' }).default("ewc"),
    /** λ of the penalty λ/2 · Σ F_i (w_i − w_parent,i)² (F = 1 for l2). */
    strength: z.number().min(0, "strength must be ≥ 0").max(1e6, "strength must be ≤ 1e6").default(20),
    /** At most this many general states estimate the Fisher diagonal (evenly spaced, deterministic). */
    fisherSamples: z.number().int("fisherSamples must be an integer").min(1, "fisherSamples must be ≥ 1").default(2000),
  })
  .strict();

export const fineTuneConfigSchema = z
  .object({
    ...fitConfigShape,
    /** The domain (records' `domain`) to specialise in. */
    domain: z.string({ error: "domain is required: the records' domain to fine-tune on" }).min(1, "domain must not be empty"),
    preserve: preserveSchema.prefault({}),
    qualityFiltering: qualityFilterSchema.prefault({}),
  })
  .strict();
export type FineTuneConfig = z.output<typeof fineTuneConfigSchema>;

/** Evenly spaced subset of at most n elements (deterministic). */
export function evenly<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  return Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]!);
}

/** The anchor that preserves general ability: none, L2 to the parent, or EWC with the parent's Fisher on `general` states. */
export function preservationAnchor(parent: Float64Array, nA: number, general: readonly Float64Array[], p: z.output<typeof preserveSchema>) {
  if (p.method === "none" || p.strength === 0) return null;
  if (p.method === "l2") return { center: parent, strength: p.strength, fisher: null };
  if (general.length === 0) throw new Error("EWC needs general states (demonstrations of other domains) to estimate the Fisher information");
  return { center: parent, strength: p.strength, fisher: fisherDiagonal(parent, evenly(general, p.fisherSamples), nA) };
}

/** Imitation accuracy of weights per domain over demonstrations. */
export function accuracyByDomain(env: AnyEnvironment, weights: Float64Array, demos: readonly Demonstration[], fitterFor: (items: Item[]) => SoftmaxFitter): Record<string, number> {
  const domains = [...new Set(demos.map((d) => d.domain))].sort();
  return Object.fromEntries(
    domains.map((d) => {
      const items = imitationItems(env, demos.filter((x) => x.domain === d), "uniform");
      return [d, fitterFor(items).evaluate(items, weights).accuracy ?? 0];
    }),
  );
}

class FineTuneSession implements FamilySession {
  readonly family = "fine-tune" as const;
  readonly #init: FamilyStart<FineTuneConfig, SoftmaxLinearPolicy>;
  readonly #fitter: SoftmaxFitter;
  readonly #others: Demonstration[];
  readonly #target: Demonstration[];
  readonly #before: Record<string, number>;

  constructor(init: FamilyStart<FineTuneConfig, SoftmaxLinearPolicy>, state?: FitterState) {
    this.#init = init;
    const all = filterByQuality(requireRecords("fine-tune", init.data, "demonstration"), init.config.qualityFiltering).kept;
    this.#target = all.filter((d) => d.domain === init.config.domain);
    this.#others = all.filter((d) => d.domain !== init.config.domain);
    if (this.#target.length === 0) {
      throw new Error(`fine-tune: no demonstrations of domain "${init.config.domain}" (domains: ${[...new Set(all.map((d) => d.domain))].sort().join(", ")})`);
    }
    const nA = init.environment.actions.length;
    const parent = Float64Array.from(init.parent.weights);
    const general = imitationItems(init.environment, this.#others, "uniform").map((i) => (i.kind === "ce" ? i.x : new Float64Array(0)));
    const anchor = preservationAnchor(parent, nA, general, init.config.preserve);
    const items = imitationItems(init.environment, this.#target, "uniform");
    this.#fitter = new SoftmaxFitter({ nA, weights: parent, items, config: init.config, seed: init.seed, anchor }, state);
    this.#before = this.#accuracy(parent);
  }

  #accuracy(weights: Float64Array) {
    return accuracyByDomain(this.#init.environment, weights, [...this.#target, ...this.#others], () => this.#fitter);
  }

  get updates() {
    return this.#fitter.epoch;
  }
  get finished() {
    return this.#fitter.done;
  }
  async step() {
    const r = this.#fitter.runEpoch();
    return { update: r.epoch, finished: r.stopped, figures: epochFigures(r) };
  }
  candidate() {
    return policyCandidate(withWeights(this.#init.parent, this.#fitter.weights()));
  }

  /** Accuracy per domain before/after and retention on the domains it was not tuned on. */
  report() {
    const after = this.#accuracy(this.#fitter.weights());
    const target = this.#init.config.domain;
    const others = Object.keys(after).filter((d) => d !== target);
    const retention = Object.fromEntries(others.map((d) => [d, this.#before[d]! > 0 ? after[d]! / this.#before[d]! : 1]));
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 1);
    return {
      domain: target,
      preserve: this.#init.config.preserve.method,
      accuracyBefore: this.#before,
      accuracyAfter: after,
      targetGain: after[target]! - this.#before[target]!,
      retention,
      meanRetention: mean(Object.values(retention)),
      bestEpoch: this.#fitter.bestEpoch(),
      history: this.#fitter.history,
    };
  }
  state() {
    return this.#fitter.state();
  }
}

export const fineTuneFamily: FamilyDefinition<typeof fineTuneConfigSchema, SoftmaxLinearPolicy> = {
  name: "fine-tune",
  description: "Specialises a general policy on one domain, preserving the others with an L2-to-parent or EWC penalty; reports retention.",
  resourceKind: "policy",
  parentKind: "softmax-linear",
  configSchema: fineTuneConfigSchema,
  reads: ["demonstration"],
  spanFamilies: ["agent.step", "reward"],
  parentOf: (r, env) => softmaxParent("fine-tune", r, env),
  start: (init, state) => new FineTuneSession(init, state as FitterState | undefined),
};
