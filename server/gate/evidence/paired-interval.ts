// Check 4's paired comparison: the per-case deltas candidate − exact parent on the locked set, and a 95 %
// percentile-bootstrap interval of their mean. Cases are resampled whole (each keeps its pair), with a fixed
// seed, so the same receipt always gives the same interval. Quantiles from jStat.
import jstat from "jstat";
import { prng } from "../prng";

const { jStat } = jstat;

export const PAIRED_BOOTSTRAP = {
  method: "paired percentile bootstrap of the mean per-case delta (candidate − parent)",
  confidence: 0.95,
  resamples: 2000,
  seed: 20260302,
} as const;

export type PairedInterval = {
  method: string;
  /** Cases scored on both sides. */
  n: number;
  meanDelta: number;
  confidence: number;
  lower: number;
  upper: number;
  resamples: number;
  seed: number;
};

/** The bootstrap interval of the mean of `deltas` (one per case); null when there is no case. */
export function pairedBootstrapInterval(deltas: readonly number[], opts: typeof PAIRED_BOOTSTRAP = PAIRED_BOOTSTRAP): PairedInterval | null {
  const n = deltas.length;
  if (n === 0) return null;
  const rand = prng(opts.seed);
  const means = new Array<number>(opts.resamples);
  for (let b = 0; b < opts.resamples; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += deltas[Math.floor(rand() * n)]!;
    means[b] = sum / n;
  }
  const tail = (1 - opts.confidence) / 2;
  return {
    method: opts.method,
    n,
    meanDelta: jStat.mean([...deltas]),
    confidence: opts.confidence,
    lower: jStat.percentile(means, tail),
    upper: jStat.percentile(means, 1 - tail),
    resamples: opts.resamples,
    seed: opts.seed,
  };
}
