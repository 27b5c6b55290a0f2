// Supervised learning from labeled examples and expert demonstrations: quality filtering, diversity
// sampling, then a softmax-linear policy fitted by minibatch cross-entropy with the fitter's batch
// size, learning rate, epochs, validation split and early stopping. One update = one epoch.
import { z } from "zod";
import type { Demonstration } from "@/server/datasets/records";
import { requireRecords, softmaxFamily } from "../family";
import { diversitySample, diversitySamplingSchema, filterByQuality, imitationItems, qualityFilterSchema } from "./examples";
import { fitConfigShape, SoftmaxFitter, type FitterState } from "./fitter";
import { FitterSession } from "./session";

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

export const supervisedFamily = softmaxFamily({
  name: "supervised",
  description: "Fits the policy to expert demonstrations and labeled examples (quality filtering, diversity sampling, early stopping).",
  configSchema: supervisedConfigSchema,
  reads: ["demonstration"],
  start(init, state) {
    const { used, counts } = prepareDemonstrations(requireRecords("supervised", init.data, "demonstration"), init.config, init.seed);
    const items = imitationItems(init.environment, used, init.config.weighting);
    const fitter = new SoftmaxFitter({ nA: init.environment.actions.length, weights: Float64Array.from(init.parent.weights), items, config: init.config, seed: init.seed }, state as FitterState | undefined);
    return new FitterSession("supervised", init.parent, fitter, () => ({ examples: counts }));
  },
});

