// Reward curves: the final reward of each finished rollout, in time order, as raw {x, y} points. Smoothing
// (causal, debiased EMA) and spike-keeping downsampling belong to the chart: lib/charts/smoothing takes
// these points as they are, so the gate and the dashboard never smooth twice or differently.
import type { RolloutRollup } from "../receipt/stage2";

/** x: the rollout's end time (epoch seconds); y: its final reward. */
export type RewardPoint = { x: number; y: number; rolloutId: string };
export type RewardCurve = {
  points: RewardPoint[];
  /** Finished rollouts that recorded no reward: shown as a count, never as a zero. */
  missingReward: number;
  mean: number | null;
};

export function rewardCurve(rollouts: readonly RolloutRollup[], opts: { mode?: RolloutRollup["mode"] } = {}): RewardCurve {
  const finished = rollouts.filter(
    (r) => (r.status === "succeeded" || r.status === "failed") && r.endTime !== null && (opts.mode === undefined || r.mode === opts.mode),
  );
  const points = finished
    .filter((r): r is RolloutRollup & { reward: number; endTime: number } => r.reward !== null)
    .sort((a, b) => a.endTime - b.endTime || a.rolloutId.localeCompare(b.rolloutId))
    .map((r) => ({ x: r.endTime, y: r.reward, rolloutId: r.rolloutId }));
  return {
    points,
    missingReward: finished.length - points.length,
    mean: points.length ? points.reduce((s, p) => s + p.y, 0) / points.length : null,
  };
}
