// A/B testing of training configurations: each arm is trained with several seeds and measured on the
// same locked evaluation; the arms are compared with Welch's t-test (unequal variances; t distribution
// from jStat), a seeded percentile-bootstrap confidence interval of the mean difference, Cohen's d and
// Hedges' g, the power the comparison had against the observed effect (noncentral t), and the minimum
// effect it could detect at the chosen α and power — so "no significance" comes with what it could have seen.
import { Rng } from "@/server/environments/prng";
import { noncentralTCdf, tCdf, tQuantile } from "./distributions";

export type Summary = { n: number; mean: number; sd: number };

export function summarize(xs: readonly number[]): Summary {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1)) : 0;
  return { n, mean, sd };
}

export type WelchResult = { difference: number; t: number; df: number; pValue: number; ci: [number, number]; confidence: number };

/** Welch's two-sample t test of mean(b) − mean(a) ≠ 0 (two-sided), with its confidence interval. */
export function welchTTest(a: readonly number[], b: readonly number[], confidence = 0.95): WelchResult {
  if (a.length < 2 || b.length < 2) throw new Error("Welch's t test needs at least two observations per arm");
  const A = summarize(a);
  const B = summarize(b);
  const va = A.sd ** 2 / A.n;
  const vb = B.sd ** 2 / B.n;
  const se = Math.sqrt(va + vb);
  const difference = B.mean - A.mean;
  if (se === 0) {
    // Both arms constant: the difference is either exactly zero or certain.
    return { difference, t: difference === 0 ? 0 : Math.sign(difference) * Infinity, df: A.n + B.n - 2, pValue: difference === 0 ? 1 : 0, ci: [difference, difference], confidence };
  }
  const df = (va + vb) ** 2 / (va ** 2 / (A.n - 1) + vb ** 2 / (B.n - 1));
  const t = difference / se;
  const pValue = Math.min(1, 2 * (1 - tCdf(Math.abs(t), df)));
  const q = tQuantile(1 - (1 - confidence) / 2, df);
  return { difference, t, df, pValue, ci: [difference - q * se, difference + q * se], confidence };
}

/** Percentile bootstrap CI of mean(b) − mean(a), resampling each arm with replacement (seeded). */
export function bootstrapDifferenceCI(a: readonly number[], b: readonly number[], o: { resamples?: number; confidence?: number; seed: string }): [number, number] {
  const resamples = o.resamples ?? 10_000;
  const confidence = o.confidence ?? 0.95;
  const rng = Rng.from(`${o.seed}/bootstrap`);
  const mean = (xs: readonly number[]) => {
    let s = 0;
    for (let i = 0; i < xs.length; i++) s += xs[rng.int(xs.length)]!;
    return s / xs.length;
  };
  const diffs = Float64Array.from({ length: resamples }, () => mean(b) - mean(a)).sort();
  const lo = diffs[Math.floor(((1 - confidence) / 2) * resamples)]!;
  const hi = diffs[Math.min(resamples - 1, Math.ceil((1 - (1 - confidence) / 2) * resamples) - 1)]!;
  return [lo, hi];
}

/** Cohen's d (pooled SD) and Hedges' g (small-sample corrected) of b over a. */
export function effectSize(a: readonly number[], b: readonly number[]): { d: number; g: number; pooledSd: number } {
  const A = summarize(a);
  const B = summarize(b);
  const pooledSd = Math.sqrt(((A.n - 1) * A.sd ** 2 + (B.n - 1) * B.sd ** 2) / (A.n + B.n - 2));
  const d = pooledSd > 0 ? (B.mean - A.mean) / pooledSd : 0;
  return { d, g: d * (1 - 3 / (4 * (A.n + B.n) - 9)), pooledSd };
}

/** Power of the two-sided two-sample t test to detect standardized effect d with these sample sizes. */
export function power(d: number, na: number, nb: number, alpha = 0.05): number {
  const df = na + nb - 2;
  const ncp = Math.abs(d) / Math.sqrt(1 / na + 1 / nb);
  const tc = tQuantile(1 - alpha / 2, df);
  return 1 - noncentralTCdf(tc, df, ncp) + noncentralTCdf(-tc, df, ncp);
}

