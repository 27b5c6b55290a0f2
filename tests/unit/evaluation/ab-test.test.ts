import { describe, expect, it } from "vitest";
import { abTest, compareArms, compareMetrics, effectSize, minimumDetectableEffect, power, runsPerArmFor, welchTTest } from "@/server/trainers/evaluation/ab-test";
import { holmAdjust, meanInterval, proportionInterval, sdInterval } from "@/server/trainers/evaluation/intervals";
import { mannWhitney, shiftInterval } from "@/server/trainers/evaluation/rank-sum";
import { tCdf } from "@/server/trainers/evaluation/distributions";
import { expertDemos, gateScore, policyOf, run, snapshot } from "../../helpers/families";

// Reference values computed with SciPy 1.17 (scipy.stats.ttest_ind(equal_var=False), scipy.stats.nct,
// scipy.stats.mannwhitneyu, binomtest, chi2) unless a line says otherwise.
const A = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4];
// numpy.random.default_rng(1).normal(size=60) and default_rng(2).normal(0.3, 1, size=50), rounded to 4 places.
const X60 = [0.3456, 0.8216, 0.3304, -1.3032, 0.9054, 0.4464, -0.537, 0.5811, 0.3646, 0.2941, 0.0284, 0.5467, -0.7365, -0.1629, -0.4821, 0.5988, 0.0397, -0.2925, -0.7819, -0.2572, 0.0081, -0.2756, 1.2941, 1.0067, -2.7112, -1.889, -0.1748, -0.4222, 0.2136, 0.2173, 2.1178, -1.112, -0.3776, 2.0428, 0.6467, 0.6631, -0.514, -1.6481, 0.1675, 0.109, -1.2274, -0.6832, -0.072, -0.9448, -0.0983, 0.0955, 0.0356, -0.5063, 0.5937, 0.8912, 0.3208, -0.8182, 0.7317, -0.5014, 0.8792, -1.0718, 0.9145, -0.0201, -1.2487, -0.3139];
const Y50 = [0.4891, -0.2227, -0.1131, -2.1415, 2.0997, 1.4442, -0.0254, 1.0738, 0.5812, -0.2538, 1.2776, -0.0106, -0.0288, -0.4921, 0.755, 0.2008, 0.8453, -0.3072, 0.4268, -0.5923, 1.1415, 0.488, 0.6306, 0.7105, -0.7108, 1.0832, 2.3567, -1.3384, -1.4294, -1.2048, 1.1415, 0.4287, 1.3783, 1.0224, 0.5106, 0.584, 0.1302, 1.1685, -0.8297, -0.1219, 0.5429, 2.1014, -0.4645, -0.7791, -0.2633, 1.2693, 0.065, 1.6243, -1.5725, 1.4285];
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

  it("power and minimum detectable effect match the noncentral t; the runs needed reach the target power", () => {
    expect(power(0.8, 15, 15)).toBeCloseTo(0.5617848517410409, 6);
    expect(power(1.0, 8, 8)).toBeCloseTo(0.46123884950384564, 6);
    expect(minimumDetectableEffect(8, 8)).toBeCloseTo(1.5066342278766856, 4);
    expect(power(0, 8, 8)).toBeCloseTo(0.05, 6);
    // d = 1 at 80 %: 17 per arm (G*Power's table; scipy.stats.nct gives power 0.807 at 17, 0.781 at 16).
    expect(runsPerArmFor(1)).toBe(17);
    expect(power(1, 17, 17)).toBeGreaterThanOrEqual(0.8);
    expect(power(1, 16, 16)).toBeLessThan(0.8);
    expect(runsPerArmFor(0.001)).toBeNull();
  });

  it("Mann–Whitney matches SciPy: exact without ties, the permutation distribution with ties, the normal approximation for large samples", () => {
    // scipy.stats.mannwhitneyu(b, a, method="exact")
    const a6 = [0.41, 0.45, 0.39, 0.47, 0.44, 0.42];
    const b6 = [0.48, 0.46, 0.5, 0.43, 0.52, 0.49];
    const r6 = mannWhitney(a6, b6);
    expect(r6).toMatchObject({ u: 32, method: "exact" });
    expect(r6.pValue).toBeCloseTo(0.025974025974025976, 12);
    // method=PermutationMethod(n_resamples=inf): ties as midranks, exact conditional distribution.
    expect(mannWhitney([1, 2, 2, 3], [2, 3, 3, 4, 5]).pValue).toBeCloseTo(0.15873015873015872, 12);
    const r7 = mannWhitney([0.5, 0.5, 0.6, 0.7, 0.5, 0.4, 0.6], [0.6, 0.7, 0.7, 0.5, 0.8, 0.6]);
    expect(r7.u).toBe(32.5);
    expect(r7.pValue).toBeCloseTo(0.13636363636363635, 12);
    // method="asymptotic" (tie and continuity corrections) on 60 + 50 values.
    const big = mannWhitney(X60, Y50);
    expect(big).toMatchObject({ u: 1850, method: "normal" });
    expect(big.pValue).toBeCloseTo(0.035900373988487985, 10);
  });

  it("the Hodges–Lehmann shift is the median pairwise difference; its Moses interval runs between order statistics the U distribution picks", () => {
    const a6 = [0.41, 0.45, 0.39, 0.47, 0.44, 0.42];
    const b6 = [0.48, 0.46, 0.5, 0.43, 0.52, 0.49];
    const r = shiftInterval(a6, b6);
    expect(r.shift).toBeCloseTo(0.05, 12);
    // 6 + 6: U ≤ 5 is the two-sided 5 % critical region (tables), so the 6th and 31st of 36 differences.
    expect(r.ci![0]).toBeCloseTo(0.01, 12);
    expect(r.ci![1]).toBeCloseTo(0.09, 12);
    expect(r.confidence).toBeGreaterThanOrEqual(0.95);
    expect(r.confidence).toBeLessThan(0.97);
    // 3 + 3 runs cannot reach 95 % with any rank interval: none is claimed.
    expect(shiftInterval([1, 2, 3], [4, 5, 6]).ci).toBeNull();
  });

  it("Holm's step-down adjustment: the i-th smallest p times (m − i + 1), kept monotone, capped at 1", () => {
    // Worked by hand: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, max(0.04·1, 0.06) = 0.06.
    expect(holmAdjust([0.01, 0.04, 0.03, 0.005])).toEqual([0.03, 0.06, 0.06, 0.02].map((x) => expect.closeTo(x, 12)));
    // Monotone: the larger p can never end below the smaller one's adjusted value.
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]);
    expect(holmAdjust([0.2, 0.01])).toEqual([0.2, 0.02].map((x) => expect.closeTo(x, 12)));
  });

  it("intervals of single measurements match SciPy: t for a mean, Clopper–Pearson for a rate, χ² for an SD", () => {
    const t = meanInterval([0.43, 0.47, 0.45, 0.44, 0.46]);
    expect(t.ci[0]).toBeCloseTo(0.45 - 2.7764451051977987 * Math.sqrt(0.00025 / 5), 8);
    // scipy.stats.binomtest(7, 20).proportion_ci(0.95, "exact")
    const cp = proportionInterval(7, 20);
    expect(cp.ci[0]).toBeCloseTo(0.1539092047845412, 7);
    expect(cp.ci[1]).toBeCloseTo(0.5921885345328283, 7);
    expect(proportionInterval(0, 10).ci[0]).toBe(0);
    expect(proportionInterval(10, 10).ci[1]).toBe(1);
    // chi2.ppf(0.975, 4) = 11.1433, chi2.ppf(0.025, 4) = 0.48442
    const sd = sdInterval(0.1, 5);
    expect(sd[0]).toBeCloseTo(0.1 * Math.sqrt(4 / 11.143286781877796), 6);
    expect(sd[1]).toBeCloseTo(0.1 * Math.sqrt(4 / 0.4844185570879299), 5);
  });

  it("the report decides by the chosen test, judges significance on Holm-adjusted p, and plans prospectively", () => {
    const a = [0.41, 0.45, 0.39, 0.47, 0.44, 0.42];
    const b = [0.48, 0.46, 0.5, 0.43, 0.52, 0.49];
    const [welch, rate] = compareMetrics([
      { metric: "reward", a: { name: "x", values: a }, b: { name: "y", values: b }, effect: 0.05 },
      { metric: "rate", a: { name: "x", values: [0.5, 0.6, 0.55, 0.5, 0.6, 0.58] }, b: { name: "y", values: [0.52, 0.6, 0.57, 0.51, 0.61, 0.59] }, effect: 0.05 },
    ]);
    expect(welch!.decision.test).toBe("welch");
    expect(welch!.decision.pValue).toBeCloseTo(welchTTest(a, b).pValue, 12);
    expect(welch!.adjustedP).toBeCloseTo(Math.min(1, 2 * welch!.decision.pValue), 12);
    expect(welch!.comparedMetrics).toBe(2);
    expect(welch!.significant).toBe(welch!.adjustedP < 0.05);
    expect(rate!.adjustedP).toBeGreaterThanOrEqual(welch!.adjustedP);
    expect(welch!.sentence).toMatch(/Holm-adjusted p = .* over 2 metrics/);
    // Prospective: the chosen 0.05 against the pooled spread, never the observed difference.
    const p = welch!.planning;
    expect(p.d).toBeCloseTo(0.05 / effectSize(a, b).pooledSd, 12);
    expect(p.power).toBeCloseTo(power(p.d!, 6, 6), 12);
    expect(p.runsPerArm).toBe(runsPerArmFor(p.d!));
    expect(Object.keys(welch!)).not.toContain("power");
    const mw = compareArms({ metric: "reward", a: { name: "x", values: a }, b: { name: "y", values: b }, effect: 0.05, test: "mann-whitney" });
    expect(mw.decision).toMatchObject({ test: "mann-whitney", estimate: expect.closeTo(0.05, 12), ci: [expect.closeTo(0.01, 12), expect.closeTo(0.09, 12)] });
    expect(mw.decision.pValue).toBeCloseTo(0.025974025974025976, 12);
    expect(mw.sentence).toMatch(/^y differs from x on reward \(shift 0\.050, 95 % CI 0\.010 … 0\.090, Mann–Whitney p = 0\.0260, n = 6 \+ 6\)$/);
  });

  it("says what a non-significant result would need", () => {
    const r = compareArms({ metric: "reward", a: { name: "x", values: [1, 2, 3, 4] }, b: { name: "y", values: [2, 1, 4, 3] }, effect: 1 });
    expect(r.significant).toBe(false);
    expect(r.sentence).toMatch(/^no significant difference on reward \(Δ 0\.000, 95 % CI .* Welch p = 1\.00, n = 4 \+ 4\); a difference of 1\.000 would be detected with 80 % power by \d+ runs per arm at this spread \(this test: power 0\.\d\d\)$/);
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
    const r = await abTest({ metric: "held-out mean reward", a: { name: "two slow epochs", config: { learningRate: 0.002, maxEpochs: 2 } }, b: { name: "default", config: {} }, seeds, measure, effect: 0.05 });
    // Measured: Δ 0.718 (95 % CI 0.688 … 0.748), Welch p = 9.8e-9, n = 6 + 6.
    expect(r.significant).toBe(true);
    expect(r.welch.pValue).toBeLessThan(0.001);
    expect(r.difference).toBeGreaterThan(0.5);
    expect(r.welch.ci[0]).toBeGreaterThan(0);
    expect(r.mannWhitney.pValue).toBeLessThan(0.01);
    expect(r.a.n).toBe(6);
    expect(r.sentence).toMatch(/^default differs from two slow epochs on held-out mean reward \(Δ 0\.\d{3}, 95 % CI 0\.\d{3} … 0\.\d{3}, Welch p = /);
  });

  it("reports no significance for two identical configurations (different seeds)", async () => {
    const r = await abTest({ metric: "held-out mean reward", a: { name: "default", config: {} }, b: { name: "default again", config: {} }, seeds, measure, effect: 0.05 });
    // Measured: Δ 0.004 (95 % CI −0.032 … 0.041), Welch p = 0.796; detectable at 80 % power: Δ ≥ 0.051 (d ≥ 1.80).
    expect(r.a.values).not.toEqual(r.b.values);
    expect(r.significant).toBe(false);
    expect(r.welch.pValue).toBeGreaterThan(0.05);
    expect(r.welch.ci[0]).toBeLessThan(0);
    expect(r.welch.ci[1]).toBeGreaterThan(0);
    expect(r.planning.detectable!).toBeCloseTo(minimumDetectableEffect(6, 6) * effectSize(r.a.values, r.b.values).pooledSd, 8);
  });
});
