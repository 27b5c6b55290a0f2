// A/B testing of training configurations: each arm is trained with several seeds and measured on the
// same evaluation set; the arms are compared with Welch's t test and its interval (unequal variances; the
// t distribution from jStat — its coverage holds at the handful of seeds per arm an A/B test can afford,
// where a percentile bootstrap over-rejects: 9 % instead of 5 % at 6 seeds, bench/ab-coverage.ts) or, for
// skewed metrics, the Mann–Whitney test with the Hodges–Lehmann shift and its exact Moses interval; Holm's
// correction across the metrics compared; Cohen's d and Hedges' g; and prospective power: for the smallest
// difference worth detecting (chosen before looking), the power this test had and the runs per arm it
// needs — never the "observed power", which only restates the p-value.
import { holmAdjust, mean, sampleSd } from "./intervals";
import { noncentralTCdf, tCdf, tQuantile } from "./distributions";
import { mannWhitney, type RankSumResult } from "./rank-sum";

export type Summary = { n: number; mean: number; sd: number };

export function summarize(xs: readonly number[]): Summary {
  return { n: xs.length, mean: mean(xs), sd: sampleSd(xs) };
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
  if (!Number.isFinite(d)) return 1;
  const df = na + nb - 2;
  const ncp = Math.abs(d) / Math.sqrt(1 / na + 1 / nb);
  const tc = tQuantile(1 - alpha / 2, df);
  return 1 - noncentralTCdf(tc, df, ncp) + noncentralTCdf(-tc, df, ncp);
}

/** Smallest standardized effect detected with the given power (bisection on the power curve). */
export function minimumDetectableEffect(na: number, nb: number, alpha = 0.05, targetPower = 0.8): number {
  let lo = 0;
  let hi = 10;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (power(mid, na, nb, alpha) < targetPower) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Beyond this many runs per arm a plan is reported as "more than" it. */
export const MAX_PLANNED_RUNS = 10_000;

/** Runs per arm for the t test to reach `targetPower` against standardized effect d (null: more than MAX_PLANNED_RUNS). */
export function runsPerArmFor(d: number, alpha = 0.05, targetPower = 0.8): number | null {
  if (!(Math.abs(d) > 0)) return null;
  if (power(d, MAX_PLANNED_RUNS, MAX_PLANNED_RUNS, alpha) < targetPower) return null;
  let lo = 2;
  let hi = MAX_PLANNED_RUNS;
  if (power(d, lo, lo, alpha) >= targetPower) return lo;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (power(d, mid, mid, alpha) >= targetPower) hi = mid;
    else lo = mid;
  }
  return hi;
}

export type AbTestKind = "welch" | "mann-whitney";

/** What decides: the chosen test's p-value and the interval of the difference it is dual to. */
export type Decision = { test: AbTestKind; estimate: number; pValue: number; ci: [number, number] | null; confidence: number };

/** The chosen test's verdict on b − a (unadjusted): `compareArms` and the coverage simulation share it. */
export function decide(a: readonly number[], b: readonly number[], o: { test: AbTestKind; alpha: number }): Decision & { welch: WelchResult; rankSum: RankSumResult } {
  const welch = welchTTest(a, b, 1 - o.alpha);
  const rankSum = mannWhitney(a, b, 1 - o.alpha);
  const chosen: Decision =
    o.test === "welch"
      ? { test: "welch", estimate: welch.difference, pValue: welch.pValue, ci: welch.ci, confidence: welch.confidence }
      : { test: "mann-whitney", estimate: rankSum.shift, pValue: rankSum.pValue, ci: rankSum.ci, confidence: rankSum.confidence };
  return { ...chosen, welch, rankSum };
}

/** Prospective power: against the smallest difference worth detecting, chosen before the test ran. */
export type Planning = {
  /** The difference worth detecting, in metric units. */
  effect: number;
  /** The spread it is standardized by: the pooled SD of the runs (what the next test will likely see). */
  sd: number;
  /** effect / sd; null when the runs did not vary (any difference is then certain). */
  d: number | null;
  targetPower: number;
  /** The power this test had against `effect`. */
  power: number;
  /** Runs per arm to reach `targetPower` (null: more than MAX_PLANNED_RUNS). */
  runsPerArm: number | null;
  /** The smallest difference this test detects with `targetPower` (metric units; null when the spread is 0). */
  detectable: number | null;
};

export type AbReport = {
  metric: string;
  a: { name: string } & Summary & { values: number[] };
  b: { name: string } & Summary & { values: number[] };
  /** mean(b) − mean(a). */
  difference: number;
  welch: WelchResult;
  mannWhitney: RankSumResult;
  /** The test that decides, its estimate (mean difference or Hodges–Lehmann shift), p and interval. */
  decision: Decision;
  /** Holm-adjusted p over the metrics compared together (the decision's p when only one was). */
  adjustedP: number;
  /** How many metrics the Holm correction covered. */
  comparedMetrics: number;
  effectSize: { d: number; g: number };
  alpha: number;
  significant: boolean;
  planning: Planning;
  sentence: string;
};

