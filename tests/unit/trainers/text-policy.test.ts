import { describe, expect, it } from "vitest";
import { Rng } from "@/server/environments/prng";
import { createSupportDesk, ORDER_DESK_DISTRIBUTION, type DeskTask } from "@/server/environments/support-desk";
import { deskTextExpert } from "@/server/environments/support-desk/expert";
import { customerText } from "@/server/environments/support-desk/ticket-text";
import { wordBuckets } from "@/server/environments/support-desk/features";
import { digestOf, type Digest } from "@/server/digest";
import { collectDemonstrations } from "@/server/trainers/data-sources";
import { evaluatePolicy, lockHeldOutSet } from "@/server/trainers/evaluate";
import { actingPolicy, initialPolicy, type MlpPolicy, type TextPolicy } from "@/server/trainers/policy";
import { fromPolicyResource, toPolicyResource } from "@/server/trainers/policy-resource";
import { encodeText, rowIndex, structuredFeatureIndices, tokenRows } from "@/server/trainers/text/encoder";
import { policyLogits, textBatch, textVariables } from "@/server/trainers/text/tf-encoder";
import { textPolicyFamily } from "@/server/trainers/text/text-policy";
import { tokenize } from "@/server/trainers/text/tokenizer";
import { tfCpu } from "@/server/trainers/neural/tf";

const text = createSupportDesk({ variant: "text" });
const heldOut = lockHeldOutSet(text, ORDER_DESK_DISTRIBUTION, 150, "text-policy-test");

function orderTasks(n: number): DeskTask[] {
  return Array.from({ length: n }, (_, i) => text.sampleTask(ORDER_DESK_DISTRIBUTION, `order/${i}`) as DeskTask);
}

describe("the word-order desk (v6-text-order)", () => {
  it("writes clear tickets as 'about A, not B', and the mirror ticket holds exactly the same words", () => {
    const contrast = orderTasks(400).filter((t) => / not | rather than /.test(customerText(t).opening));
    expect(contrast.length).toBeGreaterThan(150);
    const bag = (s: string) => [...wordBuckets(s)].sort((a, b) => a - b).join(",");
    // Swap the two topics of one ticket: another intent, the same bag of hashed words.
    const t = contrast.find((x) => customerText(x).opening.startsWith("It's about "))!;
    const m = /^It's about (.+), not (.+)\.( .*)?$/.exec(customerText(t).opening)!;
    const mirror = `It's about ${m[2]}, not ${m[1]}.${m[3] ?? ""}`;
    expect(mirror).not.toBe(customerText(t).opening);
    expect(bag(mirror)).toBe(bag(customerText(t).opening));
    // The tokenizer keeps the order: the token sequences differ.
    expect(tokenize(mirror)).not.toEqual(tokenize(customerText(t).opening));
  });

  it("other distributions read exactly as before (no contrast lines)", () => {
    const v4 = text.distributions.find((d) => d.version === "v4-text")!;
    for (let i = 0; i < 200; i++) expect(customerText(text.sampleTask(v4, `v4/${i}`) as DeskTask).opening).not.toMatch(/, not |rather than/);
  });
});

