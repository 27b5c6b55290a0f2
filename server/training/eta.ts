// The run's ETA with its uncertainty, from the times its updates were recorded (pure). The old estimate, an EMA
// of the spans between updates, swung 22 → 55 min within five minutes of a live run: a few slow updates (a gate
// run, runners busy elsewhere) pulled it up and the next fast ones pulled it down. The median of the recent
// spans ignores such updates until they become the usual pace; the range says how far the pace has varied.

/** Spans between updates the estimate looks at: the recent pace, not the run's whole history. */
export const ETA_WINDOW = 20;
/** A span this many times the median is a pause or an outage, not the run's pace: left out. */
const GAP_FACTOR = 5;

export type Eta = {
  /** Seconds until the last update, the central estimate. */
  seconds: number;
  /** The range the pace seen lately allows: the faster and slower quartile of recent updates. */
  low: number;
  high: number;
  /** The central per-update duration the estimate uses. */
  secondsPerUpdate: number;
};

function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** The recent spans between consecutive updates, in seconds, with pauses and outages left out. */
export function recentSpans(at: readonly Date[], window = ETA_WINDOW): number[] {
  const spans: number[] = [];
  for (let i = Math.max(1, at.length - window); i < at.length; i++) {
    const s = (at[i]!.getTime() - at[i - 1]!.getTime()) / 1000;
    if (s >= 0) spans.push(s);
  }
  if (spans.length < 3) return spans; // too few to tell a pause from the pace
  const median = quantile([...spans].sort((a, b) => a - b), 0.5);
  return median > 0 ? spans.filter((s) => s <= GAP_FACTOR * median) : spans;
}

/**
 * Time left for `remaining` updates: median seconds per update × remaining, minus the time already spent on the
 * update under way (so it counts down between updates instead of jumping back at each poll, and never below
 * the remaining updates' due). The range uses the recent spans' quartiles, and is at least ±50 %/√n of the
 * median, so two or three updates never look precise. Never faster than the run's pace. Null before 2 updates
 * (no span to go by).
 */
export function estimateEta(at: readonly Date[], remaining: number, now: number, paceSeconds = 0): Eta | null {
  const spans = recentSpans(at);
  if (spans.length === 0) return null;
  const sorted = [...spans].sort((a, b) => a - b);
  const n = sorted.length;
  const median = Math.max(quantile(sorted, 0.5), paceSeconds);
  if (remaining <= 0) return { seconds: 0, low: 0, high: 0, secondsPerUpdate: median };
  const margin = 0.5 / Math.sqrt(n);
  const fast = Math.max(Math.min(quantile(sorted, 0.25), median * (1 - margin)), paceSeconds);
  const slow = Math.max(quantile(sorted, 0.75), median * (1 + margin));
  const sinceLast = Math.max(0, (now - at.at(-1)!.getTime()) / 1000);
  const left = (perUpdate: number) => Math.max(0, Math.round(remaining * perUpdate - Math.min(sinceLast, perUpdate)));
  const seconds = left(median);
  return { seconds, low: Math.min(left(fast), seconds), high: Math.max(left(slow), seconds), secondsPerUpdate: median };
}
