import { describe, expect, it } from "vitest";
import { evaluatePolicy, lockValidationSet } from "@/server/trainers/evaluate";
import { checkpointFamily, continueFamily, restoreFamily, startFamily } from "@/server/trainers/families";
import { mlpForward, rawFeatureIndices } from "@/server/trainers/neural/mlp";
import { forward, tfCpu, toVariables } from "@/server/trainers/neural/tf";
import { actingPolicy, initialPolicy, type MlpPolicy } from "@/server/trainers/policy";
import { fromPolicyResource, toPolicyResource } from "@/server/trainers/policy-resource";
import { desk, runInit } from "../../helpers/families";

const VAL = lockValidationSet(desk, "v2", 120, "neural-test");
const policyOf = (c: unknown) => (c as { policy: MlpPolicy }).policy;

async function train(family: "ppo-mlp" | "dqn-mlp", config: object, updates: number, seed = "nn") {
  const parent = initialPolicy(family === "ppo-mlp" ? "mlp-softmax" : "mlp-q", desk);
  const started = startFamily({ ...runInit({ family, config, parent, updates, seed }), validation: VAL });
  return { started, result: await continueFamily(started, updates) };
}

describe("MLP policies", () => {
  it("read only the raw features, act through a plain forward pass equal to TensorFlow.js's, and round-trip as resources", async () => {
    const p = initialPolicy("mlp-softmax", desk) as MlpPolicy;
    const raw = rawFeatureIndices(desk.featureNames);
    expect(p.network.inputs).toEqual(raw);
    expect(raw.every((i) => !desk.featureNames[i]!.includes("*"))).toBe(true);
    expect(raw.length).toBeLessThan(desk.featureNames.length);
    // The untrained actor is uniform (zero output layer), so the starting point is "every action equally likely".
    const out = new Float64Array(desk.actions.length);
    const obs = { features: Float64Array.from(desk.featureNames, (_, i) => (i % 3 === 0 ? 1 : 0)), key: "" };
    actingPolicy(p).probabilities(obs, out);
    for (const v of out) expect(v).toBeCloseTo(1 / desk.actions.length, 12);

    const { result } = await train("ppo-mlp", { episodesPerUpdate: 32 }, 1);
    // The monitor's diagnostics, computed by the MLP trainer too: a fresh critic (random init) explains little.
    const f = result.history[0]!.figures;
    expect(f.approxKl).toBeGreaterThan(0);
    expect(f.clipFraction).toBeGreaterThanOrEqual(0);
    expect(f.clipFraction).toBeLessThanOrEqual(1);
    expect(f.explainedVariance).toBeLessThan(0.5);
    const trained = policyOf(result.candidate);
    const tf = await tfCpu();
    const net = toVariables(trained.network);
    const x = tf.tensor2d([raw.map((i) => obs.features[i]!)]);
    const viaTf = forward(net, x).dataSync();
    const viaJs = new Float64Array(desk.actions.length);
    mlpForward(trained.network)(obs.features, viaJs);
    for (let a = 0; a < viaJs.length; a++) expect(viaJs[a]).toBeCloseTo(viaTf[a]!, 5);
    tf.dispose([x, ...net.vars]);

    expect(fromPolicyResource(toPolicyResource(trained))).toEqual(trained);
    const broken = { ...trained, network: { ...trained.network, layers: [{ ...trained.network.layers[0]!, kernel: [1, 2, 3] }, ...trained.network.layers.slice(1)] } };
    expect(() => toPolicyResource(broken)).toThrow(/layers.0.kernel must hold/);
  }, 20_000);

  it("PPO with an MLP actor-critic learns on the raw features, deterministically for a seed", async () => {
    const parent = evaluatePolicy(desk, initialPolicy("mlp-softmax", desk), VAL);
    const a = await train("ppo-mlp", { episodesPerUpdate: 48, minibatchSize: 64 }, 3);
    const after = evaluatePolicy(desk, policyOf(a.result.candidate), VAL);
    expect(after.meanReward - parent.meanReward).toBeGreaterThan(0.05);
    const b = await train("ppo-mlp", { episodesPerUpdate: 48, minibatchSize: 64 }, 3);
    expect(b.result.candidate.digest).toBe(a.result.candidate.digest);
    const other = await train("ppo-mlp", { episodesPerUpdate: 48, minibatchSize: 64 }, 3, "nn-2");
    expect(other.result.candidate.digest).not.toBe(a.result.candidate.digest);
  }, 60_000);

  it("PPO-MLP frees every tensor it makes in an update and clips the gradient's global norm", async () => {
    const tf = await tfCpu();
    const { started } = await train("ppo-mlp", { episodesPerUpdate: 16 }, 1);
    const before = tf.memory().numTensors;
    const r = await continueFamily(started, 2);
    // Once Adam exists, an update leaves no tensor behind (variables built from tensors used to leak one each).
    expect(tf.memory().numTensors).toBe(before);
    expect((r.report.last as { gradNorm: number }).gradNorm).toBeGreaterThan(0);
    const unclipped = await train("ppo-mlp", { episodesPerUpdate: 16, maxGradNorm: 0 }, 2);
    const tight = await train("ppo-mlp", { episodesPerUpdate: 16, maxGradNorm: 1e-3 }, 2);
    expect(tight.result.candidate.digest).not.toBe(unclipped.result.candidate.digest);
  }, 60_000);

  it("DQN keeps a replay buffer and a target network synced every N updates; options change what it computes", async () => {
    const { started, result } = await train("dqn-mlp", { episodesPerUpdate: 16, gradientSteps: 4, targetSyncEvery: 2 }, 3);
    const state = started.session.state() as { online: unknown; target: unknown; replay: unknown[] };
    // Synced after update 2, then update 3 moved the online network only.
    expect(state.target).not.toEqual(state.online);
    expect(result.report.replaySize).toBe(state.replay.length);
    expect(state.replay.length).toBeGreaterThan(16);
    const base = result.candidate.digest;
    for (const c of [{ doubleQ: false }, { targetSyncEvery: 1 }]) {
      const r = await train("dqn-mlp", { episodesPerUpdate: 16, gradientSteps: 4, targetSyncEvery: 2, ...c }, 3);
      expect(r.result.candidate.digest, JSON.stringify(c)).not.toBe(base);
    }
    // A sealed checkpoint restores and continues exactly.
    const cp = JSON.parse(JSON.stringify(checkpointFamily(started)));
    const restored = restoreFamily(cp, { ...runInit({ family: "dqn-mlp", updates: 1, seed: "nn" }), validation: VAL });
    const twin = await train("dqn-mlp", { episodesPerUpdate: 16, gradientSteps: 4, targetSyncEvery: 2 }, 4);
    expect((await continueFamily(restored, 1)).candidate.digest).toBe(twin.result.candidate.digest);
  }, 60_000);

  it("refuses a parent of another kind", () => {
    expect(() => startFamily(runInit({ family: "ppo-mlp", updates: 1, parent: initialPolicy("mlp-q", desk) }))).toThrow(/ppo-mlp trains mlp-softmax policies; the parent is mlp-q/);
    expect(() => startFamily(runInit({ family: "dqn-mlp", updates: 1 }))).toThrow(/dqn-mlp trains mlp-q policies; the parent is softmax-linear/);
  });
});