describe("the text policy", () => {
  it("is a published resource whose plain-TypeScript forward pass is the tfjs one", async () => {
    const p = initialPolicy("text-softmax", text) as TextPolicy;
    expect(p.encoder.tokenizer).toBe("cl100k_base");
    // A parent with a vocabulary and trained-looking weights: perturb every number a little.
    const ids = [...new Set(orderTasks(50).flatMap((t) => tokenize(customerText(t).opening)))];
    let k = 0;
    const jiggle = (xs: number[]) => xs.map((x) => Math.fround(x + Math.sin(++k) * 0.3));
    const enc = { ...p.encoder, vocab: ids, tokenEmbedding: jiggle([...p.encoder.tokenEmbedding, ...new Array(ids.length * p.encoder.dim).fill(0.05)]), blocks: p.encoder.blocks.map((b) => ({ ...b, norm1: { gain: jiggle(b.norm1.gain), bias: jiggle(b.norm1.bias) }, up: { kernel: b.up.kernel, bias: jiggle(b.up.bias) } })) };
    const policy: TextPolicy = { ...p, encoder: enc, head: { ...p.head, layers: p.head.layers.map((l) => ({ ...l, kernel: jiggle(l.kernel), bias: jiggle(l.bias) })) } };
    const back = fromPolicyResource(JSON.parse(JSON.stringify(toPolicyResource(policy))));
    expect(back).toEqual(policy);

    const tf = await tfCpu();
    const tasks = orderTasks(6);
    const rowOf = rowIndex(enc.vocab);
    const structured = structuredFeatureIndices(text.featureNames);
    const obs = tasks.map((t) => {
      const { state } = text.reset(t, { target: "x", rng: Rng.from(`obs/${t.id}`), options: { toolFailureRate: 0, timeoutShare: 0 } });
      return text.observe(state);
    });
    const vars = textVariables(tf, policy, null);
    const batch = textBatch(obs.map((o) => ({ rows: tokenRows(enc, rowOf, o.text!), structured: structured.map((i) => o.features[i]!) })), enc.maxTokens);
    const viaTf = tf.tidy(() => policyLogits(tf, vars, enc, batch).arraySync());
    tf.dispose(vars.all);
    const probs = new Float64Array(text.actions.length);
    const acting = actingPolicy({ ...policy, serving: { mode: "sample", temperature: 1 } }, "serve");
    obs.forEach((o, i) => {
      acting.probabilities(o, probs);
      const z = viaTf[i]!;
      const max = Math.max(...z);
      const sum = z.reduce((a, x) => a + Math.exp(x - max), 0);
      for (let a = 0; a < z.length; a++) expect(probs[a]).toBeCloseTo(Math.exp(z[a]! - max) / sum, 5);
    });
    // Padding changes nothing: a text's encoding alone equals its encoding inside a longer batch.
    expect(encodeText(enc, tokenRows(enc, rowOf, obs[0]!.text!)).length).toBe(enc.dim);
  });

  it("reads a text of any length in bounded time: a 3 MB observation acts exactly like its first 64 × 32 characters", () => {
    const p = initialPolicy("text-softmax", text) as TextPolicy;
    const ids = [...new Set(tokenize("It's about getting a refund, not deleting my account."))];
    const policy: TextPolicy = { ...p, encoder: { ...p.encoder, vocab: ids, tokenEmbedding: [...p.encoder.tokenEmbedding, ...ids.flatMap((_, i) => Array.from({ length: p.encoder.dim }, (_, d) => Math.fround(Math.sin(i * 7 + d) * 0.2)))] }, head: { ...p.head, layers: p.head.layers.map((l) => ({ ...l, kernel: l.kernel.map((_, k) => Math.fround(Math.cos(k) * 0.1)) })) } };
    const acting = actingPolicy({ ...policy, serving: { mode: "sample", temperature: 1 } }, "serve");
    const features = new Float64Array(text.featureNames.length);
    const start = "It's about getting a refund, not deleting my account. ";
    const huge = start.repeat(1 + Math.ceil(3_000_000 / start.length));
    const a = new Float64Array(text.actions.length);
    const b = new Float64Array(text.actions.length);
    const t0 = performance.now();
    acting.probabilities({ features, key: "k", text: huge }, a);
    expect(performance.now() - t0).toBeLessThan(2_000);
    acting.probabilities({ features, key: "k", text: huge.slice(0, policy.encoder.maxTokens * 32) }, b);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(tokenRows(policy.encoder, rowIndex(policy.encoder.vocab), huge)).toHaveLength(policy.encoder.maxTokens);
  });

  it("refuses a malformed encoder, naming the field", () => {
    const p = initialPolicy("text-softmax", text) as TextPolicy;
    expect(() => toPolicyResource({ ...p, encoder: { ...p.encoder, vocab: [1, 2] } })).toThrow(/encoder: encoder.tokenEmbedding must hold \(3 \+ 2\) × 32 numbers/);
    expect(() => toPolicyResource({ ...p, encoder: { ...p.encoder, tokenizer: "gpt2" as never } })).toThrow(/encoder.tokenizer/);
    expect(() => toPolicyResource({ ...p, encoder: { ...p.encoder, heads: 3 } })).toThrow(/multiple of encoder.heads/);
    expect(() => actingPolicy(p, "serve").probabilities({ features: new Float64Array(text.featureNames.length), key: "k" }, new Float64Array(text.actions.length))).toThrow(/reads the words of the ticket/);
  });

  it("keeps the cloning loss beside PPO's by default (demoCoefficient 0.5), and drops it at 0", async () => {
    const demos = collectDemonstrations(text, [{ id: "expert", policyFor: deskTextExpert }], { distribution: ORDER_DESK_DISTRIBUTION, count: 30, seed: "text-demo-anchor" });
    const data = { id: "ds-anchor", digest: digestOf(demos) as Digest, records: demos };
    const ppoFigures = async (demoCoefficient?: number) => {
      const config = textPolicyFamily.configSchema.parse({ pretrainUpdates: 0, cloneEpochs: 1, ppoUpdates: 1, episodesPerUpdate: 6, ppoEpochs: 1, ...(demoCoefficient === undefined ? {} : { demoCoefficient }) });
      const s = textPolicyFamily.start({ environment: text, distribution: ORDER_DESK_DISTRIBUTION, seed: "anchor", data, heldOut: null, config, parent: initialPolicy("mlp-softmax", text) as MlpPolicy });
      let last: Record<string, number> = {};
      while (!s.finished) last = (await s.step()).figures as Record<string, number>;
      return last;
    };
    expect(textPolicyFamily.configSchema.parse({}).demoCoefficient).toBe(0.5);
    const anchored = await ppoFigures();
    expect(anchored.demoLoss).toBeGreaterThan(0);
    expect(Number.isFinite(anchored.demoLoss)).toBe(true);
    expect((await ppoFigures(0)).demoLoss).toBeUndefined();
    expect(() => textPolicyFamily.configSchema.parse({ demoCoefficient: 11 })).toThrow(/demoCoefficient must be ≤ 10/);
  });

  it("reads the order of the words: after the same cloning, it beats the feature MLP on the word-order desk", async () => {
    const demos = collectDemonstrations(text, [{ id: "expert", policyFor: deskTextExpert }], { distribution: ORDER_DESK_DISTRIBUTION, count: 200, seed: "text-policy-test" });
    const sorted = [...demos].sort((a, b) => (a.id < b.id ? -1 : 1));
    const data = { id: "ds-text", digest: digestOf(sorted) as Digest, records: sorted };
    const config = textPolicyFamily.configSchema.parse({ pretrainUpdates: 1, pretrainStepsPerUpdate: 20, cloneEpochs: 6, ppoUpdates: 0, batchSize: 32, learningRate: 0.006 });
    const score = async (parent: TextPolicy | MlpPolicy) => {
      const s = textPolicyFamily.start({ environment: text, distribution: ORDER_DESK_DISTRIBUTION, seed: "t1", data, heldOut: null, config, parent });
      while (!s.finished) await s.step();
      return evaluatePolicy(text, (s.candidate() as unknown as { policy: TextPolicy | MlpPolicy }).policy, heldOut);
    };
    const reads = await score(initialPolicy("text-softmax", text) as TextPolicy);
    const words = await score(initialPolicy("mlp-softmax", text) as MlpPolicy);
    expect(reads.meanReward).toBeGreaterThan(words.meanReward + 0.1);
    expect(reads.protectedPassed).toBeGreaterThan(words.protectedPassed);
  }, 240_000);
});
