// Check 4's paired comparison: the per-case deltas candidate − exact parent on the locked set, and the 95 %
// Student-t interval of their mean (jStat's t distribution). Its lower end is a one-sided 97.5 % bound, so a
// candidate passes at α = 2.5 % when that bound clears the policy's minimum gain. Why this (bench/check4.ts,
// n = 20): with a minimum gain of 0.01 only bootstrap-t and BCa hold α for left-skewed no-gain deltas, and both
// read three catastrophic cases in 60 (reference candidate C, whose gain the spec counts) as no gain; with the
// default 0.02 every method holds α, and the t interval is the one still valid at a true gain equal to the
// minimum for normal and heavy-tailed deltas. Exact for normal deltas, and no resampling.
import jstat from "jstat";

const { jStat } = jstat;

export const PAIRED_TEST = {
  method: "paired Student-t interval of the mean per-case delta (candidate − parent)",
  confidence: 0.95,
} as const;

export type PairedInterval = {
  method: string;
  /** Cases scored on both sides. */
  n: number;
  meanDelta: number;
  /** Standard error of the mean delta, and the t distribution's degrees of freedom (n − 1). */
  se: number;
  df: number;
  confidence: number;
  lower: number;
  upper: number;
};

/** The t interval of the mean of `deltas` (one per case); null below two cases (no spread to estimate). */
export function pairedInterval(deltas: readonly number[], opts: typeof PAIRED_TEST = PAIRED_TEST): PairedInterval | null {
  const n = deltas.length;
  if (n < 2) return null;
  const xs = [...deltas];
  const meanDelta = jStat.mean(xs);
  const se = jStat.stdev(xs, true) / Math.sqrt(n);
  const df = n - 1;
  // Constant deltas leave no spread: the interval is the point.
  const half = se > 0 ? jStat.studentt.inv(1 - (1 - opts.confidence) / 2, df) * se : 0;
  return { method: opts.method, n, meanDelta, se, df, confidence: opts.confidence, lower: meanDelta - half, upper: meanDelta + half };
}

/** Check 4's floor (policy): at least this many locked cases, and the interval's lower end above this gain. */
export type Check4Floor = { minLockedCases: number; minScoreGain: number };

/** Whether a paired comparison clears check 4's floor — the one rule the check and bench/check4.ts apply. */
export function clearsFloor(paired: PairedInterval | null, floor: Check4Floor): boolean {
  return paired !== null && paired.n >= floor.minLockedCases && paired.lower > floor.minScoreGain;
}
