import { describe, expect, it } from "vitest";
import { abTest, bootstrapDifferenceCI, compareArms, effectSize, minimumDetectableEffect, power, welchTTest } from "@/server/trainers/evaluation/ab-test";
import { tCdf } from "@/server/trainers/evaluation/distributions";
import { expertDemos, gateScore, policyOf, run, snapshot } from "../../helpers/families";

// Reference values computed with SciPy 1.17 (scipy.stats.ttest_ind(equal_var=False), scipy.stats.nct).
const A = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4];
const B = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4];

describe("the statistics of an A/B test", () => {
  it("Welch's t test matches SciPy: t, Welch–Satterthwaite df, two-sided p and the confidence interval", () => {
    const r = welchTTest(B, A);
    expect(r.t).toBeCloseTo(-2.455356398286006, 10);
    expect(r.df).toBeCloseTo(24.988529290231416, 10);
    expect(r.pValue).toBeCloseTo(0.021378001462866992, 8);
    expect(r.ci[0]).toBeCloseTo(-3.984096267140929, 6); // jStat's t quantile agrees with SciPy to ~1e-8
    expect(r.ci[1]).toBeCloseTo(-0.3492370661924069, 6);
    expect(2 * (1 - tCdf(2.228138842468655, 10))).toBeCloseTo(0.05, 8);
  });

  it("power and minimum detectable effect match the noncentral t", () => {
    expect(power(0.8, 15, 15)).toBeCloseTo(0.5617848517410409, 6);
    expect(power(1.0, 8, 8)).toBeCloseTo(0.46123884950384564, 6);
    expect(minimumDetectableEffect(8, 8)).toBeCloseTo(1.5066342278766856, 4);
    expect(power(0, 8, 8)).toBeCloseTo(0.05, 6);
  });

  it("the bootstrap interval is seeded and brackets the observed difference; effect sizes are pooled", () => {
    const ci = bootstrapDifferenceCI(B, A, { seed: "s", resamples: 4000 });
    expect(ci).toEqual(bootstrapDifferenceCI(B, A, { seed: "s", resamples: 4000 }));
    const diff = A.reduce((a, b) => a + b) / A.length - B.reduce((a, b) => a + b) / B.length;
    expect(ci[0]).toBeLessThan(diff);
    expect(ci[1]).toBeGreaterThan(diff);
    expect(ci[1]).toBeLessThan(0);
    const es = effectSize(B, A);
    expect(es.d).toBeLessThan(0);
    expect(Math.abs(es.g)).toBeLessThan(Math.abs(es.d));
  });

  it("says what a non-significant result could have detected", () => {
    const r = compareArms({ metric: "reward", a: { name: "x", values: [1, 2, 3, 4] }, b: { name: "y", values: [2, 1, 4, 3] }, seed: "s" });
    expect(r.significant).toBe(false);
    expect(r.sentence).toMatch(/^no significant difference on reward \(Δ 0\.000, Welch p = 1\.00, n = 4 \+ 4\); with these sizes only effects ≥ .* are detected with 80 % power$/);
  });
});

describe("A/B testing training configurations on the support desk", () => {
  // Each sample: one training run (its own demonstrations and minibatch order, from its seed) scored on the locked gate.
  const measure = async (config: unknown, seed: string) => {
    const data = snapshot(expertDemos(120, `ab/${seed}`, 0.1));
    return gateScore(policyOf(await run({ family: "supervised", config, data, updates: 30, seed }))).meanReward;
  };
  const seeds = ["1", "2", "3", "4", "5", "6"];

  it("detects a real difference between two genuinely different configurations", async () => {
    const r = await abTest({ metric: "held-out mean reward", a: { name: "two slow epochs", config: { learningRate: 0.002, maxEpochs: 2 } }, b: { name: "default", config: {} }, seeds, measure });
    // Measured: Δ 0.718 (95 % CI 0.688 … 0.748; bootstrap 0.699 … 0.741), Welch p = 9.8e-9, n = 6 + 6.
    expect(r.significant).toBe(true);
    expect(r.welch.pValue).toBeLessThan(0.001);
    expect(r.difference).toBeGreaterThan(0.5);
    expect(r.welch.ci[0]).toBeGreaterThan(0);
    expect(r.bootstrap.ci[0]).toBeGreaterThan(0);
    expect(r.a.n).toBe(6);
    expect(r.power.observed).toBeGreaterThan(0.99);
    expect(r.sentence).toMatch(/^default differs from two slow epochs on held-out mean reward by /);
  });

  it("reports no significance for two identical configurations (different seeds)", async () => {
    const r = await abTest({ metric: "held-out mean reward", a: { name: "default", config: {} }, b: { name: "default again", config: {} }, seeds, measure });
    // Measured: Δ 0.004 (95 % CI −0.032 … 0.041), Welch p = 0.796; detectable at 80 % power: Δ ≥ 0.051 (d ≥ 1.80).
    expect(r.a.values).not.toEqual(r.b.values);
    expect(r.significant).toBe(false);
    expect(r.welch.pValue).toBeGreaterThan(0.05);
    expect(r.welch.ci[0]).toBeLessThan(0);
    expect(r.welch.ci[1]).toBeGreaterThan(0);
    expect(r.power.minimumDetectableEffect.d).toBeCloseTo(minimumDetectableEffect(6, 6), 10);
  });
});
