import { describe, expect, it } from "vitest";
import { initialPolicy } from "@/server/trainers/policy";
import { createQLearningTrainer, qLearningConfigSchema } from "@/server/trainers/q-learning";
import { configProblems, desk, learningRun, mean, newTrainer, resultDigest, resumeComparison, trainFor } from "../../helpers/training";

describe("Q-learning on the support desk", () => {
  it("learns: the trained policy beats its parent on the locked held-out set by ≥ +0.5 mean reward and ≥ +0.5 success rate", () => {
    const { before, after, curve } = learningRun("q-learning", {}, { updates: 20, episodes: 128 });
    // Measured with seed-1: parent −0.255 reward / 5.3 % success, trained +0.601 / 82.3 % (protected 11 → 44 of 44).
    expect(after.meanReward - before.meanReward).toBeGreaterThanOrEqual(0.5);
    expect(after.successRate - before.successRate).toBeGreaterThanOrEqual(0.5);
    expect(after.protectedPassed).toBeGreaterThanOrEqual(before.protectedPassed);
    // The curve rises: the last five batches earn clearly more than the first five.
    expect(mean(curve.slice(-5)) - mean(curve.slice(0, 5))).toBeGreaterThan(0.3);
  });

  it("is deterministic for a seed, and the seed matters", () => {
    const run = { updates: 3, episodes: 48 };
    const cfg = { doubleQ: true, prioritized: { enabled: true } };
    expect(resultDigest("q-learning", cfg, run)).toBe(resultDigest("q-learning", cfg, run));
    expect(resultDigest("q-learning", cfg, { ...run, seed: "seed-2" })).not.toBe(resultDigest("q-learning", cfg, run));
  });

  it("checkpoint → JSON → restore → continue gives exactly the uninterrupted result (double Q, prioritized replay, normalised rewards)", () => {
    const r = resumeComparison("q-learning", { doubleQ: true, prioritized: { enabled: true }, reward: { normalize: true }, replay: { capacity: 300 } }, { updates: 3, episodes: 40 });
    expect(r.resumedAt).toBe(3);
    expect(r.policies[1]).toBe(r.policies[0]);
    expect(r.stats[1]).toBe(r.stats[0]);
    expect(r.checkpoints[1]).toBe(r.checkpoints[0]);
  });

  it("every option changes what is computed", () => {
    const run = { updates: 2, episodes: 32 };
    const replayBase = { prioritized: { enabled: true }, doubleQ: false };
    const base = resultDigest("q-learning", {}, run);
    const prioritizedBase = resultDigest("q-learning", replayBase, run);
    const variants: [string, unknown, string][] = [
      ["learningRate", { learningRate: 0.5 }, base],
      ["exploration", { exploration: { epsilonStart: 0.9, epsilonEnd: 0.05, epsilonDecay: 0.9 } }, base],
      ["replay.enabled", { replay: { enabled: false } }, base],
      ["replay.capacity", { replay: { capacity: 100 } }, base],
      ["replay.batchSize", { replay: { batchSize: 8 } }, base],
      ["replay.replayRatio", { replay: { replayRatio: 1 } }, base],
      ["doubleQ", { doubleQ: true }, base],
      ["prioritized.enabled", replayBase, base],
      ["prioritized.alpha", { ...replayBase, prioritized: { enabled: true, alpha: 0.2 } }, prioritizedBase],
      ["prioritized.betaStart", { ...replayBase, prioritized: { enabled: true, betaStart: 0.1 } }, prioritizedBase],
      ["prioritized.betaEnd", { ...replayBase, prioritized: { enabled: true, betaEnd: 0.5 } }, prioritizedBase],
      ["prioritized.betaUpdates", { ...replayBase, prioritized: { enabled: true, betaUpdates: 1 } }, prioritizedBase],
      ["prioritized.epsilon", { ...replayBase, prioritized: { enabled: true, epsilon: 0.5 } }, prioritizedBase],
      ["reward.weights", { reward: { weights: { task_completion: 1, user_satisfaction: 0.3, efficiency: 0.2, accuracy: 0.1 } } }, base],
      ["reward.discount", { reward: { discount: 0.7 } }, base],
      ["reward.normalize", { reward: { normalize: true } }, base],
      ["reward.clip", { reward: { normalize: true, clip: 0.3 } }, resultDigest("q-learning", { reward: { normalize: true } }, run)],
    ];
    for (const [option, config, against] of variants) expect(resultDigest("q-learning", config, run), option).not.toBe(against);
  });

  it("double Q and prioritized replay each change the learned values, and importance weights shrink prioritized updates", () => {
    const run = { updates: 4, episodes: 64 };
    const plain = newTrainer("q-learning", {});
    const double = newTrainer("q-learning", { doubleQ: true });
    const prioritized = newTrainer("q-learning", { prioritized: { enabled: true } });
    const [p, d, r] = [plain, double, prioritized].map((t) => trainFor(t, run));
    const valueOf = (policy: ReturnType<typeof plain.currentPolicy>) => (policy.kind === "q-tabular" ? policy.table : {});
    expect(valueOf(double.currentPolicy())).not.toEqual(valueOf(plain.currentPolicy()));
    expect(valueOf(prioritized.currentPolicy())).not.toEqual(valueOf(plain.currentPolicy()));
    expect(p!.at(-1)!.stats.figures.meanImportanceWeight).toBe(1);
    expect(d!.at(-1)!.stats.figures.meanImportanceWeight).toBe(1);
    expect(r!.at(-1)!.stats.figures.meanImportanceWeight).toBeLessThan(1);
    expect(r!.at(-1)!.stats.figures.beta).toBeGreaterThan(r![0]!.stats.figures.beta!);
  });

  it("validates its config with the field named", () => {
    const problems = (input: unknown) => configProblems(qLearningConfigSchema, input);
    expect(problems({ learningRate: 0 })).toEqual(["learningRate: learningRate must be > 0"]);
    expect(problems({ replay: { capacity: 10, batchSize: 20 } })).toEqual(["replay.batchSize: batchSize must not exceed capacity"]);
    expect(problems({ replay: { enabled: false }, prioritized: { enabled: true } })).toEqual(["prioritized.enabled: prioritized replay needs replay.enabled"]);
    expect(problems({ prioritized: { alpha: 1.5 } })).toEqual(["prioritized.alpha: alpha must be ≤ 1"]);
    expect(() => newTrainer("q-learning", { doubleQ: "yes" })).toThrow(/invalid q-learning config: doubleQ/);
  });

  it("needs a q-tabular parent", () => {
    expect(() => createQLearningTrainer({ config: {}, parent: initialPolicy("softmax-linear", desk), seed: "s", environment: desk })).toThrow(/q-learning trains q-tabular policies/);
  });
});
