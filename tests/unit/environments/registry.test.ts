import { describe, expect, it } from "vitest";
import { digestOf, hexId } from "@/server/digest";
import { EnvironmentRegistry, environments } from "@/server/environments/registry";
import type { Destination, Environment, TaskDistribution } from "@/server/environments/types";
import { zeroComponents } from "@/server/environments/types";
import { evaluatePolicy, lockHeldOutSet } from "@/server/trainers/evaluate";
import { train } from "@/server/trainers/loop";
import { initialPolicy } from "@/server/trainers/policy";
import { createTrainer } from "@/server/trainers/trainers";

/**
 * A user's own environment: a one-step router that must send "refund" requests to the refunds queue
 * and everything else to general. Written against the public interface only.
 */
type RouterState = { label: string; routed: string | null; target: string };
function routerEnvironment(): Environment<RouterState, { queue: string }> {
  const body = { environment: "router", version: "r1", title: "half refunds", mix: { label: { refund: 1, other: 1 } } };
  const dist: TaskDistribution = { ...body, digest: digestOf(body) };
  const actions = [
    { name: "route_general", description: "send to general", tool: null },
    { name: "route_refunds", description: "send to refunds", tool: null },
  ];
  const featureNames = ["bias", "label:refund"];
  return {
    id: "router",
    version: "0.1.0",
    actions,
    tools: [],
    featureNames,
    maxSteps: 1,
    distributions: [dist],
    specDigest: digestOf({ actions, featureNames }),
    protectedFamilies: [],
    sampleTask: (d, seed) => ({
      id: `tk-${hexId(12, seed)}`,
      seed,
      distribution: { environment: "router", version: d.version, digest: d.digest },
      attributes: { label: parseInt(hexId(2, seed), 16) % 2 ? "refund" : "other" },
      protectedFamily: null,
    }),
    targetFor: (task, key) => `${task.id}/${key}`,
    reset: (task, ctx) => ({ state: { label: task.attributes.label!, routed: null, target: ctx.target }, effects: [] }),
    observe: (s) => ({ features: Float64Array.from([1, s.label === "refund" ? 1 : 0]), key: s.label }),
    step(s, a) {
      s.routed = a === 1 ? "refunds" : "general";
      const right = (s.label === "refund") === (a === 1);
      const components = { ...zeroComponents(), task_completion: right ? 1 : 0 };
      return { components, toolCall: null, effects: [{ target: s.target, seq: 0, kind: "route", tool: null, payload: { queue: s.routed } }], done: true, aborted: null, durationMs: 1 };
    },
    outcomeReached: (s) => (s.label === "refund") === (s.routed === "refunds"),
    judgeProtected: () => null,
    async verifyOutcome(task, target, destination: Destination<{ queue: string }>) {
      const rec = await destination.read(target);
      const expected = { queue: task.attributes.label === "refund" ? "refunds" : "general" };
      if (!rec) return { verdict: "unverifiable", target, expected, observed: null, mismatches: [], reason: "not routed" };
      const ok = rec.queue === expected.queue;
      return { verdict: ok ? "verified" : "not_verified", target, expected, observed: rec, mismatches: ok ? [] : ["queue"], reason: null };
    },
  };
}

describe("environment registry", () => {
  it("has the built-in support desk and its text variant", () => {
    expect(environments.has("support-desk")).toBe(true);
    const [desk, text] = environments.list();
    expect(text).toMatchObject({ id: "support-desk-text", distributions: ["v1", "v2", "v3", "v4-text", "v6-text-order", "v5-refunds"] });
    expect(text!.actions).toContain("escalate_to_human:legal");
    expect(desk).toMatchObject({ id: "support-desk", distributions: ["v1", "v2", "v3", "v5-refunds"] });
    expect(desk!.actions).toEqual([
      "ask_clarifying_question",
      "provide_direct_answer",
      "search_for_information",
      "escalate_to_human",
      "request_additional_context",
      "update_ticket",
      "close_ticket",
      "delete_account",
    ]);
    expect(() => environments.get("nope")).toThrow(/no environment "nope" is registered \(known: support-desk, support-desk-text\)/);
  });

  it("accepts a user's environment, and the trainers learn on it through the same interfaces", () => {
    const registry = new EnvironmentRegistry();
    registry.register(routerEnvironment());
    expect(() => registry.register(routerEnvironment())).toThrow(/already registered/);
    const env = registry.get("router");
    const parent = initialPolicy("softmax-linear", env);
    const trainer = createTrainer({ algorithm: "ppo", config: { learningRate: 0.1, entropyCoefficient: 0.01, exploration: { epsilonStart: 0.1, epsilonEnd: 0, epsilonDecay: 0.5 } }, parent, seed: "router", environment: env });
    train(env, trainer, { distribution: env.distributions[0]!, episodesPerUpdate: 64, seed: "router", updates: 20 });
    const held = lockHeldOutSet(env, "r1", 200);
    const before = evaluatePolicy(env, parent, held);
    const after = evaluatePolicy(env, trainer.currentPolicy(), held);
    expect(before.successRate).toBeLessThan(0.65);
    expect(after.successRate).toBeGreaterThan(0.95);
  });

  it("refuses environments that cannot be driven", () => {
    const registry = new EnvironmentRegistry();
    const broken = { ...routerEnvironment(), id: "broken", actions: [{ name: "a", description: "", tool: "missing_tool" }, { name: "a", description: "", tool: null }] };
    expect(() => registry.register(broken)).toThrow(/action names must be unique; action a calls tool missing_tool, which has no contract/);
    expect(() => registry.register({ ...routerEnvironment(), id: "Bad Id" })).toThrow(/lowercase letters, digits and dashes/);
  });
});
