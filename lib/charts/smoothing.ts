// Curve smoothing and downsampling for training charts.
// Lessons from TensorBoard and W&B users: smoothing must be causal (a point never moves as the run
// grows), debiased (the start of a curve is not dragged towards zero), independent of how many
// points are later drawn (smooth first, then downsample), and downsampling must keep spikes.

export type Point = { x: number; y: number };
export type SmoothedPoint = Point & { smoothed: number };

/**
 * Debiased exponential moving average over x: with `weight` w in [0, 1), each point's influence decays
 * by w per median x-step, so irregular spacing (missed logging steps) is handled like W&B's
 * time-weighted EMA. weight 0 returns the raw series.
 */
export function debiasedEma(points: readonly Point[], weight: number): SmoothedPoint[] {
  if (!(weight >= 0 && weight < 1)) throw new RangeError(`smoothing weight must be in [0, 1), got ${weight}`);
  const out: SmoothedPoint[] = [];
  const step = medianStep(points);
  let acc = 0;
  let norm = 0;
  let prevX: number | undefined;
  for (const p of points) {
    if (!Number.isFinite(p.y)) {
      out.push({ ...p, smoothed: Number.NaN });
      continue;
    }
    const decay = prevX === undefined || step === 0 ? weight : Math.pow(weight, Math.max(0, p.x - prevX) / step);
    acc = acc * decay + (1 - decay) * p.y;
    norm = norm * decay + (1 - decay);
    out.push({ ...p, smoothed: norm > 0 ? acc / norm : p.y });
    prevX = p.x;
  }
  return out;
}

function medianStep(points: readonly Point[]): number {
  if (points.length < 2) return 1;
  const gaps: number[] = [];
  for (let i = 1; i < points.length; i++) gaps.push(points[i]!.x - points[i - 1]!.x);
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)]! || 1;
}

/**
 * M4 downsampling: split x into `buckets` equal ranges and keep each bucket's first, last, min and max
 * points. A chart drawn from the result looks like the full series at that width — spikes included.
 */
export function downsampleM4<T extends Point>(points: readonly T[], buckets: number): T[] {
  if (points.length <= buckets * 4 || buckets < 1) return points.slice();
  const x0 = points[0]!.x;
  const span = points[points.length - 1]!.x - x0 || 1;
  const out: T[] = [];
  let i = 0;
  for (let b = 0; b < buckets; b++) {
    const end = b === buckets - 1 ? Infinity : x0 + (span * (b + 1)) / buckets;
    let first: T | undefined, last: T | undefined, min: T | undefined, max: T | undefined;
    for (; i < points.length && points[i]!.x < end; i++) {
      const p = points[i]!;
      first ??= p;
      last = p;
      if (!min || p.y < min.y) min = p;
      if (!max || p.y > max.y) max = p;
    }
    if (!first) continue;
    for (const p of [...new Set([first, min!, max!, last!])].sort((a, c) => a.x - c.x)) out.push(p);
  }
  return out;
}
