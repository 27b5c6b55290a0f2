// Online learning from single interactions' feedback (the seed's `process_feedback`): each piece of
// feedback on a recorded interaction gets a confidence — rater credibility × how decisive it is (a
// 5-star or 1-star rating is, a 3 is not; a correction is) — and is queued only above the confidence
// threshold. Every `batchSize` queued items are applied together: approved interactions are imitated,
// corrections and mapped suggestions are labels, anchored to the last accepted weights (forgetting
// protection). After each batch the monitor — the trainer's own validation split, never the gate's locked
// held-out set — compares new and accepted weights: a drop beyond the tolerance yields a rollback proposal
// for the gate and the learner keeps the accepted weights; otherwise the new weights become a new
// candidate. Nothing edits a default.
import { z } from "zod";
import type { Feedback, Interaction } from "@/server/datasets/records";
import { actionIndexer, featuresOf, policyCandidate, requireRecords, withWeights, type AnyEnvironment, type FamilySession, type FamilyStart, softmaxFamily } from "../family";
import { evaluatePolicy, type HeldOutSet } from "../evaluate";
import type { SoftmaxLinearPolicy } from "../policy";
import { policyDigest } from "../policy-resource";
import { ratingScore } from "../supervised/feedback";
import { SoftmaxFitter } from "../supervised/fitter";
import type { Item } from "../supervised/objective";
import { decideAfterUpdate, type RollbackDecision } from "./rollback";
import { ownValue } from "@/lib/own";

export const onlineConfigSchema = z
  .object({
    /** Learning rate of each applied batch (the seed's adaptation_rate). */
    adaptationRate: z.number().gt(0, "adaptationRate must be > 0").max(10, "adaptationRate must be ≤ 10").default(0.1),
    confidenceThreshold: z.number().min(0, "confidenceThreshold must be ≥ 0").max(1, "confidenceThreshold must be ≤ 1").default(0.8),
    /** Queued feedback items applied together (batch learning). */
    batchSize: z.number().int("batchSize must be an integer").min(1, "batchSize must be ≥ 1").max(100_000).default(16),
    epochs: z.number().int("epochs must be an integer").min(1, "epochs must be ≥ 1").max(100).default(3),
    ratingMidpoint: z.number().min(1, "ratingMidpoint must be ≥ 1").max(5, "ratingMidpoint must be ≤ 5").default(3),
    /** Push-down on disapproved interactions (see the feedback family for why 0 by default). */
    disapprovalWeight: z.number().min(0, "disapprovalWeight must be ≥ 0").max(10).default(0),
    /** L2 pull towards the last accepted weights (catastrophic-forgetting protection). */
    anchorStrength: z.number().min(0, "anchorStrength must be ≥ 0").max(100).default(0.01),
    rollback: z
      .object({
        enabled: z.boolean().default(true),
        /** Largest tolerated fall of the monitored mean reward before proposing a rollback. */
        tolerance: z.number().min(0, "tolerance must be ≥ 0").default(0.02),
      })
      .strict()
      .prefault({}),
    /** Suggestion → the action that should have been taken, at the interaction's first or last step. */
    suggestionRules: z.record(z.string(), z.object({ action: z.string().min(1), at: z.enum(["first", "last"]) }).strict()).default({}),
    /** Feedback items fed per registry update. */
    feedbackPerUpdate: z.number().int("feedbackPerUpdate must be an integer").min(1, "feedbackPerUpdate must be ≥ 1").default(16),
  })
  .strict();
export type OnlineConfig = z.output<typeof onlineConfigSchema>;

export type FeedbackInput = Partial<Pick<Feedback, "rating" | "suggestions" | "correction" | "credibility" | "raterId">>;
export type ProcessResult = { status: "queued" | "below-confidence" | "unknown-interaction" | "no-signal"; confidence: number; pending: number; applied: RollbackDecision | null };

type Pending = { interactionId: string; kind: "ce" | "unlikely"; step: number | "all"; action: string | null; w: number };
export type OnlineState = { weights: number[]; accepted: number[]; acceptedScore: number | null; pending: Pending[]; batches: number; decisions: RollbackDecision[]; counts: Record<string, number> };

