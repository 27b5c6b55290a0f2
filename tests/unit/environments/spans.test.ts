import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { simulateEpisode, type Episode } from "@/server/environments/episode";
import { AGL_ANNOTATION, spansFromEpisode, traceIdFor, type AglSpan } from "@/server/environments/spans";
import { createSupportDesk, findDistribution } from "@/server/environments/support-desk";
import { EPISODE_EVIDENCE, coverageOf, rewardDimensions, spanFamiliesOf, trajectoryFromSpans } from "@/server/environments/trajectory";
import { DEFAULT_REWARD_WEIGHTS, REWARD_COMPONENTS, weightedReward } from "@/server/environments/types";
import { oraclePolicy, uniformPolicy } from "../../helpers/support-desk";

const env = createSupportDesk();
const v2 = findDistribution("v2");
const IDS = { rolloutId: "ro-0123456789ab", attemptId: "at-01234567", startTime: 1_750_000_000 };

function episode(seed: string, opts: { failureRate?: number; oracle?: boolean } = {}): Episode {
  const task = env.sampleTask(v2, seed);
  return simulateEpisode(env, opts.oracle ? oraclePolicy(task) : uniformPolicy, task, { episodeKey: seed, seed, options: { toolFailureRate: opts.failureRate ?? 0 } });
}

/** A complete episode that calls at least one tool. */
function withTools(): Episode {
  for (let i = 0; ; i++) {
    const ep = episode(`tools/${i}`, { oracle: true });
    if (ep.steps.filter((s) => s.toolCall).length >= 2) return ep;
  }
}

describe("spansFromEpisode", () => {
  it("emits one agent.step per step, one tool.call:<tool> per returned call and one Agent Lightning reward annotation", () => {
    const ep = withTools();
    const spans = spansFromEpisode(ep, IDS);
    const steps = spans.filter((s) => s.name === "agent.step");
    const tools = spans.filter((s) => s.name.startsWith("tool.call:"));
    expect(steps).toHaveLength(ep.steps.length);
    expect(tools).toHaveLength(ep.steps.filter((s) => s.toolCall).length);
    for (const t of tools) {
      const parent = steps.find((s) => s.span_id === t.parent_id)!;
      expect(t.name).toBe(`tool.call:${parent.attributes["lightgate.step.tool"]}`);
      expect(t.parent).toMatchObject({ span_id: parent.span_id, trace_id: parent.trace_id });
    }
    const reward = spans.at(-1)!;
    expect(reward.name).toBe(AGL_ANNOTATION);
    // The layout of agentlightning.emitter.reward.emit_reward({...}, primary_key=...): index 0 is primary.
    expect(reward.attributes["agentlightning.reward.0.name"]).toBe("episode_reward");
    expect(reward.attributes["agentlightning.reward.0.value"]).toBe(weightedReward(ep.totals, DEFAULT_REWARD_WEIGHTS));
    expect(rewardDimensions(reward.attributes).map((d) => d.name)).toEqual(["episode_reward", ...REWARD_COMPONENTS]);
    expect(spans.map((s) => s.sequence_id)).toEqual(spans.map((_, i) => i + 1));
    expect(new Set(spans.map((s) => s.trace_id))).toEqual(new Set([traceIdFor(IDS.rolloutId, IDS.attemptId)]));
    expect(spans.every((s) => /^[0-9a-f]{32}$/.test(s.trace_id) && /^[0-9a-f]{16}$/.test(s.span_id))).toBe(true);
    expect(spans[0]!.resource.attributes).toMatchObject({ "agentlightning.rollout_id": IDS.rolloutId, "agentlightning.attempt_id": IDS.attemptId });
    expect(spans.every((s) => s.start_time! <= s.end_time!)).toBe(true);
  });

  it("uses the run's reward weights for the primary reward", () => {
    const ep = withTools();
    const weights = { task_completion: 1, user_satisfaction: 0, efficiency: 0, accuracy: 0 };
    const reward = spansFromEpisode(ep, { ...IDS, rewardWeights: weights }).at(-1)!;
    expect(reward.attributes["agentlightning.reward.0.value"]).toBe(ep.totals.task_completion);
  });

  it("gives the same ids to the same attempt (a re-sent span is a duplicate, not a second copy)", () => {
    const ep = withTools();
    expect(spansFromEpisode(ep, IDS).map((s) => s.span_id)).toEqual(spansFromEpisode(ep, IDS).map((s) => s.span_id));
    expect(spansFromEpisode(ep, { ...IDS, attemptId: "at-other" })[0]!.span_id).not.toBe(spansFromEpisode(ep, IDS)[0]!.span_id);
  });
});

