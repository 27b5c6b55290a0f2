import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { zeroComponents, type RewardComponents } from "@/server/environments/types";
import {
  DEFAULT_REWARD_WEIGHTS,
  RunningMeanStd,
  discountedReturns,
  fittedChange,
  normalizeRewards,
  rewardHackingSignal,
  rewardModelConfigSchema,
  stepRewards,
  type WindowStats,
} from "@/server/trainers/reward-model";
import { configProblems } from "../../helpers/training";

const step = (c: Partial<RewardComponents>) => ({ components: { ...zeroComponents(), ...c } });
const trajectory = { steps: [step({ efficiency: -0.1, user_satisfaction: 0.1 }), step({ efficiency: -0.1, accuracy: 1 }), step({ efficiency: -0.1, task_completion: 1, user_satisfaction: 0.3 })] };

describe("reward model: weighted components", () => {
  it("defaults to the training-system document's weights", () => {
    expect(DEFAULT_REWARD_WEIGHTS).toEqual({ task_completion: 0.4, user_satisfaction: 0.3, efficiency: 0.2, accuracy: 0.1 });
    expect(rewardModelConfigSchema.parse({})).toEqual({ weights: DEFAULT_REWARD_WEIGHTS, discount: 0.95, normalize: false, clip: 10 });
  });

  it("weights each component: changing one weight changes exactly the steps that carry that component", () => {
    const base = stepRewards(trajectory, DEFAULT_REWARD_WEIGHTS);
    expect(Array.from(base)).toEqual([0.3 * 0.1 + 0.2 * -0.1, 0.2 * -0.1 + 0.1 * 1, 0.4 + 0.3 * 0.3 + 0.2 * -0.1]);
    const moreAccuracy = stepRewards(trajectory, { ...DEFAULT_REWARD_WEIGHTS, accuracy: 0.5 });
    expect(moreAccuracy[0]).toBe(base[0]);
    expect(moreAccuracy[1]).toBeCloseTo(base[1]! + 0.4, 12);
    expect(moreAccuracy[2]).toBe(base[2]);
    for (const k of Object.keys(DEFAULT_REWARD_WEIGHTS) as (keyof RewardComponents)[]) {
      const changed = stepRewards(trajectory, { ...DEFAULT_REWARD_WEIGHTS, [k]: DEFAULT_REWARD_WEIGHTS[k] + 0.1 });
      expect(Array.from(changed), k).not.toEqual(Array.from(base));
    }
  });

  it("validates its config with the field named", () => {
    const issues = (input: unknown) => configProblems(rewardModelConfigSchema, input);
    expect(issues({ discount: 1.5 })).toEqual(["discount: discount must be ≤ 1"]);
    expect(issues({ weights: { task_completion: -1, user_satisfaction: 0, efficiency: 0, accuracy: 0 } })).toContain("weights.task_completion: task_completion weight must be ≥ 0");
    expect(issues({ weights: { task_completion: 0, user_satisfaction: 0, efficiency: 0, accuracy: 0 } })).toEqual(["weights: at least one reward weight must be positive"]);
    expect(issues({ bogus: 1 })[0]).toMatch(/bogus/);
  });
});

describe("reward model: temporal discounting", () => {
  it("computes G_t = r_t + γ G_{t+1}", () => {
    expect(Array.from(discountedReturns([1, 0, 2], 0.5))).toEqual([1 + 0.5 * (0 + 0.5 * 2), 0 + 0.5 * 2, 2]);
    expect(Array.from(discountedReturns([1, 0, 2], 1))).toEqual([3, 2, 2]);
  });

  it("makes a late reward worth less the lower the discount", () => {
    const late = [0, 0, 0, 1];
    expect(discountedReturns(late, 0.9)[0]).toBeCloseTo(0.729, 12);
    expect(discountedReturns(late, 0.5)[0]).toBeCloseTo(0.125, 12);
  });
});

