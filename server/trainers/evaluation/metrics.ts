// The training-evaluation metrics of the seed document, as plain functions over measured numbers:
// success rate and quality come from an Evaluation (evaluate.ts); these cover how training behaves.

/** Share of successes in a list of outcomes. */
export function successRate(outcomes: readonly boolean[]): number {
  return outcomes.length ? outcomes.filter(Boolean).length / outcomes.length : 0;
}

/** How fast a learning curve rises: its mean (area under the curve per point) and the gain per 1,000 episodes. */
export function learningEfficiency(curve: readonly number[], episodesPerPoint: number): { areaUnderCurve: number; gainPer1kEpisodes: number } {
  if (curve.length === 0) throw new Error("learning efficiency needs at least one point");
  const area = curve.reduce((a, b) => a + b, 0) / curve.length;
  const episodes = Math.max(1, (curve.length - 1) * episodesPerPoint);
  return { areaUnderCurve: area, gainPer1kEpisodes: ((curve[curve.length - 1]! - curve[0]!) / episodes) * 1000 };
}

/** Knowledge retention on an earlier domain: after / before (1 = nothing forgotten); the raw change too. */
export function retention(before: number, after: number): { ratio: number; change: number } {
  return { ratio: before > 0 ? after / before : after >= before ? 1 : 0, change: after - before };
}

/** Adaptation speed: the first update (1-based) at which the curve reaches the threshold, or null. */
export function adaptationSpeed(curve: readonly number[], threshold: number): number | null {
  const i = curve.findIndex((v) => v >= threshold);
  return i < 0 ? null : i + 1;
}

/** Generalization: performance on unseen tasks against seen ones (gap and ratio). */
export function generalization(seen: number, unseen: number): { gap: number; ratio: number } {
  return { gap: seen - unseen, ratio: seen !== 0 ? unseen / seen : 1 };
}

/** Stability of repeated measurements (seeds, or the last evaluations of a run). */
export function stability(values: readonly number[]): { mean: number; sd: number; coefficientOfVariation: number; worstDrop: number } {
  const n = values.length;
  if (n === 0) throw new Error("stability needs at least one value");
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1)) : 0;
  let peak = values[0]!;
  let worstDrop = 0;
  for (const v of values) {
    peak = Math.max(peak, v);
    worstDrop = Math.max(worstDrop, peak - v);
  }
  return { mean, sd, coefficientOfVariation: mean !== 0 ? sd / Math.abs(mean) : 0, worstDrop };
}
