import { describe, expect, it } from "vitest";
import { initialPolicy } from "@/server/trainers/policy";
import { createPpoTrainer, ppoConfigSchema } from "@/server/trainers/ppo";
import { restoreTrainer } from "@/server/trainers/trainers";
import { configProblems, desk, learningRun, mean, newTrainer, resultDigest, resumeComparison, trainFor } from "../../helpers/training";

describe("PPO on the support desk", () => {
  it("learns: the trained policy beats its parent on the locked held-out set by ≥ +0.5 mean reward and ≥ +0.5 success rate", () => {
    const { before, after, curve } = learningRun("ppo", {}, { updates: 30, episodes: 128 });
    // Measured with seed-1: parent −0.255 reward / 5.3 % success, trained +0.469 / 75.3 % (protected 11 → 37 of 44).
    expect(after.meanReward - before.meanReward).toBeGreaterThanOrEqual(0.5);
    expect(after.successRate - before.successRate).toBeGreaterThanOrEqual(0.5);
    expect(after.protectedPassed).toBeGreaterThanOrEqual(before.protectedPassed);
    // The curve rises: the last five batches earn clearly more than the first five.
    expect(mean(curve.slice(-5)) - mean(curve.slice(0, 5))).toBeGreaterThan(0.4);
  });

  it("is deterministic for a seed, and the seed matters", () => {
    const run = { updates: 4, episodes: 48 };
    expect(resultDigest("ppo", {}, run)).toBe(resultDigest("ppo", {}, run));
    expect(resultDigest("ppo", {}, { ...run, seed: "seed-2" })).not.toBe(resultDigest("ppo", {}, run));
  });

  it("checkpoint → JSON → restore → continue gives exactly the uninterrupted result", () => {
    const r = resumeComparison("ppo", { normalizeAdvantages: true, reward: { normalize: true } }, { updates: 3, episodes: 40 });
    expect(r.resumedAt).toBe(3);
    expect(r.policies[1]).toBe(r.policies[0]);
    expect(r.stats[1]).toBe(r.stats[0]);
    expect(r.checkpoints[1]).toBe(r.checkpoints[0]);
  });

  it("refuses a tampered checkpoint or one for another environment", () => {
    const t = newTrainer("ppo", {});
    const c = JSON.parse(JSON.stringify(t.checkpoint()));
    c.updates = 99;
    expect(() => restoreTrainer(c, desk)).toThrow(/checkpoint digest mismatch/);
    const other = { ...desk, specDigest: "sha256:" + "0".repeat(64) as `sha256:${string}` };
    expect(() => restoreTrainer(t.checkpoint(), other)).toThrow(/checkpoint is for support-desk/);
  });

  it("every option changes what is computed", () => {
    const run = { updates: 2, episodes: 32 };
    const base = resultDigest("ppo", {}, run);
    const variants: Record<string, unknown> = {
      learningRate: { learningRate: 0.02 },
      optimizer: { optimizer: "sgd" },
      clipRange: { clipRange: 0.05 },
      epochs: { epochs: 2 },
      minibatchSize: { minibatchSize: 16 },
      "advantage.kind": { advantage: { kind: "returns" } },
      "advantage.lambda": { advantage: { kind: "gae", lambda: 0.5 } },
      valueBaseline: { valueBaseline: false },
      valueLearningRate: { valueLearningRate: 0.2 },
      normalizeAdvantages: { normalizeAdvantages: false },
      entropyCoefficient: { entropyCoefficient: 0 },
      "exploration.epsilonStart": { exploration: { epsilonStart: 0.5, epsilonEnd: 0.02, epsilonDecay: 0.9 } },
      "exploration.epsilonEnd": { exploration: { epsilonStart: 0.2, epsilonEnd: 0.1, epsilonDecay: 0.9 } },
      "exploration.epsilonDecay": { exploration: { epsilonStart: 0.2, epsilonEnd: 0.02, epsilonDecay: 0.5 } },
      "reward.weights": { reward: { weights: { task_completion: 1, user_satisfaction: 0.3, efficiency: 0.2, accuracy: 0.1 } } },
      "reward.discount": { reward: { discount: 0.8 } },
      "reward.normalize": { reward: { normalize: true } },
    };
    for (const [option, config] of Object.entries(variants)) {
      expect(resultDigest("ppo", config, run), option).not.toBe(base);
    }
    // Clipping of normalised rewards acts only once they are normalised.
    expect(resultDigest("ppo", { reward: { normalize: true, clip: 0.5 } }, run)).not.toBe(resultDigest("ppo", { reward: { normalize: true } }, run));
  });

  it("toggling the clip range changes the update: a tight clip clips more and moves the policy less", () => {
    const loose = newTrainer("ppo", { clipRange: 0.3 });
    const tight = newTrainer("ppo", { clipRange: 0.05 });
    const [l] = trainFor(loose, { updates: 1, episodes: 64 });
    const [t] = trainFor(tight, { updates: 1, episodes: 64 });
    expect(t!.stats.figures.clipFraction).toBeGreaterThan(l!.stats.figures.clipFraction!);
    expect(t!.stats.figures.approxKl).toBeLessThan(l!.stats.figures.approxKl!);
  });

  it("learns only from complete trajectories and counts the ones it skipped", () => {
    const t = newTrainer("ppo", {});
    const history = trainFor(t, { updates: 2, episodes: 64, toolFailureRate: 0.4 });
    const skipped = history.reduce((s, h) => s + h.stats.skippedIncomplete, 0);
    const incomplete = history.reduce((s, h) => s + h.batch.trajectories.filter((x) => !x.complete).length, 0);
    expect(skipped).toBe(incomplete);
    expect(skipped).toBeGreaterThan(0);
    expect(history[0]!.stats.trajectories + history[0]!.stats.skippedIncomplete).toBe(64);
  });

  it("validates its config with the field named", () => {
    const problems = (input: unknown) => configProblems(ppoConfigSchema, input);
    expect(problems({ clipRange: 0 })).toEqual(["clipRange: clipRange must be > 0"]);
    expect(problems({ epochs: 1.5 })).toEqual(["epochs: epochs must be an integer"]);
    expect(problems({ exploration: { epsilonStart: 0.1, epsilonEnd: 0.5, epsilonDecay: 0.9 } })).toEqual(["exploration.epsilonEnd: epsilonEnd must not exceed epsilonStart"]);
    expect(problems({ advantage: { kind: "gae", lambda: 2 } })).toEqual(["advantage.lambda: lambda must be ≤ 1"]);
    expect(problems({ optimizer: "rmsprop" })).toEqual(['optimizer: optimizer must be "adam" or "sgd"']);
    expect(problems({ clip: 0.2 })[0]).toMatch(/clip/);
    expect(() => newTrainer("ppo", { minibatchSize: 0 })).toThrow(/invalid ppo config: minibatchSize: minibatchSize must be ≥ 1/);
  });

  it("needs a softmax-linear parent made for this environment", () => {
    expect(() => createPpoTrainer({ config: {}, parent: initialPolicy("q-tabular", desk), seed: "s", environment: desk })).toThrow(/ppo trains softmax-linear policies/);
  });
});