/** Smallest standardized effect detected with the given power (bisection on the power curve). */
export function minimumDetectableEffect(na: number, nb: number, alpha = 0.05, targetPower = 0.8): number {
  let lo = 0;
  let hi = 10;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (power(mid, na, nb, alpha) < targetPower) lo = mid;
    else hi = mid;
  }
  return hi;
}

export type AbReport = {
  metric: string;
  a: { name: string } & Summary & { values: number[] };
  b: { name: string } & Summary & { values: number[] };
  /** mean(b) − mean(a). */
  difference: number;
  welch: WelchResult;
  bootstrap: { ci: [number, number]; resamples: number };
  effectSize: { d: number; g: number };
  alpha: number;
  significant: boolean;
  /** Power against the observed effect, and the smallest effect (standardized and in metric units) detectable at 80 %. */
  power: { observed: number; target: number; minimumDetectableEffect: { d: number; metric: number } };
  sentence: string;
};

export function compareArms(o: { metric: string; a: { name: string; values: number[] }; b: { name: string; values: number[] }; alpha?: number; seed: string; resamples?: number; targetPower?: number }): AbReport {
  const alpha = o.alpha ?? 0.05;
  const targetPower = o.targetPower ?? 0.8;
  const resamples = o.resamples ?? 10_000;
  const A = summarize(o.a.values);
  const B = summarize(o.b.values);
  const welch = welchTTest(o.a.values, o.b.values, 1 - alpha);
  const es = effectSize(o.a.values, o.b.values);
  const mde = minimumDetectableEffect(A.n, B.n, alpha, targetPower);
  const significant = welch.pValue < alpha;
  const f = (v: number) => v.toFixed(3);
  const sentence = significant
    ? `${o.b.name} differs from ${o.a.name} on ${o.metric} by ${f(welch.difference)} (${Math.round((1 - alpha) * 100)} % CI ${f(welch.ci[0])} … ${f(welch.ci[1])}, Welch p = ${welch.pValue.toPrecision(3)}, n = ${A.n} + ${B.n})`
    : `no significant difference on ${o.metric} (Δ ${f(welch.difference)}, Welch p = ${welch.pValue.toPrecision(3)}, n = ${A.n} + ${B.n}); with these sizes only effects ≥ ${f(mde * es.pooledSd)} (d ≥ ${mde.toFixed(2)}) are detected with ${Math.round(targetPower * 100)} % power`;
  return {
    metric: o.metric,
    a: { name: o.a.name, ...A, values: [...o.a.values] },
    b: { name: o.b.name, ...B, values: [...o.b.values] },
    difference: welch.difference,
    welch,
    bootstrap: { ci: bootstrapDifferenceCI(o.a.values, o.b.values, { resamples, confidence: 1 - alpha, seed: o.seed }), resamples },
    effectSize: { d: es.d, g: es.g },
    alpha,
    significant,
    power: { observed: power(es.d, A.n, B.n, alpha), target: targetPower, minimumDetectableEffect: { d: mde, metric: mde * es.pooledSd } },
    sentence,
  };
}

/**
 * Trains each configuration once per seed (via `measure`) and compares the arms. The arms draw
 * independent seeds (`<seed>/A`, `<seed>/B`), as Welch's test assumes independent samples — so two
 * identical configurations still give two different samples.
 */
export async function abTest<C>(o: {
  metric: string;
  a: { name: string; config: C };
  b: { name: string; config: C };
  seeds: readonly string[];
  measure: (config: C, seed: string) => Promise<number>;
  alpha?: number;
}): Promise<AbReport> {
  const values = async (config: C, arm: string) => {
    const out: number[] = [];
    for (const seed of o.seeds) out.push(await o.measure(config, `${seed}/${arm}`));
    return out;
  };
  const [a, b] = [await values(o.a.config, "A"), await values(o.b.config, "B")];
  return compareArms({ metric: o.metric, a: { name: o.a.name, values: a }, b: { name: o.b.name, values: b }, alpha: o.alpha, seed: `ab/${o.a.name}/${o.b.name}/${o.seeds.join(",")}` });
}
