// The reward model: weighted components (the training-system document's defaults: task completion 0.4,
// user satisfaction 0.3, efficiency 0.2, accuracy 0.1), temporal discounting, and normalisation by a
// running mean/std of discounted returns. Plus the reward-hacking signal the stop conditions read:
// reward trending up while span coverage or the protected-case pass rate trends down.
import { z } from "zod";
import { DEFAULT_REWARD_WEIGHTS, REWARD_COMPONENTS, weightedReward, type RewardComponents } from "@/server/environments/types";
import type { Trajectory } from "@/server/environments/trajectory";

export { DEFAULT_REWARD_WEIGHTS };

const weight = (name: string) => z.number({ error: `${name} weight must be a number` }).min(0, `${name} weight must be ≥ 0`).max(10, `${name} weight must be ≤ 10`);

export const rewardModelConfigSchema = z
  .object({
    weights: z
      .object({
        task_completion: weight("task_completion"),
        user_satisfaction: weight("user_satisfaction"),
        efficiency: weight("efficiency"),
        accuracy: weight("accuracy"),
      })
      .strict()
      .default({ ...DEFAULT_REWARD_WEIGHTS })
      .refine((w) => REWARD_COMPONENTS.some((k) => w[k] > 0), "at least one reward weight must be positive"),
    /** γ: how much a reward one step later is worth now. The algorithms' discount. */
    discount: z.number().gt(0, "discount must be > 0").max(1, "discount must be ≤ 1").default(0.95),
    /** Scale rewards by the running std of discounted returns (see normalizeRewards for why not the mean). */
    normalize: z.boolean().default(false),
    /** After scaling, rewards are clipped to ±clip. */
    clip: z.number().positive("clip must be > 0").default(10),
  })
  .strict();
export type RewardModelConfig = z.output<typeof rewardModelConfigSchema>;

/** What the reward model reads of a trajectory: each step's components. */
export type RewardSteps = { steps: readonly { components: RewardComponents }[] };

/** Per-step scalar rewards of a trajectory under the model's weights. */
export function stepRewards(trajectory: RewardSteps, weights: Readonly<RewardComponents>): Float64Array {
  const out = new Float64Array(trajectory.steps.length);
  trajectory.steps.forEach((s, i) => (out[i] = weightedReward(s.components, weights)));
  return out;
}

/** G_t = r_t + γ r_{t+1} + γ² r_{t+2} + … to the end of the episode. */
export function discountedReturns(rewards: ArrayLike<number>, discount: number): Float64Array {
  const out = new Float64Array(rewards.length);
  let g = 0;
  for (let t = rewards.length - 1; t >= 0; t--) {
    g = rewards[t]! + discount * g;
    out[t] = g;
  }
  return out;
}

export type RunningStatsState = { count: number; mean: number; m2: number };

/** Running mean and variance (Welford, merged batch-wise with Chan et al.'s formula). */
export class RunningMeanStd {
  count = 0;
  mean = 0;
  m2 = 0;

  static from(state: RunningStatsState): RunningMeanStd {
    const r = new RunningMeanStd();
    Object.assign(r, { count: state.count, mean: state.mean, m2: state.m2 });
    return r;
  }

  update(values: ArrayLike<number>): void {
    const n = values.length;
    if (n === 0) return;
    let mean = 0;
    for (let i = 0; i < n; i++) mean += values[i]!;
    mean /= n;
    let m2 = 0;
    for (let i = 0; i < n; i++) m2 += (values[i]! - mean) ** 2;
    const total = this.count + n;
    const delta = mean - this.mean;
    this.m2 += m2 + (delta * delta * this.count * n) / total;
    this.mean += (delta * n) / total;
    this.count = total;
  }

  variance(): number {
    return this.count > 1 ? this.m2 / this.count : 1;
  }

  std(): number {
    return Math.sqrt(this.variance() + 1e-8);
  }

  state(): RunningStatsState {
    return { count: this.count, mean: this.mean, m2: this.m2 };
  }
}

/**
 * The learning signal of a batch: weighted step rewards, optionally divided by the running std of
 * discounted returns and clipped. Only the scale is normalised: subtracting a running mean would add a
 * constant to every step, which in episodes of different lengths rewards or punishes merely lasting
 * longer — it would change which policy is best, not just the step size.
 */
