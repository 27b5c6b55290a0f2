// The session shared by the families that fit a softmax-linear policy with the SoftmaxFitter: one
// update = one epoch; the candidate is the fitter's weights (its best epoch's once it stopped).
import { policyCandidate, withWeights, type FamilyName, type FamilySession } from "../family";
import type { SoftmaxLinearPolicy } from "../policy";
import type { EpochReport, SoftmaxFitter } from "./fitter";

/** An epoch report as flat figures (nulls left out). */
export function epochFigures(r: Pick<EpochReport, "trainLoss" | "valLoss" | "valAccuracy" | "trainAccuracy">): Record<string, number> {
  const out: Record<string, number> = { trainLoss: r.trainLoss };
  if (r.valLoss !== null) out.valLoss = r.valLoss;
  if (r.valAccuracy !== null) out.valAccuracy = r.valAccuracy;
  if (r.trainAccuracy !== null) out.trainAccuracy = r.trainAccuracy;
  return out;
}

export class FitterSession implements FamilySession {
  constructor(
    readonly family: FamilyName,
    protected readonly parent: SoftmaxLinearPolicy,
    protected readonly fitter: SoftmaxFitter,
    /** The family's own figures for the report (counts, retention…). */
    private readonly facts: () => Record<string, unknown>,
  ) {}

  get updates(): number {
    return this.fitter.epoch;
  }
  get finished(): boolean {
    return this.fitter.done;
  }

  async step() {
    const r = this.fitter.runEpoch();
    return { update: r.epoch, finished: this.finished, figures: epochFigures(r) };
  }

  candidate() {
    return policyCandidate(withWeights(this.parent, this.fitter.weights()));
  }

  report(): Record<string, unknown> {
    return { ...this.facts(), ...this.fitter.sizes, bestEpoch: this.fitter.bestEpoch(), history: this.fitter.history };
  }

  state(): unknown {
    return this.fitter.state();
  }
}
