// The A/B test's error rate on identical configurations, by simulation: both arms draw their runs from
// one distribution, so every rejection is a false one and every interval should hold the true difference,
// 0. At 6 runs per arm (the form's default) the decision must reject at most 6 % of 1,000+ simulated tests
// per shape — a percentile bootstrap rejected 11 % here (bench/ab-coverage.ts runs the full simulation,
// with real training runs, and prints every method's rate).
import { describe, expect, it } from "vitest";
import { Rng } from "@/server/environments/prng";
import { compareArms, decide, type AbTestKind } from "@/server/trainers/evaluation/ab-test";
import { holmAdjust } from "@/server/trainers/evaluation/intervals";
import { gaussian } from "@/server/trainers/supervised/fitter";

const TESTS = 1_200;
const RUNS = 6;

/** Held-out mean reward per run: normal; skewed (a seed in seven fails); a success rate over 100 tasks (ties). */
const SHAPES: Record<string, (rng: Rng) => number> = {
  normal: (rng) => 0.45 + 0.03 * gaussian(rng),
  "skewed: failing seeds": (rng) => (rng.next() < 0.15 ? -0.2 + 0.05 * gaussian(rng) : 0.5 + 0.03 * gaussian(rng)),
  "success rate of 100 tasks": (rng) => {
    let s = 0;
    for (let i = 0; i < 100; i++) if (rng.next() < 0.6) s++;
    return s / 100;
  },
};

const draw = (rng: Rng, shape: (rng: Rng) => number) => Array.from({ length: RUNS }, () => shape(rng));

function simulate(test: AbTestKind, shape: (rng: Rng) => number, seed: string) {
  const rng = Rng.from(seed);
  let rejected = 0;
  let missed = 0;
  let dual = true;
  for (let i = 0; i < TESTS; i++) {
    const d = decide(draw(rng, shape), draw(rng, shape), { test, alpha: 0.05 });
    const significant = d.pValue < 0.05;
    if (significant) rejected++;
    // The true difference is 0: an interval that leaves it out missed.
    if (d.ci && (d.ci[0] > 0 || d.ci[1] < 0)) missed++;
    if (test === "welch" && significant !== (d.ci![0] > 0 || d.ci![1] < 0)) dual = false;
  }
  return { rejection: rejected / TESTS, coverage: 1 - missed / TESTS, dual };
}

describe("the A/B test on identical configurations (simulated, 6 runs per arm)", () => {
  for (const test of ["welch", "mann-whitney"] as const) {
    for (const [name, shape] of Object.entries(SHAPES)) {
      it(`${test}, ${name}: at most 6 % rejected over ${TESTS.toLocaleString("en")} tests; its interval holds 0 at least 94 % of the time`, () => {
        const r = simulate(test, shape, `coverage/${test}/${name}`);
        expect(r.rejection).toBeLessThanOrEqual(0.06);
        expect(r.coverage).toBeGreaterThanOrEqual(0.94);
        // Welch's decision and its interval always agree (the interval leaves 0 exactly when p < α).
        expect(r.dual).toBe(true);
      });
    }
  }

  it("Holm keeps the chance of any false rejection over both metrics at most 6 %", () => {
    const rng = Rng.from("coverage/holm");
    let any = 0;
    for (let i = 0; i < TESTS; i++) {
      // Two metrics of the same runs, correlated as reward and success rate are.
      const arm = () => draw(rng, SHAPES.normal!).map((r) => [r, 0.6 + 2 * (r - 0.45) + 0.02 * gaussian(rng)] as const);
      const a = arm();
      const b = arm();
      const p = ([0, 1] as const).map((k) => decide(a.map((x) => x[k]), b.map((x) => x[k]), { test: "welch", alpha: 0.05 }).pValue);
      if (holmAdjust(p).some((x) => x < 0.05)) any++;
    }
    expect(any / TESTS).toBeLessThanOrEqual(0.06);
  });

  it("the report's verdict is the simulated decision", () => {
    const rng = Rng.from("coverage/report");
    for (let i = 0; i < 3; i++) {
      const a = draw(rng, SHAPES.normal!);
      const b = draw(rng, SHAPES.normal!);
      for (const test of ["welch", "mann-whitney"] as const) {
        const d = decide(a, b, { test, alpha: 0.05 });
        const r = compareArms({ metric: "m", a: { name: "a", values: a }, b: { name: "b", values: b }, test, effect: 0.05 });
        expect(r.decision).toEqual({ test, estimate: d.estimate, pValue: d.pValue, ci: d.ci, confidence: d.confidence });
        expect(r.significant).toBe(d.pValue < 0.05);
      }
    }
  });
});
