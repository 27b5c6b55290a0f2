import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSupportDesk } from "@/server/environments/support-desk";
import { actingPolicy, assertPolicyFits, greedyInto, initialPolicy, softmaxInto, withEpsilon, type Policy } from "@/server/trainers/policy";
import { POLICY_RESOURCE_TYPE, fromPolicyResource, policyDigest, toPolicyResource } from "@/server/trainers/policy-resource";

const env = createSupportDesk();
const obs = (key = "how_to|low|-|000000") => ({ features: Float64Array.from(env.featureNames, (_, i) => (i % 7 === 0 ? 1 : 0)), key });

describe("policies", () => {
  it("start uniform", () => {
    for (const kind of ["softmax-linear", "q-tabular"] as const) {
      const out = new Float64Array(env.actions.length);
      actingPolicy(initialPolicy(kind, env)).probabilities(obs(), out);
      expect(Array.from(out)).toEqual(new Array(8).fill(1 / 8));
    }
  });

  it("softmax-linear: probabilities are a softmax of w·x, mixed with ε-uniform", () => {
    const p = initialPolicy("softmax-linear", env) as Extract<Policy, { kind: "softmax-linear" }>;
    const nF = env.featureNames.length;
    p.weights[2 * nF + 0] = Math.log(3); // action 2 gets logit ln 3 through the bias feature
    const out = new Float64Array(8);
    actingPolicy(p).probabilities(obs(), out);
    expect(out[2]).toBeCloseTo(3 / 10, 12);
    expect(out[0]).toBeCloseTo(1 / 10, 12);
    actingPolicy(withEpsilon(p, 0.5)).probabilities(obs(), out);
    expect(out[2]).toBeCloseTo(0.5 * 0.3 + 0.5 / 8, 12);
  });

  it("softmax never overflows and always sums to one", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -500, max: 500, noNaN: true }), { minLength: 6, maxLength: 6 }), (w) => {
        const out = new Float64Array(3);
        softmaxInto(Float64Array.from(w), [1, 1], out);
        expect(out.every((v) => Number.isFinite(v) && v >= 0)).toBe(true);
        expect(out.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      }),
    );
  });

  it("q-tabular: greedy over the state's values, ties split, unseen states uniform", () => {
    const q = { ...initialPolicy("q-tabular", env), table: { "how_to|low|-|000000": [0, 1, 1, 0, 0, 0, 0, -1] } } as Policy;
    const out = new Float64Array(8);
    actingPolicy(q).probabilities(obs(), out);
    expect(Array.from(out)).toEqual([0, 0.5, 0.5, 0, 0, 0, 0, 0]);
    actingPolicy(withEpsilon(q, 0.2)).probabilities(obs(), out);
    expect(out[1]).toBeCloseTo(0.4 + 0.025, 12);
    expect(out[7]).toBeCloseTo(0.025, 12);
    actingPolicy(q).probabilities(obs("billing_question|low|-|000000"), out);
    expect(Array.from(out)).toEqual(new Array(8).fill(1 / 8));
    greedyInto([3, 1], out.subarray(0, 2));
    expect(Array.from(out.subarray(0, 2))).toEqual([1, 0]);
  });

  it("refuses to run in an environment with a different spec", () => {
    const old = createSupportDesk({ toolVersions: { update_ticket: "1.0.0" } });
    expect(() => assertPolicyFits(initialPolicy("softmax-linear", env), old)).toThrow(/actions, features or tool contracts differ/);
  });
});

describe("policy resources (NamedResources entries)", () => {
  it("round-trip with a content digest through JSON", () => {
    const p = initialPolicy("softmax-linear", env) as Extract<Policy, { kind: "softmax-linear" }>;
    p.weights[5] = 0.125;
    const entry = toPolicyResource(p);
    expect(entry.resource_type).toBe(POLICY_RESOURCE_TYPE);
    expect(entry.digest).toBe(policyDigest(p));
    const named = JSON.parse(JSON.stringify({ policy: entry }));
    expect(fromPolicyResource(named.policy)).toEqual(p);
  });

  it("give a different digest to any change", () => {
    const p = initialPolicy("q-tabular", env);
    expect(policyDigest(withEpsilon(p, 0.1))).not.toBe(policyDigest(p));
    expect(policyDigest({ ...p, table: { a: new Array(8).fill(0) } } as Policy)).not.toBe(policyDigest(p));
  });

  it("refuse an entry whose content does not match its digest, or that is malformed", () => {
    const entry = JSON.parse(JSON.stringify(toPolicyResource(initialPolicy("softmax-linear", env))));
    entry.policy.weights[0] = 1;
    expect(() => fromPolicyResource(entry)).toThrow(/policy digest mismatch/);
    expect(() => fromPolicyResource({ resource_type: "llm", endpoint: "x" })).toThrow(/resource_type must be "lightgate_policy"/);
    const bad = JSON.parse(JSON.stringify(toPolicyResource(initialPolicy("softmax-linear", env))));
    bad.policy.weights.pop();
    expect(() => fromPolicyResource(bad)).toThrow(/weights must hold actions × featureCount numbers/);
    const nan = initialPolicy("softmax-linear", env) as Extract<Policy, { kind: "softmax-linear" }>;
    nan.weights[0] = Number.NaN;
    expect(() => toPolicyResource(nan)).toThrow(/weights.0: must be a finite number/);
  });
});
