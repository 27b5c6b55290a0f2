// Behaviour cloning from stored expert trajectories: only trajectories that reached their outcome are
// cloned; training inputs get noise injection (Gaussian, σ = noiseInjection) and inverted input
// dropout, weights get L2, and early stopping watches the validation loss with a patience. Training
// also stops once validation imitation accuracy reaches the threshold. One update = one epoch.
// Defaults are what measured best on the support desk: L2 and dropout flatten the softmax, and the
// published policy samples its actions, so on 200 demonstrations l2 0.01 cost ~0.35 held-out reward
// and dropout 0.1 ~0.05, while noise 0.05 helped slightly; they stay available as options.
import { z } from "zod";
import { earlyStoppingSchema, fitConfigShape, SoftmaxFitter, type FitterState } from "../supervised/fitter";
import { FitterSession } from "../supervised/session";
import { imitationItems, qualityFilterSchema, filterByQuality } from "../supervised/examples";
import { policyCandidate, requireRecords, softmaxFamily, withWeights } from "../family";
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

/** Ends early once validation imitation accuracy reaches the threshold (on the weights that reached it). */
class BehaviourCloningSession extends FitterSession {
  readonly #threshold: number | null;
  #reached: boolean;

  constructor(parent: SoftmaxLinearPolicy, fitter: SoftmaxFitter, threshold: number | null, counts: Record<string, number>, reached: boolean) {
    super("behaviour-cloning", parent, fitter, () => ({ trajectories: counts, reachedAccuracyThreshold: this.#reached }));
    this.#threshold = threshold;
    this.#reached = reached;
  }

  override get finished() {
    return this.fitter.done || this.#reached;
  }
  override async step() {
    if (this.finished) throw new Error("behaviour cloning has finished: no more epochs");
    const r = await super.step();
    const acc = this.fitter.history.at(-1)!.valAccuracy;
    if (this.#threshold !== null && acc !== null && acc >= this.#threshold) this.#reached = true;
    return { ...r, finished: this.finished };
  }
  override candidate() {
    return policyCandidate(withWeights(this.parent, this.#reached && !this.fitter.done ? this.fitter.state().weights : this.fitter.weights()));
  }
  override state(): BcState {
    return { fitter: this.fitter.state(), reachedThreshold: this.#reached };
  }
}

export const behaviourCloningFamily = softmaxFamily({
  name: "behaviour-cloning",
  description: "Clones successful expert trajectories with noise injection, input dropout, L2 and early stopping.",
  configSchema: behaviourCloningConfigSchema,
  reads: ["demonstration"],
  start(init, state) {
    const cfg = init.config;
    const st = state as BcState | undefined;
    const all = requireRecords("behaviour-cloning", init.data, "demonstration");
    const filtered = filterByQuality(all, cfg.qualityFiltering).kept;
    const demos = cfg.successfulOnly ? filtered.filter((d) => d.outcomeReached === true) : filtered;
    if (demos.length === 0) throw new Error("behaviour-cloning: no expert trajectory left to clone (successfulOnly / quality filter removed all)");
    const fitter = new SoftmaxFitter(
      { nA: init.environment.actions.length, weights: Float64Array.from(init.parent.weights), items: imitationItems(init.environment, demos, "uniform"), config: cfg, seed: init.seed, augment: { dropout: cfg.dropout, noise: cfg.noiseInjection } },
      st?.fitter,
    );
    return new BehaviourCloningSession(init.parent, fitter, cfg.imitationAccuracyThreshold, { offered: all.length, cloned: demos.length }, st?.reachedThreshold ?? false);
  },
});