export type ArmsInput = { metric: string; a: { name: string; values: number[] }; b: { name: string; values: number[] }; alpha?: number; test?: AbTestKind; effect: number; targetPower?: number };

const f = (v: number) => v.toFixed(3);
const pv = (v: number) => (v < 0.0001 ? v.toExponential(1) : v.toPrecision(3));

function plan(a: readonly number[], b: readonly number[], effect: number, alpha: number, targetPower: number, pooledSd: number): Planning {
  // Reports are stored as canonical JSON, which has no Infinity or NaN: a spread of 0 is said with nulls.
  if (!(pooledSd > 0)) return { effect, sd: 0, d: null, targetPower, power: 1, runsPerArm: 2, detectable: null };
  const d = effect / pooledSd;
  return { effect, sd: pooledSd, d, targetPower, power: power(d, a.length, b.length, alpha), runsPerArm: runsPerArmFor(d, alpha, targetPower), detectable: minimumDetectableEffect(a.length, b.length, alpha, targetPower) * pooledSd };
}

function sentenceOf(r: Omit<AbReport, "sentence">): string {
  const level = `${Math.round((1 - r.alpha) * 100)} %`;
  const test = r.decision.test === "welch" ? "Welch" : "Mann–Whitney";
  const what = r.decision.test === "welch" ? "Δ" : "shift";
  const ci = r.decision.ci ? `${level} CI ${f(r.decision.ci[0])} … ${f(r.decision.ci[1])}` : "too few runs for a rank interval";
  const holm = r.comparedMetrics > 1 ? `, Holm-adjusted p = ${pv(r.adjustedP)} over ${r.comparedMetrics} metrics` : "";
  const facts = `${what} ${f(r.decision.estimate)}, ${ci}, ${test} p = ${pv(r.decision.pValue)}${holm}, n = ${r.a.n} + ${r.b.n}`;
  if (r.significant) return `${r.b.name} differs from ${r.a.name} on ${r.metric} (${facts})`;
  const p = r.planning;
  const need = p.runsPerArm === null ? `more than ${MAX_PLANNED_RUNS.toLocaleString("en")}` : `${p.runsPerArm}`;
  return `no significant difference on ${r.metric} (${facts}); a difference of ${f(p.effect)} would be detected with ${Math.round(p.targetPower * 100)} % power by ${need} runs per arm at this spread (this test: power ${p.power.toFixed(2)})`;
}

/** One metric's comparison; `compareMetrics` applies Holm's correction when several are compared. */
export function compareArms(o: ArmsInput): AbReport {
  const alpha = o.alpha ?? 0.05;
  const test = o.test ?? "welch";
  const A = summarize(o.a.values);
  const B = summarize(o.b.values);
  const { welch, rankSum, ...decision } = decide(o.a.values, o.b.values, { test, alpha });
  const es = effectSize(o.a.values, o.b.values);
  const base = {
    metric: o.metric,
    a: { name: o.a.name, ...A, values: [...o.a.values] },
    b: { name: o.b.name, ...B, values: [...o.b.values] },
    difference: welch.difference,
    welch,
    mannWhitney: rankSum,
    decision,
    adjustedP: decision.pValue,
    comparedMetrics: 1,
    effectSize: { d: es.d, g: es.g },
    alpha,
    significant: decision.pValue < alpha,
    planning: plan(o.a.values, o.b.values, o.effect, alpha, o.targetPower ?? 0.8, es.pooledSd),
  };
  return { ...base, sentence: sentenceOf(base) };
}

/** Several metrics of the same runs: each compared, then significance judged on Holm-adjusted p. */
export function compareMetrics(inputs: readonly ArmsInput[]): AbReport[] {
  const reports = inputs.map(compareArms);
  const adjusted = holmAdjust(reports.map((r) => r.decision.pValue));
  return reports.map((r, i) => {
    const next = { ...r, adjustedP: adjusted[i]!, comparedMetrics: reports.length, significant: adjusted[i]! < r.alpha };
    return { ...next, sentence: sentenceOf(next) };
  });
}

/**
 * Trains each configuration once per seed (via `measure`) and compares the arms. The arms draw
 * independent seeds (`<seed>/A`, `<seed>/B`), as both tests assume independent samples — so two
 * identical configurations still give two different samples.
 */
export async function abTest<C>(o: {
  metric: string;
  a: { name: string; config: C };
  b: { name: string; config: C };
  seeds: readonly string[];
  measure: (config: C, seed: string) => Promise<number>;
  alpha?: number;
  test?: AbTestKind;
  effect: number;
}): Promise<AbReport> {
  const values = async (config: C, arm: string) => {
    const out: number[] = [];
    for (const seed of o.seeds) out.push(await o.measure(config, `${seed}/${arm}`));
    return out;
  };
  const [a, b] = [await values(o.a.config, "A"), await values(o.b.config, "B")];
  return compareArms({ metric: o.metric, a: { name: o.a.name, values: a }, b: { name: o.b.name, values: b }, alpha: o.alpha, test: o.test, effect: o.effect });
}
