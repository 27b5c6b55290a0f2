// Supervised learning from labeled examples and expert demonstrations: quality filtering, diversity
// sampling, then a softmax-linear policy fitted by minibatch cross-entropy with the fitter's batch
// size, learning rate, epochs, validation split and early stopping. One update = one epoch.
import { z } from "zod";
import type { Demonstration } from "@/server/datasets/records";
import { policyCandidate, requireRecords, softmaxParent, withWeights, type FamilyDefinition, type FamilySession, type FamilyStart } from "../family";
import type { SoftmaxLinearPolicy } from "../policy";
import { diversitySample, diversitySamplingSchema, filterByQuality, imitationItems, qualityFilterSchema } from "./examples";
import { fitConfigShape, SoftmaxFitter, type FitterState } from "./fitter";

export const supervisedConfigSchema = z
  .object({
    ...fitConfigShape,
    qualityFiltering: qualityFilterSchema.prefault({}),
    diversitySampling: diversitySamplingSchema.prefault({}),
    /** Weight each demonstration's steps by its quality score, or all alike. */
    weighting: z.enum(["uniform", "quality"], { error: 'weighting must be "uniform" or "quality"' }).default("uniform"),
  })
  .strict();
export type SupervisedConfig = z.output<typeof supervisedConfigSchema>;

/** Demonstrations after quality filtering and diversity sampling, with the counts a report states. */
export function prepareDemonstrations(all: readonly Demonstration[], cfg: Pick<SupervisedConfig, "qualityFiltering" | "diversitySampling">, seed: string) {
  const { kept, dropped } = filterByQuality(all, cfg.qualityFiltering);
  if (kept.length === 0) throw new Error(`quality filtering (minQuality ${cfg.qualityFiltering.minQuality}) left no demonstrations of ${all.length}`);
  const used = cfg.diversitySampling.enabled ? diversitySample(kept, cfg.diversitySampling.budget, seed) : kept;
  return { used, counts: { offered: all.length, droppedLowQuality: dropped, sampledOut: kept.length - used.length, used: used.length } };
}

class SupervisedSession implements FamilySession {
  readonly family = "supervised" as const;
  readonly #parent: SoftmaxLinearPolicy;
  readonly #fitter: SoftmaxFitter;
  readonly #counts: Record<string, number>;

  constructor(init: FamilyStart<SupervisedConfig, SoftmaxLinearPolicy>, state?: FitterState) {
    this.#parent = init.parent;
    const demos = requireRecords("supervised", init.data, "demonstration");
    const { used, counts } = prepareDemonstrations(demos, init.config, init.seed);
    this.#counts = counts;
    const items = imitationItems(init.environment, used, init.config.weighting);
    this.#fitter = new SoftmaxFitter({ nA: init.environment.actions.length, weights: Float64Array.from(init.parent.weights), items, config: init.config, seed: init.seed }, state);
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
    return policyCandidate(withWeights(this.#parent, this.#fitter.weights()));
  }

  report() {
    return { examples: this.#counts, ...this.#fitter.sizes, bestEpoch: this.#fitter.bestEpoch(), history: this.#fitter.history };
  }

  state() {
    return this.#fitter.state();
  }
}

/** An epoch report as flat figures (nulls left out). */
export function epochFigures(r: { trainLoss: number; valLoss: number | null; valAccuracy: number | null; trainAccuracy: number | null }): Record<string, number> {
  const out: Record<string, number> = { trainLoss: r.trainLoss };
  if (r.valLoss !== null) out.valLoss = r.valLoss;
  if (r.valAccuracy !== null) out.valAccuracy = r.valAccuracy;
  if (r.trainAccuracy !== null) out.trainAccuracy = r.trainAccuracy;
  return out;
}

export const supervisedFamily: FamilyDefinition<typeof supervisedConfigSchema, SoftmaxLinearPolicy> = {
  name: "supervised",
  description: "Fits the policy to expert demonstrations and labeled examples (quality filtering, diversity sampling, early stopping).",
  resourceKind: "policy",
  parentKind: "softmax-linear",
  configSchema: supervisedConfigSchema,
  reads: ["demonstration"],
  spanFamilies: ["agent.step", "reward"],
  parentOf: (r, env) => softmaxParent("supervised", r, env),
  start: (init, state) => new SupervisedSession(init, state as FitterState | undefined),
};

