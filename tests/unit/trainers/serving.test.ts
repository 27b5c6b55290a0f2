// Serving mode is part of a published policy: the gate and every evaluation act as the policy declares (greedy,
// or sampling at a temperature), training explores; trainers publish greedy; old resources act as they did.
import { describe, expect, it } from "vitest";
import { servingInResources, servingLabel } from "@/lib/policies/serving";
import { createSupportDesk } from "@/server/environments/support-desk";
import { evaluatePolicy, lockHeldOutSet } from "@/server/trainers/evaluate";
import { policyCandidate } from "@/server/trainers/family";
import { actingPolicy, initialPolicy, servingOf, withEpsilon, type Policy } from "@/server/trainers/policy";
import { fromPolicyResource, toPolicyResource } from "@/server/trainers/policy-resource";

const env = createSupportDesk();
const obs = () => ({ features: Float64Array.from(env.featureNames, (_, i) => (i === 0 ? 1 : 0)), key: "k" });
type Linear = Extract<Policy, { kind: "softmax-linear" }>;

/** Action 2's logit ln 3, action 5's ln 2, the rest 0, through the first feature; ε 0.2 for exploring. */
function linear(): Linear {
  const p = withEpsilon(initialPolicy("softmax-linear", env) as Linear, 0.2);
  const nF = env.featureNames.length;
  p.weights[2 * nF] = Math.log(3);
  p.weights[5 * nF] = Math.log(2);
  return p;
}
const probs = (p: Policy, mode: "serve" | "explore") => {
  const out = new Float64Array(env.actions.length);
  actingPolicy(p, mode).probabilities(obs(), out);
  return Array.from(out);
};

describe("serving mode", () => {
  it("greedy serves the best action only — no ε — while exploring still samples with ε", () => {
    const p = { ...linear(), serving: { mode: "greedy" as const } };
    expect(probs(p, "serve")).toEqual([0, 0, 1, 0, 0, 0, 0, 0]);
    const explore = probs(p, "explore");
    expect(explore[2]).toBeCloseTo(0.8 * (3 / 11) + 0.2 / 8, 12);
  });

  it("sampling at temperature T serves softmax(scores / T); Q policies too", () => {
    const p = { ...linear(), serving: { mode: "sample" as const, temperature: 0.5 } };
    // logits / 0.5: action 2 → 2 ln 3 (weight 9), action 5 → 2 ln 2 (4), six others 0 (1 each): 9 / 19.
    expect(probs(p, "serve")[2]).toBeCloseTo(9 / 19, 12);
    expect(probs(p, "serve")[5]).toBeCloseTo(4 / 19, 12);
    const q = { ...(initialPolicy("q-tabular", env) as Extract<Policy, { kind: "q-tabular" }>), table: { k: [0, 0, Math.log(3), 0, 0, 0, 0, 0] }, serving: { mode: "sample" as const, temperature: 1 } };
    expect(probs(q, "serve")[2]).toBeCloseTo(3 / 10, 12);
    expect(probs({ ...q, serving: undefined }, "serve")[2]).toBe(1); // a Q policy without a mode acts greedily, as always
  });

  it("a policy published before serving modes acts as it did: softmax kinds sample at T = 1", () => {
    const old = linear();
    expect(servingOf(old)).toEqual({ mode: "sample", temperature: 1 });
    expect(probs(old, "serve")[2]).toBeCloseTo(3 / 11, 12); // no ε: serving never explores
    const view = servingInResources({ policy: toPolicyResource(old) });
    expect(view).toEqual({ mode: "sample", temperature: 1, declared: false, reads: `the desk's ${old.featureCount} features — linear` });
    expect(servingLabel(view!)).toMatch(/names no serving mode/);
  });

  it("trainers publish greedy, keep a parent's declared mode, and the resource round-trips with its digest", () => {
    const published = policyCandidate(linear());
    const back = fromPolicyResource(published);
    expect(back.serving).toEqual({ mode: "greedy" });
    expect(servingInResources({ p: published })).toMatchObject({ mode: "greedy", declared: true });
    // What each kind reads, in words: the text policy names its encoder and tokenizer.
    const text = initialPolicy("text-softmax", createSupportDesk({ variant: "text" }));
    expect(servingInResources({ p: policyCandidate(text) })!.reads).toBe("the customer's words — a 2-block transformer (width 32) over 0 cl100k_base tokens — with plan, urgency and progress");
    expect(servingInResources({ p: policyCandidate(initialPolicy("mlp-softmax", env)) })!.reads).toMatch(/^the desk's \d+ features — an MLP 64-64$/);
    const warm = policyCandidate({ ...linear(), serving: { mode: "sample", temperature: 0.7 } });
    expect(fromPolicyResource(warm).serving).toEqual({ mode: "sample", temperature: 0.7 });
    expect(servingInResources({ prompt: { resource_type: "prompt_template", template: "x" } })).toBeNull();
  });

  it("the schema refuses a mode it does not know and a temperature that is not positive, naming the field", () => {
    expect(() => toPolicyResource({ ...linear(), serving: { mode: "sample", temperature: 0 } })).toThrow(/serving\.temperature: temperature must be > 0/);
    expect(() => toPolicyResource({ ...linear(), serving: { mode: "argmax" } as never })).toThrow(/serving/);
    expect(() => toPolicyResource({ ...linear(), serving: { mode: "greedy", temperature: 2 } as never })).toThrow(/serving/);
  });

  it("evaluation judges what serves: a greedy candidate scores the same on every re-run; T = 1 is another policy", () => {
    const heldOut = lockHeldOutSet(env, "v2", 40, "serving-test");
    const greedy = { ...linear(), serving: { mode: "greedy" as const } };
    const a = evaluatePolicy(env, greedy, heldOut);
    const b = evaluatePolicy(env, { ...greedy, epsilon: 0.9 }, heldOut); // ε is training's, not serving's
    expect(b.perTask).toEqual(a.perTask);
    const sampled = evaluatePolicy(env, { ...greedy, serving: { mode: "sample", temperature: 1 } }, heldOut);
    expect(sampled.perTask.map((t) => t.reward)).not.toEqual(a.perTask.map((t) => t.reward));
  });
});
