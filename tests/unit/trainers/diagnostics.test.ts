// PPO's diagnostics on inputs whose answers are known by hand, and as the trainer records them per update.
import { describe, expect, it } from "vitest";
import { approxKl, explainedVariance } from "@/server/trainers/diagnostics";
import { newTrainer, trainFor } from "../../helpers/training";

describe("PPO diagnostics", () => {
  it("explained variance: 1 for a perfect critic, 0 for predicting the mean, negative when worse, null when returns are constant", () => {
    const returns = [1, 2, 3, 4];
    expect(explainedVariance(returns, returns)).toBe(1);
    expect(explainedVariance(returns, [2.5, 2.5, 2.5, 2.5])).toBe(0);
    // Residuals 1, 0, −1, 0 (variance 0.5) against Var(returns) = 1.25: 1 − 0.5 / 1.25 = 0.6.
    expect(explainedVariance(returns, [0, 2, 4, 4])).toBeCloseTo(0.6, 12);
    // A constant offset is explained (variance, not error): still 1.
    expect(explainedVariance(returns, [11, 12, 13, 14])).toBe(1);
    expect(explainedVariance(returns, [4, 3, 2, 1])).toBeCloseTo(1 - 5 / 1.25, 12);
    expect(explainedVariance([2, 2, 2], [1, 2, 3])).toBeNull();
    expect(explainedVariance([], [])).toBeNull();
    expect(() => explainedVariance([1, 2], [1])).toThrow(/2 returns but 1 values/);
  });

  it("approx KL: 0 when nothing moved, the (r − 1) − log r estimator otherwise, never negative", () => {
    const old = [Math.log(0.5), Math.log(0.25)];
    expect(approxKl(old, old)).toBe(0);
    // r = 2 and r = 0.5: ((1 − ln 2) + (−0.5 + ln 2)) / 2 = 0.25.
    expect(approxKl(old, [Math.log(1), Math.log(0.125)])).toBeCloseTo(0.25, 12);
    expect(approxKl([0, 0, 0], [-0.1, -2, 0.3])).toBeGreaterThan(0);
    expect(approxKl([], [])).toBe(0);
    expect(() => approxKl([0], [])).toThrow(/1 old log-probabilities but 0 new/);
  });

  it("the linear PPO trainer records all five per update, in their ranges", () => {
    const [first, second] = trainFor(newTrainer("ppo", {}), { updates: 2, episodes: 48 });
    for (const h of [first!, second!]) {
      const f = h.stats.figures;
      expect(f.approxKl).toBeGreaterThan(0);
      expect(f.entropy).toBeGreaterThan(0);
      expect(f.entropy).toBeLessThanOrEqual(Math.log(20));
      expect(f.clipFraction).toBeGreaterThanOrEqual(0);
      expect(f.clipFraction).toBeLessThanOrEqual(1);
      expect(f.valueLoss).toBeGreaterThan(0);
      expect(f.explainedVariance).toBeLessThanOrEqual(1);
    }
    // The critic starts at zero: on the first batch it explains nothing (V ≡ 0 → 1 − Var(R)/Var(R) = 0).
    expect(first!.stats.figures.explainedVariance).toBeCloseTo(0, 12);
    // Without a value baseline there is nothing to explain.
    expect(trainFor(newTrainer("ppo", { valueBaseline: false }), { updates: 1, episodes: 16 })[0]!.stats.figures.explainedVariance).toBeUndefined();
  });
});
