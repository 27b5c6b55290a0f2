// PPO's per-update diagnostics as the field defines them (Schulman et al. 2017; Stable-Baselines3's logger), so a
// W&B user reads the same numbers: approximate KL between the behaviour and the updated policy, and how much of
// the return's variance the value function explains.

/**
 * Approximate KL(old ‖ new) over the sampled actions with the low-variance, never-negative estimator
 * mean((r − 1) − log r), r = π_new(a|s) / π_old(a|s) (Schulman, "Approximating KL divergence", 2020).
 * 0 for no samples.
 */
export function approxKl(oldLogP: ArrayLike<number>, newLogP: ArrayLike<number>): number {
  const n = oldLogP.length;
  if (n !== newLogP.length) throw new Error(`approxKl: ${n} old log-probabilities but ${newLogP.length} new ones`);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const logRatio = newLogP[i]! - oldLogP[i]!;
    sum += Math.expm1(logRatio) - logRatio;
  }
  return n ? sum / n : 0;
}

/**
 * Explained variance 1 − Var(returns − values) / Var(returns): 1 is a perfect critic, 0 no better than the mean,
 * negative worse. Null when the returns do not vary (the ratio is undefined), as SB3 reports NaN.
 */
export function explainedVariance(returns: ArrayLike<number>, values: ArrayLike<number>): number | null {
  const n = returns.length;
  if (n !== values.length) throw new Error(`explainedVariance: ${n} returns but ${values.length} values`);
  if (n === 0) return null;
  const varOf = (f: (i: number) => number) => {
    let mean = 0;
    for (let i = 0; i < n; i++) mean += f(i);
    mean /= n;
    let s = 0;
    for (let i = 0; i < n; i++) s += (f(i) - mean) ** 2;
    return s / n;
  };
  const vr = varOf((i) => returns[i]!);
  if (vr === 0) return null;
  return 1 - varOf((i) => returns[i]! - values[i]!) / vr;
}

/** The figures the training monitor charts, read from an update's stored figures (absent → null). */
export const PPO_DIAGNOSTICS = ["approxKl", "entropy", "clipFraction", "valueLoss", "explainedVariance"] as const;
export type PpoDiagnostic = (typeof PPO_DIAGNOSTICS)[number];
