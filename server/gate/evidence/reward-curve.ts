// Reward curves: the raw final reward of each finished rollout in time order, with a causal, debiased EMA
// (past points never move as the run grows), and a downsampler that keeps spikes.
import type { RolloutRollup } from "../receipt/stage2";

export type RewardPoint = { t: number; rolloutId: string; raw: number; smoothed: number };
export type RewardCurve = {
  points: RewardPoint[];
  /** Finished rollouts that recorded no reward: shown as a count, never as a zero. */
  missingReward: number;
  mean: number | null;
};

/**
 * Exponential moving average debiased like TensorBoard's: without the 1/(1-w^n) correction the first
 * points lean towards 0. `weight` 0 returns the raw values.
 */
export function debiasedEma(values: readonly number[], weight: number): number[] {
  if (!(weight >= 0 && weight < 1)) throw new RangeError("smoothing weight must be in [0, 1)");
  let last = 0;
  let correction = 1;
  return values.map((v) => {
    last = last * weight + (1 - weight) * v;
    correction *= weight;
    return last / (1 - correction);
  });
}

export function rewardCurve(rollouts: readonly RolloutRollup[], opts: { weight?: number; mode?: RolloutRollup["mode"] } = {}): RewardCurve {
  const finished = rollouts.filter(
    (r) => (r.status === "succeeded" || r.status === "failed") && r.endTime !== null && (opts.mode === undefined || r.mode === opts.mode),
  );
  const rewarded = finished
    .filter((r): r is RolloutRollup & { reward: number; endTime: number } => r.reward !== null)
    .sort((a, b) => a.endTime - b.endTime || a.rolloutId.localeCompare(b.rolloutId));
  const smoothed = debiasedEma(rewarded.map((r) => r.reward), opts.weight ?? 0.6);
  const points = rewarded.map((r, i) => ({ t: r.endTime, rolloutId: r.rolloutId, raw: r.reward, smoothed: smoothed[i]! }));
  return {
    points,
    missingReward: finished.length - rewarded.length,
    mean: points.length ? points.reduce((s, p) => s + p.raw, 0) / points.length : null,
  };
}

/**
 * At most `maxPoints` points for drawing: per bucket the first, the lowest, the highest and the last raw
 * point, in time order, so a single spike survives any zoom level.
 */
export function downsample(points: readonly RewardPoint[], maxPoints: number): RewardPoint[] {
  if (maxPoints < 4) throw new RangeError("maxPoints must be at least 4");
  if (points.length <= maxPoints) return [...points];
  const buckets = Math.floor(maxPoints / 4);
  const size = Math.ceil(points.length / buckets);
  const out: RewardPoint[] = [];
  for (let start = 0; start < points.length; start += size) {
    const bucket = points.slice(start, start + size);
    let lo = bucket[0]!;
    let hi = bucket[0]!;
    for (const p of bucket) {
      if (p.raw < lo.raw) lo = p;
      if (p.raw > hi.raw) hi = p;
    }
    const keep = new Set([bucket[0]!, lo, hi, bucket.at(-1)!]);
    out.push(...bucket.filter((p) => keep.has(p)));
  }
  return out;
}
