// Task-boundary detection on an incoming stream, two ways:
// - feature shift (default): a two-sample z test per input feature between the incoming batch and a
//   window of the current task's inputs, Bonferroni-corrected over the features — a new task
//   distribution shows up as a change in what the agent observes;
// - Page–Hinkley (Page, 1954; Hinkley, 1971) on a scalar signal, e.g. the model's loss on each batch
//   before learning from it: it accumulates deviations above the running mean (less δ) and fires when
//   they exceed λ over their running minimum. It needs a settled regime: while a task is still being
//   learned the falling loss hides a jump (measured: it missed the first of two support-desk boundaries).
// The z test assumes independent samples: feed one vector per episode, not every step of it (steps of
// one episode share the ticket; per-step samples made chance shifts look significant).
import { z } from "zod";
import { normalCdf } from "../evaluation/distributions";

export const featureShiftSchema = z
  .object({
    kind: z.literal("feature-shift"),
    /** Family-wise significance level after the Bonferroni correction. */
    alpha: z.number().gt(0, "alpha must be > 0").max(0.5, "alpha must be ≤ 0.5").default(0.001),
    /** Reference window: the most recent samples of the current task. */
    window: z.number().int("window must be an integer").min(2, "window must be ≥ 2").default(500),
  })
  .strict();
export type FeatureShiftConfig = z.output<typeof featureShiftSchema>;

export type ShiftTest = { shifted: boolean; pValue: number; feature: number; z: number };

/** Bonferroni-corrected per-feature two-sample z test of mean(incoming) vs mean(reference). */
export function featureShift(reference: readonly ArrayLike<number>[], incoming: readonly ArrayLike<number>[], alpha: number): ShiftTest {
  const none = { shifted: false, pValue: 1, feature: -1, z: 0 };
  if (reference.length < 2 || incoming.length < 2) return none;
  const nF = reference[0]!.length;
  const stats = (xs: readonly ArrayLike<number>[], f: number) => {
    let m = 0;
    for (const x of xs) m += x[f]!;
    m /= xs.length;
    let v = 0;
    for (const x of xs) v += (x[f]! - m) ** 2;
    return { m, v: v / (xs.length - 1), n: xs.length };
  };
  let best = none;
  for (let f = 0; f < nF; f++) {
    const r = stats(reference, f);
    const i = stats(incoming, f);
    const se = Math.sqrt(r.v / r.n + i.v / i.n);
    const diff = i.m - r.m;
    const zf = se > 0 ? diff / se : diff !== 0 ? Infinity * Math.sign(diff) : 0;
    const p = Math.min(1, 2 * (1 - normalCdf(Math.abs(zf))) * nF);
    if (p < best.pValue) best = { shifted: false, pValue: p, feature: f, z: zf };
  }
  return { ...best, shifted: best.pValue < alpha };
}

export const pageHinkleySchema = z
  .object({
    kind: z.literal("page-hinkley"),
    /** Tolerated drift per observation (δ). */
    delta: z.number().min(0, "delta must be ≥ 0").default(0.05),
    /** Alarm threshold (λ) on the cumulative deviation. */
    threshold: z.number().gt(0, "threshold must be > 0").default(0.5),
    /** Observations after a reset before an alarm may fire. */
    minObservations: z.number().int("minObservations must be an integer").min(1, "minObservations must be ≥ 1").default(2),
  })
  .strict();
export type PageHinkleyConfig = z.output<typeof pageHinkleySchema>;
export type PageHinkleyState = { n: number; mean: number; cum: number; min: number };

export class PageHinkley {
  readonly #cfg: PageHinkleyConfig;
  #s: PageHinkleyState;

  constructor(cfg: PageHinkleyConfig, state?: PageHinkleyState) {
    this.#cfg = cfg;
    this.#s = state ? { ...state } : { n: 0, mean: 0, cum: 0, min: 0 };
  }

  /** Feeds one observation; true when a change is detected (the detector then resets). */
  observe(x: number): boolean {
    const s = this.#s;
    s.n++;
    s.mean += (x - s.mean) / s.n;
    s.cum += x - s.mean - this.#cfg.delta;
    s.min = Math.min(s.min, s.cum);
    const fired = s.n >= this.#cfg.minObservations && s.cum - s.min > this.#cfg.threshold;
    if (fired) this.reset();
    return fired;
  }

  reset(): void {
    this.#s = { n: 0, mean: 0, cum: 0, min: 0 };
  }

  state(): PageHinkleyState {
    return { ...this.#s };
  }
}
