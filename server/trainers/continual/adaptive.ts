// Adaptive learning: adjusts the learning rate and the exploration rate from how a monitored score
// (higher is better) moves — the seed's triggers: a plateau raises the learning rate, a decline lowers
// it, rapid improvement keeps the settings, and a new task raises exploration, which then decays.
import { z } from "zod";

export const adaptiveSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Observations compared: the latest against the best of the previous `window`. */
    window: z.number().int("window must be an integer").min(1, "window must be ≥ 1").default(3),
    /** A change within ±tolerance of the recent best is a plateau. */
    tolerance: z.number().min(0, "tolerance must be ≥ 0").default(0.005),
    increase: z.number().min(1, "increase must be ≥ 1").default(1.5),
    decrease: z.number().gt(0, "decrease must be > 0").max(1, "decrease must be ≤ 1").default(0.5),
    minLearningRate: z.number().gt(0, "minLearningRate must be > 0").default(1e-4),
    maxLearningRate: z.number().gt(0, "maxLearningRate must be > 0").default(1),
    /** Exploration after a detected new task, decaying by `explorationDecay` per update towards `minExploration`. */
    newTaskExploration: z.number().min(0, "newTaskExploration must be ≥ 0").max(1, "newTaskExploration must be ≤ 1").default(0.3),
    explorationDecay: z.number().gt(0, "explorationDecay must be > 0").max(1, "explorationDecay must be ≤ 1").default(0.7),
    minExploration: z.number().min(0, "minExploration must be ≥ 0").max(1, "minExploration must be ≤ 1").default(0.02),
  })
  .strict();
export type AdaptiveConfig = z.output<typeof adaptiveSchema>;
export type AdaptiveTrigger = "warming_up" | "performance_plateau" | "performance_decline" | "rapid_improvement" | "new_task_type";
export type AdaptiveState = { baseLearningRate: number; learningRate: number; exploration: number; scores: number[]; log: { trigger: AdaptiveTrigger; learningRate: number; exploration: number }[] };

export class AdaptiveController {
  readonly #cfg: AdaptiveConfig;
  #s: AdaptiveState;

  constructor(cfg: AdaptiveConfig, learningRate: number, state?: AdaptiveState) {
    this.#cfg = cfg;
    this.#s = state ? structuredClone(state) : { baseLearningRate: learningRate, learningRate, exploration: cfg.minExploration, scores: [], log: [] };
  }

  get learningRate() {
    return this.#s.learningRate;
  }
  get exploration() {
    return this.#s.exploration;
  }

  /**
   * A new task began: raise exploration (its decay starts with the next observation) and go back to
   * the base learning rate — the drop that announced the task is no reason to learn it slowly.
   */
  newTask(): AdaptiveTrigger {
    if (this.#cfg.enabled) {
      this.#s.exploration = Math.max(this.#s.exploration, this.#cfg.newTaskExploration);
      this.#s.learningRate = this.#s.baseLearningRate;
    }
    this.#s.scores = [];
    this.#record("new_task_type");
    return "new_task_type";
  }

  /** Records the latest score and adapts; returns what triggered. */
  observe(score: number): AdaptiveTrigger {
    const c = this.#cfg;
    const s = this.#s;
    const prior = s.scores.slice(-c.window);
    s.scores.push(score);
    if (s.scores.length > c.window + 1) s.scores.shift();
    if (c.enabled) s.exploration = Math.max(c.minExploration, s.exploration * c.explorationDecay);
    let trigger: AdaptiveTrigger = "warming_up";
    if (prior.length >= c.window) {
      const best = Math.max(...prior);
      if (score > best + c.tolerance) trigger = "rapid_improvement";
      else if (score < Math.min(...prior) - c.tolerance) trigger = "performance_decline";
      else trigger = "performance_plateau";
    }
    if (c.enabled && trigger === "performance_plateau") s.learningRate = Math.min(c.maxLearningRate, s.learningRate * c.increase);
    if (c.enabled && trigger === "performance_decline") s.learningRate = Math.max(c.minLearningRate, s.learningRate * c.decrease);
    this.#record(trigger);
    return trigger;
  }

  #record(trigger: AdaptiveTrigger) {
    this.#s.log.push({ trigger, learningRate: this.#s.learningRate, exploration: this.#s.exploration });
  }

  state(): AdaptiveState {
    return structuredClone(this.#s);
  }
}
