// Behaviour cloning from stored expert trajectories: only trajectories that reached their outcome are
// cloned; training inputs get noise injection (Gaussian, σ = noiseInjection) and inverted input
// dropout, weights get L2, and early stopping watches the validation loss with a patience. Training
// also stops once validation imitation accuracy reaches the threshold. One update = one epoch.
// Defaults are what measured best on the support desk: L2 and dropout flatten the softmax, and the
// published policy samples its actions, so on 200 demonstrations l2 0.01 cost ~0.35 held-out reward
// and dropout 0.1 ~0.05, while noise 0.05 helped slightly; they stay available as options.
import { z } from "zod";
import { earlyStoppingSchema, fitConfigShape, SoftmaxFitter, type FitterState } from "../supervised/fitter";
import { imitationItems, qualityFilterSchema, filterByQuality } from "../supervised/examples";
import { epochFigures } from "../supervised/supervised";
import { policyCandidate, requireRecords, softmaxParent, withWeights, type FamilyDefinition, type FamilySession, type FamilyStart } from "../family";
import type { SoftmaxLinearPolicy } from "../policy";

export const behaviourCloningConfigSchema = z
  .object({
    ...fitConfigShape,
    earlyStopping: earlyStoppingSchema.prefault({ patience: 10 }),
    noiseInjection: z.number().min(0, "noiseInjection must be ≥ 0").max(2, "noiseInjection must be ≤ 2").default(0.05),
    dropout: z.number().min(0, "dropout must be ≥ 0").max(0.9, "dropout must be ≤ 0.9").default(0),
    /** Clone only trajectories that reached their expected outcome. */
    successfulOnly: z.boolean().default(true),
    qualityFiltering: qualityFilterSchema.prefault({ enabled: false }),
    /** Stop once validation imitation accuracy reaches this (null: never on accuracy). */
    imitationAccuracyThreshold: z.number().gt(0, "imitationAccuracyThreshold must be > 0").max(1, "imitationAccuracyThreshold must be ≤ 1").nullable().default(null),
  })
  .strict();
export type BehaviourCloningConfig = z.output<typeof behaviourCloningConfigSchema>;

type BcState = { fitter: FitterState; reachedThreshold: boolean };

class BehaviourCloningSession implements FamilySession {
  readonly family = "behaviour-cloning" as const;
  readonly #parent: SoftmaxLinearPolicy;
  readonly #cfg: BehaviourCloningConfig;
  readonly #fitter: SoftmaxFitter;
  readonly #counts: Record<string, number>;
  #reached: boolean;

  constructor(init: FamilyStart<BehaviourCloningConfig, SoftmaxLinearPolicy>, state?: BcState) {
    this.#parent = init.parent;
    this.#cfg = init.config;
    const all = requireRecords("behaviour-cloning", init.data, "demonstration");
    const filtered = filterByQuality(all, init.config.qualityFiltering).kept;
    const demos = init.config.successfulOnly ? filtered.filter((d) => d.outcomeReached === true) : filtered;
    if (demos.length === 0) throw new Error("behaviour-cloning: no expert trajectory left to clone (successfulOnly / quality filter removed all)");
    this.#counts = { offered: all.length, cloned: demos.length };
    this.#fitter = new SoftmaxFitter(
      {
        nA: init.environment.actions.length,
        weights: Float64Array.from(init.parent.weights),
        items: imitationItems(init.environment, demos, "uniform"),
        config: init.config,
        seed: init.seed,
        augment: { dropout: init.config.dropout, noise: init.config.noiseInjection },
      },
      state?.fitter,
    );
    this.#reached = state?.reachedThreshold ?? false;
  }

  get updates() {
    return this.#fitter.epoch;
  }
  get finished() {
    return this.#fitter.done || this.#reached;
  }
  async step() {
    if (this.finished) throw new Error("behaviour cloning has finished: no more epochs");
    const r = this.#fitter.runEpoch();
    const t = this.#cfg.imitationAccuracyThreshold;
    if (t !== null && r.valAccuracy !== null && r.valAccuracy >= t) this.#reached = true;
    return { update: r.epoch, finished: this.finished, figures: epochFigures(r) };
  }
  candidate() {
    // Reaching the accuracy threshold ends training on the current weights (they are the ones that reached it).
    return policyCandidate(withWeights(this.#parent, this.#reached && !this.#fitter.done ? Float64Array.from(this.#fitter.state().weights) : this.#fitter.weights()));
  }
  report() {
    return { trajectories: this.#counts, ...this.#fitter.sizes, reachedAccuracyThreshold: this.#reached, bestEpoch: this.#fitter.bestEpoch(), history: this.#fitter.history };
  }
  state(): BcState {
    return { fitter: this.#fitter.state(), reachedThreshold: this.#reached };
  }
}

export const behaviourCloningFamily: FamilyDefinition<typeof behaviourCloningConfigSchema, SoftmaxLinearPolicy> = {
  name: "behaviour-cloning",
  description: "Clones successful expert trajectories with noise injection, input dropout, L2 and early stopping.",
  resourceKind: "policy",
  parentKind: "softmax-linear",
  configSchema: behaviourCloningConfigSchema,
  reads: ["demonstration"],
  spanFamilies: ["agent.step", "reward"],
  parentOf: (r, env) => softmaxParent("behaviour-cloning", r, env),
  start: (init, state) => new BehaviourCloningSession(init, state as BcState | undefined),
};