export class OnlineLearner {
  readonly #env: AnyEnvironment;
  readonly #parent: SoftmaxLinearPolicy;
  readonly #cfg: OnlineConfig;
  readonly #seed: string;
  readonly #monitor: HeldOutSet | null;
  readonly #interactions = new Map<string, Interaction>();
  readonly #s: OnlineState;

  constructor(env: AnyEnvironment, parent: SoftmaxLinearPolicy, cfg: OnlineConfig, seed: string, monitor: HeldOutSet | null, state?: OnlineState) {
    if (cfg.rollback.enabled && !monitor) throw new Error("online learning with rollback monitors the trainer's validation split: give it one (or disable rollback)");
    this.#env = env;
    this.#parent = parent;
    this.#cfg = cfg;
    this.#seed = seed;
    this.#monitor = monitor;
    this.#s = state ? structuredClone(state) : { weights: [...parent.weights], accepted: [...parent.weights], acceptedScore: null, pending: [], batches: 0, decisions: [], counts: { queued: 0, belowConfidence: 0, unknownInteraction: 0, applied: 0 } };
  }

  recordInteraction(interaction: Interaction): void {
    this.#interactions.set(interaction.id, interaction);
  }

  /** The accepted policy (what a candidate would be). */
  policy(): SoftmaxLinearPolicy {
    return withWeights(this.#parent, this.#s.accepted);
  }

  get decisions(): readonly RollbackDecision[] {
    return this.#s.decisions;
  }

  processFeedback(interactionId: string, feedback: FeedbackInput): ProcessResult {
    const s = this.#s;
    const interaction = this.#interactions.get(interactionId);
    const result = (status: ProcessResult["status"], confidence: number, applied: RollbackDecision | null = null): ProcessResult => ({ status, confidence, pending: s.pending.length, applied });
    if (!interaction) {
      s.counts.unknownInteraction!++;
      return result("unknown-interaction", 0);
    }
    const credibility = feedback.credibility ?? 1;
    const signals: Pending[] = [];
    const mid = this.#cfg.ratingMidpoint;
    if (feedback.rating !== undefined && feedback.rating !== null) {
      const score = ratingScore(feedback.rating, mid);
      if (score !== 0) signals.push({ interactionId, kind: score > 0 ? "ce" : "unlikely", step: "all", action: null, w: Math.abs(score) * credibility * (score < 0 ? this.#cfg.disapprovalWeight : 1) });
    }
    if (feedback.correction) signals.push({ interactionId, kind: "ce", step: feedback.correction.step, action: feedback.correction.action, w: credibility });
    for (const sug of feedback.suggestions ?? []) {
      const rule = ownValue(this.#cfg.suggestionRules, sug);
      if (rule) signals.push({ interactionId, kind: "ce", step: rule.at === "first" ? 0 : interaction.steps.length - 1, action: rule.action, w: credibility });
    }
    const usable = signals.filter((x) => x.w > 0);
    if (usable.length === 0) return result("no-signal", 0);
    const confidence = Math.max(...usable.map((x) => x.w));
    if (confidence < this.#cfg.confidenceThreshold) {
      s.counts.belowConfidence!++;
      return result("below-confidence", confidence);
    }
    s.pending.push(...usable);
    s.counts.queued!++;
    const applied = s.pending.length >= this.#cfg.batchSize ? this.#apply() : null;
    return result("queued", confidence, applied);
  }

  #items(): Item[] {
    const indexOf = actionIndexer(this.#env);
    return this.#s.pending.flatMap((p) => {
      const i = this.#interactions.get(p.interactionId)!;
      const steps = p.step === "all" ? i.steps.map((_, k) => k) : [p.step];
      return steps.map((k): Item => {
        const st = i.steps[k];
        if (!st) throw new Error(`feedback on interaction ${i.id} names step ${k}, which it does not have`);
        return { kind: p.kind, x: featuresOf(this.#env, st.features, `interaction ${i.id}`), y: indexOf(p.action ?? st.action), w: p.w, group: i.id };
      });
    });
  }

  #score(weights: number[]): number {
    return evaluatePolicy(this.#env, withWeights(this.#parent, weights), this.#monitor!).meanReward;
  }

  /** Applies the queued batch, then decides between a new candidate and a rollback proposal. */
  #apply(): RollbackDecision {
    const s = this.#s;
    const cfg = this.#cfg;
    const anchor = { center: Float64Array.from(s.accepted), strength: cfg.anchorStrength, fisher: null };
    const fitter = new SoftmaxFitter({
      nA: this.#env.actions.length,
      weights: Float64Array.from(s.accepted),
      items: this.#items(),
      config: { batchSize: 32, learningRate: cfg.adaptationRate, optimizer: "adam", maxEpochs: cfg.epochs, validationSplit: 0, earlyStopping: { enabled: false, patience: 1, minDelta: 0, restoreBest: false }, l2: 0 },
      seed: `${this.#seed}/online/${s.batches}`,
      anchor,
    });
    for (let e = 0; e < cfg.epochs; e++) fitter.runEpoch();
    const next = Array.from(fitter.weights());
    s.pending = [];
    s.batches++;
    s.counts.applied!++;
    const accepted = policyDigest(withWeights(this.#parent, s.accepted));
    const candidate = policyDigest(withWeights(this.#parent, next));
    let decision: RollbackDecision;
    if (cfg.rollback.enabled) {
      s.acceptedScore ??= this.#score(s.accepted);
      const after = this.#score(next);
      decision = decideAfterUpdate({ accepted, candidate, before: s.acceptedScore, after, tolerance: cfg.rollback.tolerance, metric: "validation mean reward" });
      if (decision.action === "new-candidate") s.acceptedScore = after;
    } else {
      decision = { action: "new-candidate", candidate, parent: accepted, before: NaN, after: NaN, reason: "rollback monitoring disabled" };
    }
    if (decision.action === "new-candidate") s.accepted = next;
    s.weights = next;
    s.decisions.push(decision);
    return decision;
  }

  state(): OnlineState {
    return structuredClone(this.#s);
  }
}

type OnlineSessionState = { learner: OnlineState; position: number; updates: number };

class OnlineSession implements FamilySession {
  readonly family = "online" as const;
  readonly #learner: OnlineLearner;
  readonly #feedback: Feedback[];
  readonly #cfg: OnlineConfig;
  #position: number;
  #updates: number;

  constructor(init: FamilyStart<OnlineConfig, SoftmaxLinearPolicy>, state?: OnlineSessionState) {
    this.#cfg = init.config;
    this.#learner = new OnlineLearner(init.environment, init.parent, init.config, init.seed, init.validation ?? null, state?.learner);
    for (const i of requireRecords("online", init.data, "interaction")) this.#learner.recordInteraction(i);
    this.#feedback = [...requireRecords("online", init.data, "feedback")].sort((a, b) => (a.givenAt < b.givenAt ? -1 : a.givenAt > b.givenAt ? 1 : a.id < b.id ? -1 : 1));
    this.#position = state?.position ?? 0;
    this.#updates = state?.updates ?? 0;
  }

  get updates() {
    return this.#updates;
  }
  get finished() {
    return this.#position >= this.#feedback.length;
  }

  async step() {
    if (this.finished) throw new Error("all feedback has been processed: no more updates");
    const chunk = this.#feedback.slice(this.#position, this.#position + this.#cfg.feedbackPerUpdate);
    const decisions: RollbackDecision[] = [];
    for (const f of chunk) {
      const r = this.#learner.processFeedback(f.interactionId, f);
      if (r.applied) decisions.push(r.applied);
    }
    this.#position += chunk.length;
    this.#updates++;
    const rollbacks = decisions.filter((d) => d.action === "propose-rollback").length;
    return { update: this.#updates, finished: this.finished, figures: { feedback: chunk.length, batchesApplied: decisions.length, rollbackProposals: rollbacks }, note: decisions.map((d) => d.reason).join("; ") || undefined };
  }

  candidate() {
    return policyCandidate(this.#learner.policy());
  }
  report() {
    const s = this.#learner.state();
    return { counts: s.counts, batches: s.batches, acceptedScore: s.acceptedScore, decisions: s.decisions };
  }
  state(): OnlineSessionState {
    return { learner: this.#learner.state(), position: this.#position, updates: this.#updates };
  }
}

export const onlineFamily = softmaxFamily({
  name: "online",
  description: "Learns from feedback on single interactions in confident batches; proposes a rollback (through the gate) when the monitored reward drops.",
  configSchema: onlineConfigSchema,
  reads: ["interaction", "feedback"],
  start: (init, state) => new OnlineSession(init, state as OnlineSessionState | undefined),
});