describe("trajectoryFromSpans", () => {
  it("rebuilds exactly the episode's steps from its spans, in any order, through JSON, with duplicates", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 2 ** 31 }), (n, shuffleSeed) => {
        const ep = episode(`prop/${n}`);
        const spans: AglSpan[] = JSON.parse(JSON.stringify(spansFromEpisode(ep, IDS)));
        const shuffled = fc.sample(fc.shuffledSubarray(spans, { minLength: spans.length, maxLength: spans.length }), { seed: shuffleSeed, numRuns: 1 })[0]!;
        const t = trajectoryFromSpans([...shuffled, spans[0]!]);
        expect(t.problems).toEqual([]);
        expect(t.complete).toBe(true);
        expect(t.taskId).toBe(ep.task.id);
        expect(t.episodeReward).toBe(weightedReward(ep.totals, DEFAULT_REWARD_WEIGHTS));
        expect(t.outcomeReached).toBe(ep.outcomeReached);
        expect(t.steps.map((s) => ({ index: s.index, features: s.features, key: s.key, action: s.action, actionIndex: s.actionIndex, logProb: s.logProb, components: s.components }))).toEqual(
          ep.steps.map((s) => ({ index: s.index, features: s.features, key: s.key, action: s.action, actionIndex: s.actionIndex, logProb: s.logProb, components: s.components })),
        );
      }),
      { numRuns: 60 },
    );
  });

  it("reports any single lost span as incomplete, naming the missing family", () => {
    const spans = spansFromEpisode(withTools(), IDS);
    spans.forEach((lostSpan, i) => {
      const rest = spans.filter((_, j) => j !== i);
      const t = trajectoryFromSpans(rest);
      const family = lostSpan.name === AGL_ANNOTATION ? "reward" : lostSpan.name;
      expect(t.complete, `losing span ${i} (${lostSpan.name})`).toBe(false);
      expect(t.missing).toContain(family);
      const cov = coverageOf(rest);
      expect(cov.complete).toBe(false);
      expect(cov.missing).toContain(family);
    });
    expect(coverageOf(spans)).toEqual({ complete: true, present: spanFamiliesOf(spans), missing: [], problems: [] });
  });

  it("flags tampered or inconsistent evidence", () => {
    const spans: AglSpan[] = JSON.parse(JSON.stringify(spansFromEpisode(withTools(), IDS)));
    spans.at(-1)!.attributes["agentlightning.reward.1.value"] = 42;
    expect(trajectoryFromSpans(spans).problems.some((p) => p.startsWith("task_completion: steps add up to"))).toBe(true);
    const bad: AglSpan[] = JSON.parse(JSON.stringify(spansFromEpisode(withTools(), IDS)));
    bad[0]!.attributes["lightgate.step.log_prob"] = 0.5;
    expect(trajectoryFromSpans(bad)).toMatchObject({ complete: false });
    expect(trajectoryFromSpans(bad).problems[0]).toMatch(/malformed log_prob/);
    expect(() => trajectoryFromSpans([])).toThrow(/at least one/);
    const other = spansFromEpisode(withTools(), { ...IDS, attemptId: "at-x" });
    expect(() => trajectoryFromSpans([...spans, ...other])).toThrow(/more than one attempt/);
  });
});

describe("flaky tools → missing spans that coverage reports as missing", () => {
  it("a hung tool call leaves its step without its tool span and the attempt without a reward", () => {
    let aborted: Episode | undefined;
    for (let i = 0; !aborted; i++) {
      const ep = episode(`flaky/${i}`, { failureRate: 0.5, oracle: true });
      if (ep.aborted) aborted = ep;
    }
    const lastStep = aborted.steps.at(-1)!;
    expect(lastStep.toolCall?.status).toBe("timeout");
    const spans = spansFromEpisode(aborted, IDS);
    expect(spans.some((s) => s.name === AGL_ANNOTATION)).toBe(false);
    expect(spans.at(-1)).toMatchObject({ name: "agent.step", status: { status_code: "ERROR", description: aborted.aborted!.reason } });
    const cov = coverageOf(spans, EPISODE_EVIDENCE);
    expect(cov.complete).toBe(false);
    expect(cov.missing).toEqual(["reward", `tool.call:${lastStep.toolCall!.tool}`].sort());
    expect(spanFamiliesOf(spans)).not.toContain("reward");
  });

  it("a tool error keeps its span (status ERROR) and the trajectory stays complete", () => {
    let ep: Episode | undefined;
    for (let i = 0; !ep; i++) {
      const e = episode(`err/${i}`, { failureRate: 0.5, oracle: true });
      if (!e.aborted && e.steps.some((s) => s.toolCall?.status === "error")) ep = e;
    }
    const spans = spansFromEpisode(ep, IDS);
    const errored = spans.filter((s) => s.name.startsWith("tool.call:") && s.status.status_code === "ERROR");
    expect(errored.length).toBeGreaterThan(0);
    expect(errored[0]!.attributes["lightgate.tool.outcome"]).toBe("error");
    expect(trajectoryFromSpans(spans).complete).toBe(true);
  });
});