describe("reward model: normalisation", () => {
  it("running mean/std equals the batch statistics, however the data is split", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: 1, maxLength: 20 }), { minLength: 1, maxLength: 10 }), (chunks) => {
        const stats = new RunningMeanStd();
        for (const c of chunks) stats.update(c);
        const all = chunks.flat();
        const mean = all.reduce((a, b) => a + b, 0) / all.length;
        const variance = all.reduce((a, b) => a + (b - mean) ** 2, 0) / all.length;
        expect(stats.count).toBe(all.length);
        expect(stats.mean).toBeCloseTo(mean, 6);
        if (all.length > 1) expect(stats.variance()).toBeCloseTo(variance, 4);
        expect(RunningMeanStd.from(stats.state()).state()).toEqual(stats.state());
      }),
    );
  });

  it("scales rewards by the running std of discounted returns (and only when enabled)", () => {
    const cfg = rewardModelConfigSchema.parse({ weights: { task_completion: 10, user_satisfaction: 0, efficiency: 0, accuracy: 0 } });
    const t = { steps: [step({}), step({ task_completion: 1 })] };
    const off = normalizeRewards([t, t], cfg, new RunningMeanStd());
    expect(Array.from(off[0]!)).toEqual([0, 10]);
    const stats = new RunningMeanStd();
    const on = normalizeRewards([t, { steps: [step({})] }], { ...cfg, normalize: true }, stats);
    // Returns seen: [9.5, 10] and [0]; the rewards are divided by their std, not shifted by the mean.
    expect(stats.count).toBe(3);
    expect(on[0]![0]).toBe(0);
    expect(on[0]![1]).toBeCloseTo(10 / stats.std(), 12);
    const clipped = normalizeRewards([t, { steps: [step({})] }], { ...cfg, normalize: true, clip: 1 }, new RunningMeanStd());
    expect(clipped[0]![1]).toBe(1);
  });
});

describe("reward-hacking signal", () => {
  const windows = (rows: [number, number, number | null][]): WindowStats[] => rows.map(([meanReward, coverage, protectedPassRate]) => ({ meanReward, coverage, protectedPassRate }));

  it("fires when reward trends up while coverage trends down", () => {
    const s = rewardHackingSignal(windows([[0.2, 1, 1], [0.3, 0.95, 1], [0.4, 0.9, 1], [0.5, 0.8, 1]]));
    expect(s.fired).toBe(true);
    expect(s.reasons).toEqual(["reward +0.300 while span coverage -0.195 over 4 windows"]);
  });

  it("fires when reward trends up while the protected-case pass rate trends down, skipping windows without cases", () => {
    const s = rewardHackingSignal(windows([[0.2, 1, 1], [0.3, 1, null], [0.4, 1, 0.8], [0.5, 1, 0.6]]));
    expect(s.fired).toBe(true);
    expect(s.reasons[0]).toMatch(/protected-case pass rate -0\.\d+ over 3 windows/);
  });

  it("stays quiet on healthy training, on falling reward, on noise, and with too few windows", () => {
    expect(rewardHackingSignal(windows([[0.2, 1, 1], [0.3, 1, 1], [0.4, 0.99, 1], [0.5, 1, 1]])).fired).toBe(false);
    expect(rewardHackingSignal(windows([[0.5, 1, 1], [0.4, 0.9, 0.8], [0.3, 0.8, 0.6], [0.2, 0.7, 0.5]])).fired).toBe(false);
    expect(rewardHackingSignal(windows([[0.2, 0.9, 1], [0.21, 0.95, 1], [0.2, 0.9, 1], [0.22, 0.9, 1]])).fired).toBe(false);
    expect(rewardHackingSignal(windows([[0.2, 1, 1], [0.5, 0.5, 0.5]])).fired).toBe(false);
  });

  it("uses its thresholds", () => {
    const w = windows([[0.2, 1, 1], [0.25, 0.99, 1], [0.3, 0.98, 1], [0.35, 0.97, 1]]);
    expect(rewardHackingSignal(w).fired).toBe(false);
    expect(rewardHackingSignal(w, { coverageDrop: 0.02 }).fired).toBe(true);
    expect(rewardHackingSignal(w, { coverageDrop: 0.02, rewardRise: 0.2 }).fired).toBe(false);
    expect(() => rewardHackingSignal(w, { minWindows: 2 })).toThrow(/minWindows must be ≥ 3/);
  });

  it("fits a least-squares trend", () => {
    expect(fittedChange([{ x: 0, y: 0 }, { x: 1, y: 1 }, { x: 2, y: 2 }])).toBeCloseTo(2, 12);
    expect(fittedChange([{ x: 0, y: 1 }])).toBeNull();
  });
});
