import { describe, expect, it } from "vitest";
import { Rng } from "@/server/environments/prng";
import { createSupportDesk, findDistribution, REFUND_DESK_DISTRIBUTION, requiresEscalation, type DeskTask } from "@/server/environments/support-desk";
import { lockHeldOutSet } from "@/server/trainers/evaluate";
import { initMlp, rawFeatureIndices, type Mlp } from "@/server/trainers/neural/mlp";
import { adam, forward, fromVariables, inputBatch, tfCpu, toVariables, type Scalar } from "@/server/trainers/neural/tf";

const desk = createSupportDesk();
const refunds = (prefix: string, n: number) =>
  Array.from({ length: 4 * n }, (_, i) => desk.sampleTask(REFUND_DESK_DISTRIBUTION, `${prefix}/${i}`) as DeskTask)
    .filter((t) => t.attributes.intent === "refund_request")
    .slice(0, n);
const eu = (t: DeskTask) => t.attributes.language !== "en";

/** What the agent sees when a ticket opens (every feature, the hand-made crosses included), and whether it must go to a human. */
function firstSteps(tasks: DeskTask[]): { x: number[][]; y: number[] } {
  const x = tasks.map((t) => Array.from(desk.observe(desk.reset(t, { target: "t", rng: Rng.from("r"), options: { toolFailureRate: 0, timeoutShare: 0 } }).state).features));
  return { x, y: tasks.map((t) => (requiresEscalation(t) ? 1 : 0)) };
}

/** Fits "hand to a human or not" by softmax cross-entropy with Adam (full batch); accuracy on fresh tasks. */
async function heldOutAccuracy(net: Mlp, train: { x: number[][]; y: number[] }, test: { x: number[][]; y: number[] }): Promise<number> {
  const tf = await tfCpu();
  const width = net.inputs.length;
  const pick = (rows: number[][]) => rows.map((r) => net.inputs.map((i) => r[i]!));
  const vars = toVariables(net);
  const opt = await adam(0.1, null);
  tf.tidy(() => {
    const x = inputBatch(pick(train.x), width);
    const y = tf.oneHot(tf.tensor1d(train.y, "int32"), 2);
    for (let step = 0; step < 150; step++) opt.minimize(() => tf.losses.softmaxCrossEntropy(y, forward(vars, x)) as Scalar, false, vars.vars);
  });
  const fitted = fromVariables(vars);
  const predicted = tf.tidy(() => Array.from(tf.argMax(forward(toVariables(fitted), inputBatch(pick(test.x), width)), 1).dataSync()));
  tf.dispose(vars.vars);
  opt.dispose();
  return predicted.filter((p, i) => p === test.y[i]).length / predicted.length;
}

describe("the refund desk (distribution v5-refunds): who refunds is plan XOR market", () => {
  it("is registered on both variants of the desk, and its rule applies to its own tasks only", () => {
    expect(desk.distributions.map((d) => d.version)).toContain("v5-refunds");
    expect(createSupportDesk({ variant: "text" }).distributions.map((d) => d.version)).toContain("v5-refunds");
    expect(lockHeldOutSet(desk, "v5-refunds", 20).distribution.digest).toBe(REFUND_DESK_DISTRIBUTION.digest);
    const v2 = findDistribution("v2");
    const before = Array.from({ length: 400 }, (_, i) => desk.sampleTask(v2, `v2/${i}`) as DeskTask).filter((t) => t.attributes.intent === "refund_request" && t.attributes.urgency !== "critical");
    expect(before.filter((t) => t.attributes.tier === "pro" && !eu(t)).length).toBeGreaterThan(3);
    expect(before.some(requiresEscalation)).toBe(false);
  });

  it("the hand-off follows the conjunction, and plan or market alone says nothing about it", () => {
    const tasks = refunds("rule", 400);
    for (const t of tasks) expect(requiresEscalation(t), JSON.stringify(t.attributes)).toBe(t.attributes.tier === "pro" ? !eu(t) : eu(t));
    const share = (f: (t: DeskTask) => boolean) => {
      const group = tasks.filter(f);
      return group.filter(requiresEscalation).length / group.length;
    };
    // Each marginal is near a coin flip; only the pair decides.
    for (const f of [(t: DeskTask) => t.attributes.tier === "pro", (t: DeskTask) => t.attributes.tier === "enterprise", eu, (t: DeskTask) => !eu(t)]) {
      expect(share(f)).toBeGreaterThan(0.35);
      expect(share(f)).toBeLessThan(0.65);
    }
  });

  it("a linear model on every feature (crosses included) cannot learn the hand-off; a 16-unit MLP on the raw features can", async () => {
    const train = firstSteps(refunds("train", 300));
    const test = firstSteps(refunds("test", 300));
    const all = desk.featureNames.map((_, i) => i);
    const linear = await heldOutAccuracy(initMlp(all, [], 2, "tanh", "linear"), train, test);
    const mlp = await heldOutAccuracy(initMlp(rawFeatureIndices(desk.featureNames), [16], 2, "tanh", "mlp"), train, test);
    // A sum of a plan term and a market term gets at most three of the four plan × market cells right.
    expect(linear).toBeLessThan(0.8);
    expect(mlp).toBeGreaterThan(0.97);
  }, 60_000);
});
