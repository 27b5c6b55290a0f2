// Confidence intervals for single measurements and the multiple-comparison correction, from jStat's
// distributions: the t interval of a mean (exact under normality, good at the sample sizes used here),
// the Clopper–Pearson interval of a proportion (exact binomial, never below its nominal coverage), and
// Holm's step-down adjustment when several metrics are tested at once.
import { betaQuantile, chiSquareQuantile, tQuantile } from "./distributions";

/** A point estimate with its two-sided interval, at `confidence`, and how the interval was made. */
export type Interval = { estimate: number; ci: [number, number]; confidence: number; n: number; method: "t" | "clopper-pearson" | "none" };

export function mean(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s / xs.length;
}

export function sampleSd(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n < 2) return 0;
  const m = mean(xs);
  let s = 0;
  for (let i = 0; i < n; i++) s += (xs[i]! - m) ** 2;
  return Math.sqrt(s / (n - 1));
}

/** Student's t interval of a mean; one value (or none) has no spread to measure, so no interval. */
export function meanInterval(xs: ArrayLike<number>, confidence = 0.95): Interval {
  const n = xs.length;
  if (n === 0) throw new Error("an interval needs at least one value");
  const m = mean(xs);
  if (n < 2) return { estimate: m, ci: [m, m], confidence, n, method: "none" };
  const half = tQuantile(1 - (1 - confidence) / 2, n - 1) * (sampleSd(xs) / Math.sqrt(n));
  return { estimate: m, ci: [m - half, m + half], confidence, n, method: "t" };
}

/** Clopper–Pearson interval of `successes` out of `n` (beta quantiles; exact at 0 and n). */
export function proportionInterval(successes: number, n: number, confidence = 0.95): Interval {
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(successes) || successes < 0 || successes > n) throw new Error("a proportion needs 0 ≤ successes ≤ n, whole numbers, n ≥ 1");
  const a = (1 - confidence) / 2;
  const lo = successes === 0 ? 0 : betaQuantile(a, successes, n - successes + 1);
  const hi = successes === n ? 1 : betaQuantile(1 - a, successes + 1, n - successes);
  return { estimate: successes / n, ci: [lo, hi], confidence, n, method: "clopper-pearson" };
}

/** The χ² interval of a standard deviation measured on n values (normal data assumed); n ≥ 2. */
export function sdInterval(sd: number, n: number, confidence = 0.95): [number, number] {
  if (!Number.isInteger(n) || n < 2) throw new Error("an SD interval needs at least two values");
  const a = (1 - confidence) / 2;
  return [sd * Math.sqrt((n - 1) / chiSquareQuantile(1 - a, n - 1)), sd * Math.sqrt((n - 1) / chiSquareQuantile(a, n - 1))];
}

/**
 * Holm's step-down adjusted p-values (same order as given): the i-th smallest p is multiplied by
 * (m − i + 1), kept monotone and capped at 1. Rejecting where adjusted p < α controls the chance of any
 * false rejection among the m tests at α, whatever their dependence.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[i] = running;
  });
  return out;
}
