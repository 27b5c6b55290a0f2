// The Mann–Whitney U (Wilcoxon rank-sum) test, for metrics whose runs are skewed (a seed that fails
// drags a mean far more than a rank): its p-value from the exact permutation distribution of the rank
// sum — ties included, as midranks — counted by dynamic programming (no resampling, so nothing to seed),
// or the normal approximation with tie correction for large samples; with the Hodges–Lehmann shift and
// its Moses interval, whose coverage is exact for continuous metrics at any sample size.
import { normalCdf, normalQuantile } from "./distributions";

export type RankSumResult = {
  /** U of b over a: pairs with b > a, ties counting one half. */
  u: number;
  pValue: number;
  method: "exact" | "normal";
  /** Hodges–Lehmann estimate of the shift b − a: the median of all pairwise differences. */
  shift: number;
  /** Moses interval of the shift; null when the samples are too small for any interval at this level. */
  ci: [number, number] | null;
  /** The interval's exact confidence (the U distribution is discrete, so at least the one asked for). */
  confidence: number;
};

/** Midranks (1-based, ties share their mean rank) of the pooled values. */
function midranks(pooled: readonly number[]): number[] {
  const order = pooled.map((v, i) => ({ v, i })).sort((x, y) => x.v - y.v);
  const ranks = new Array<number>(pooled.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]!.v === order[i]!.v) j++;
    for (let k = i; k <= j; k++) ranks[order[k]!.i] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return ranks;
}

/**
 * Probabilities of every sum of `k` of the integer `scores` chosen without replacement, all subsets
 * equally likely (the permutation null): index = the sum.
 */
function subsetSumDistribution(scores: readonly number[], k: number): Float64Array {
  const total = scores.reduce((a, b) => a + b, 0);
  // ways[c][s]: subsets of size c with sum s among the scores seen so far; doubles hold the counts'
  // ratios well enough (relative error ~1e-16 per addition) even when the counts pass 2^53.
  const ways = Array.from({ length: k + 1 }, () => new Float64Array(total + 1));
  ways[0]![0] = 1;
  for (const s of scores) {
    for (let c = Math.min(k, scores.length); c >= 1; c--) {
      const from = ways[c - 1]!;
      const to = ways[c]!;
      for (let x = total - s; x >= 0; x--) if (from[x] !== 0) to[x + s]! += from[x]!;
    }
  }
  const dist = ways[k]!;
  let sum = 0;
  for (const w of dist) sum += w;
  return dist.map((w) => w / sum);
}

/** Above this many pairs the exact count gives way to the normal approximation (it is then accurate). */
const EXACT_PAIRS = 2_500;

/** Two-sided Mann–Whitney test of b against a, and the Hodges–Lehmann shift with its Moses interval. */
export function mannWhitney(a: readonly number[], b: readonly number[], confidence = 0.95): RankSumResult {
  const na = a.length;
  const nb = b.length;
  if (na < 1 || nb < 1) throw new Error("the Mann–Whitney test needs at least one value per arm");
  const ranks = midranks([...a, ...b]);
  const rankSumB = ranks.slice(na).reduce((x, y) => x + y, 0);
  const u = rankSumB - (nb * (nb + 1)) / 2;
  const exact = na * nb <= EXACT_PAIRS;
  let pValue: number;
  if (exact) {
    // Doubled midranks are integers; the observed doubled sum is one of the support's points.
    const dist = subsetSumDistribution(ranks.map((r) => Math.round(2 * r)), nb);
    const observed = Math.round(2 * rankSumB);
    let below = 0;
    let above = 0;
    for (let s = 0; s < dist.length; s++) {
      if (s <= observed) below += dist[s]!;
      if (s >= observed) above += dist[s]!;
    }
    pValue = Math.min(1, 2 * Math.min(below, above));
  } else {
    const n = na + nb;
    const ties = tieCorrection(ranks);
    const sd = Math.sqrt(((na * nb) / 12) * (n + 1 - ties / (n * (n - 1))));
    const z = sd === 0 ? 0 : (Math.abs(u - (na * nb) / 2) - 0.5) / sd;
    pValue = Math.min(1, 2 * (1 - normalCdf(Math.max(0, z))));
  }
  return { u, pValue, method: exact ? "exact" : "normal", ...shiftInterval(a, b, confidence) };
}

/** Σ (t³ − t) over the groups of tied ranks. */
function tieCorrection(ranks: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const r of ranks) counts.set(r, (counts.get(r) ?? 0) + 1);
  let t = 0;
  for (const c of counts.values()) t += c ** 3 - c;
  return t;
}

/**
 * Hodges–Lehmann shift and Moses interval: with the m·n pairwise differences sorted, the interval runs
 * from the k-th to the (mn − k + 1)-th, k the largest count with P(U < k) ≤ (1 − confidence) / 2 under
 * the untied null — the shifts the two-sided rank-sum test would not reject.
 */
export function shiftInterval(a: readonly number[], b: readonly number[], confidence = 0.95): Pick<RankSumResult, "shift" | "ci" | "confidence"> {
  const na = a.length;
  const nb = b.length;
  const diffs = new Float64Array(na * nb);
  let i = 0;
  for (const y of b) for (const x of a) diffs[i++] = y - x;
  diffs.sort();
  const mn = diffs.length;
  const shift = mn % 2 ? diffs[(mn - 1) / 2]! : (diffs[mn / 2 - 1]! + diffs[mn / 2]!) / 2;
  const half = (1 - confidence) / 2;
  let k: number;
  let achieved: number;
  if (na * nb <= EXACT_PAIRS) {
    const dist = subsetSumDistribution(Array.from({ length: na + nb }, (_, r) => r + 1), nb);
    const offset = (nb * (nb + 1)) / 2;
    // cdf[u] = P(U ≤ u); k grows while P(U ≤ k − 1) stays within the tail.
    let cdf = 0;
    k = 0;
    for (let u = 0; u <= mn; u++) {
      const next = cdf + (dist[u + offset] ?? 0);
      if (next > half) break;
      cdf = next;
      k = u + 1;
    }
    achieved = 1 - 2 * cdf;
  } else {
    const z = normalQuantile(1 - half);
    k = Math.max(0, Math.floor((mn / 2) - z * Math.sqrt((na * nb * (na + nb + 1)) / 12)));
    achieved = confidence;
  }
  if (k < 1) return { shift, ci: null, confidence: 1 };
  return { shift, ci: [diffs[k - 1]!, diffs[mn - k]!], confidence: achieved };
}