export function normalizeRewards(trajectories: readonly RewardSteps[], config: RewardModelConfig, stats: RunningMeanStd): Float64Array[] {
  const raw = trajectories.map((t) => stepRewards(t, config.weights));
  if (!config.normalize) return raw;
  observeReturns(raw, config.discount, stats);
  return raw.map((r) => r.map((v) => scaleReward(v, config, stats)));
}

/** Feeds a batch's discounted returns into the running statistics. */
export function observeReturns(rewards: readonly Float64Array[], discount: number, stats: RunningMeanStd): void {
  for (const r of rewards) stats.update(discountedReturns(r, discount));
}

/** One reward as the learner sees it: divided by the running return std and clipped, when normalising. */
export function scaleReward(reward: number, config: RewardModelConfig, stats: RunningMeanStd): number {
  if (!config.normalize) return reward;
  return Math.max(-config.clip, Math.min(config.clip, reward / stats.std()));
}

// ——— reward hacking ———

/** One window of training evidence (e.g. one update's batch of rollouts). */
export type WindowStats = {
  meanReward: number;
  /** Share of rollouts with full expected-span coverage, 0..1. */
  coverage: number;
  /** Share of protected cases that passed, 0..1; null when the window had none. */
  protectedPassRate: number | null;
};

export const rewardHackingThresholdsSchema = z
  .object({
    minWindows: z.number().int().min(3, "minWindows must be ≥ 3").default(4),
    /** Fitted rise of mean reward across the windows that counts as "reward going up". */
    rewardRise: z.number().positive("rewardRise must be > 0").default(0.05),
    /** Fitted fall of coverage across the windows that counts as "coverage going down". */
    coverageDrop: z.number().positive("coverageDrop must be > 0").default(0.05),
    protectedDrop: z.number().positive("protectedDrop must be > 0").default(0.05),
  })
  .strict();
export type RewardHackingThresholds = z.output<typeof rewardHackingThresholdsSchema>;

/** Change along the least-squares line through the points (slope × span); null with < 2 points. */
export function fittedChange(points: readonly { x: number; y: number }[]): number | null {
  if (points.length < 2) return null;
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
  }
  if (sxx === 0) return null;
  const span = points[n - 1]!.x - points[0]!.x;
  return (sxy / sxx) * span;
}

export type RewardHackingSignal = {
  fired: boolean;
  reasons: string[];
  trend: { reward: number | null; coverage: number | null; protectedPassRate: number | null };
  windows: number;
};

export function rewardHackingSignal(windows: readonly WindowStats[], thresholdsInput: Partial<RewardHackingThresholds> = {}): RewardHackingSignal {
  const th = rewardHackingThresholdsSchema.parse(thresholdsInput);
  const reward = fittedChange(windows.map((w, x) => ({ x, y: w.meanReward })));
  const coverage = fittedChange(windows.map((w, x) => ({ x, y: w.coverage })));
  const protectedPoints = windows.flatMap((w, x) => (w.protectedPassRate === null ? [] : [{ x, y: w.protectedPassRate }]));
  const protectedPassRate = fittedChange(protectedPoints);
  const trend = { reward, coverage, protectedPassRate };
  const reasons: string[] = [];
  if (windows.length < th.minWindows || reward === null || reward < th.rewardRise) return { fired: false, reasons, trend, windows: windows.length };
  const fmt = (v: number) => (v >= 0 ? "+" : "") + v.toFixed(3);
  if (coverage !== null && coverage <= -th.coverageDrop) reasons.push(`reward ${fmt(reward)} while span coverage ${fmt(coverage)} over ${windows.length} windows`);
  if (protectedPassRate !== null && protectedPassRate <= -th.protectedDrop) {
    reasons.push(`reward ${fmt(reward)} while protected-case pass rate ${fmt(protectedPassRate)} over ${protectedPoints.length} windows`);
  }
  return { fired: reasons.length > 0, reasons, trend, windows: windows.length };
}

/** A window's stats from its rollouts' final trajectories. */
export function windowStatsOf(trajectories: readonly Trajectory[]): WindowStats {
  const rewards = trajectories.flatMap((t) => (t.episodeReward === null ? [] : [t.episodeReward]));
  const cases = trajectories.flatMap((t) => (t.protected ? [t.protected] : []));
  return {
    meanReward: rewards.length ? rewards.reduce((a, b) => a + b, 0) / rewards.length : 0,
    coverage: trajectories.length ? trajectories.filter((t) => t.complete).length / trajectories.length : 0,
    protectedPassRate: cases.length ? cases.filter((c) => c.pass).length / cases.length : null,
  };
}
