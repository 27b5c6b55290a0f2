// Evidence functions over the store's shapes and rollups: families, rewards, coverage, retry debt, curves.
import { describe, expect, it } from "vitest";
import { computeCoverage } from "@/server/gate/evidence/coverage";
import { computeRetryDebt } from "@/server/gate/evidence/retry-debt";
import { rewardCurve } from "@/server/gate/evidence/reward-curve";
import { finalReward, rewardValueOf, rollupRollout, spanFamily, type StoreSpan } from "@/server/gate/evidence/spans";
import type { RolloutRollup } from "@/server/gate/receipt/stage2";

const span = (name: string, attributes: Record<string, unknown> = {}, sequence_id = 1): StoreSpan => ({ rollout_id: "ro-1", attempt_id: "at-1", sequence_id, name, attributes });

describe("span families and rewards", () => {
  it.each([
    ["openai.chat.completion", {}, "llm.call"],
    ["litellm_request", {}, "llm.call"],
    ["my-llm", { "gen_ai.request.model": "gpt" }, "llm.call"],
    ["execute_tool update_ticket", {}, "tool.call:update_ticket"],
    ["anything", { "gen_ai.tool.name": "lookup_ticket" }, "tool.call:lookup_ticket"],
    ["tool.call:escalate", {}, "tool.call:escalate"],
    ["agentlightning.annotation", { "agentlightning.reward.0.name": "primary", "agentlightning.reward.0.value": 0.5 }, "reward"],
    ["agentlightning.annotation", { reward: 1 }, "reward"],
    ["agentlightning.exception", {}, "exception"],
    ["agentlightning.message", {}, "agentlightning.message"],
  ])("%s %j → %s", (name, attributes, family) => {
    expect(spanFamily(span(name, attributes))).toBe(family);
  });

  it("reads rewards in the three formats Agent Lightning reads, and the last one wins", () => {
    expect(rewardValueOf(span("x", { "agentlightning.reward.0.value": 0.7 }))).toBe(0.7);
    expect(rewardValueOf(span("agentlightning.annotation", { reward: 0.2 }))).toBe(0.2);
    expect(rewardValueOf(span("x", { "agentops.task.output": JSON.stringify({ type: "reward", value: 0.9 }) }))).toBe(0.9);
    expect(rewardValueOf(span("x", { "agentops.task.output": "not json" }))).toBeNull();
    expect(finalReward([span("r", { reward: 1 }, 3), span("agentlightning.annotation", { reward: 0.3 }, 5), span("agentlightning.annotation", { reward: 0.1 }, 2)])).toBe(0.3);
  });

  it("rolls a rollout up per attempt, with the final reward from the latest attempt only", () => {
    const attempts = [
      { rollout_id: "ro-1", attempt_id: "at-2", sequence_id: 2, status: "succeeded" as const, worker_id: "w", start_time: 2, end_time: 3, reason: "retry_after_timeout" as const },
      { rollout_id: "ro-1", attempt_id: "at-1", sequence_id: 1, status: "timeout" as const, worker_id: "w", start_time: 0, end_time: null },
    ];
    const spans = [
      { ...span("openai.chat.completion"), attempt_id: "at-1" },
      { ...span("agentlightning.annotation", { reward: 0.9 }), attempt_id: "at-1" },
      { ...span("openai.chat.completion"), attempt_id: "at-2" },
      { ...span("openai.chat.completion", {}, 2), attempt_id: "at-2" },
      { ...span("other-rollout"), rollout_id: "ro-2" },
    ];
    const rollup = rollupRollout({ rollout_id: "ro-1", mode: "train", status: "succeeded", end_time: 3 }, attempts, spans);
    expect(rollup.attempts.map((a) => [a.attemptId, a.reason, a.families])).toEqual([
      ["at-1", null, { "llm.call": 1, reward: 1 }],
      ["at-2", "retry_after_timeout", { "llm.call": 2 }],
    ]);
    expect(rollup.reward).toBeNull();
  });
});

const rollout = (id: string, status: RolloutRollup["status"], families: Record<string, number>, reasons: (RolloutRollup["attempts"][number]["reason"])[] = ["first"], reward: number | null = 0.5, endTime = 1): RolloutRollup => ({
  rolloutId: id,
  mode: "train",
  status,
  attempts: reasons.map((reason, i) => ({ attemptId: `${id}-a${i + 1}`, sequenceId: i + 1, status: "succeeded", workerId: null, startTime: 0, endTime: 1, reason, families: i === reasons.length - 1 ? families : {} })),
  reward,
  endTime,
});

describe("coverage", () => {
  const expected = ["llm.call", "reward"];
  it("judges succeeded rollouts on their latest attempt and names what is missing", () => {
    const c = computeCoverage(
      [rollout("r1", "succeeded", { "llm.call": 2, reward: 1 }), rollout("r2", "succeeded", { "llm.call": 1 }), rollout("r3", "failed", {}), rollout("r4", "running", {})],
      expected,
    );
    expect(c).toMatchObject({ status: "available", considered: 2, fullyCovered: 1, ratio: 0.5, excluded: { failed: 1, cancelled: 0, unfinished: 1 } });
    expect(c.uncovered).toEqual([{ rolloutId: "r2", attemptId: "r2-a1", missing: ["reward"] }]);
    expect(c.missingByFamily).toEqual({ "llm.call": 0, reward: 1 });
  });
  it("is unavailable, never healthy, with nothing to judge", () => {
    expect(computeCoverage([], expected)).toMatchObject({ status: "unavailable", ratio: null });
    expect(computeCoverage([rollout("r", "failed", {})], expected).status).toBe("unavailable");
  });
});

describe("retry debt", () => {
  const budget = { expectedResamplesPerRollout: 1, unexpectedRetryBudget: 0 };
  it("separates planned resamples from unexpected retries and resamples beyond plan", () => {
    const d = computeRetryDebt(
      [
        rollout("r1", "succeeded", {}, ["first", "expected_resample"]),
        rollout("r2", "succeeded", {}, ["first", "expected_resample", "expected_resample"]),
        rollout("r3", "succeeded", {}, ["first", "retry_after_failed", "retry_after_unresponsive", "manual"]),
      ],
      budget,
    );
    expect(d).toMatchObject({ status: "available", expectedResamples: 2, excessResamples: 1, unexpectedRetries: 3, debt: 4, budget: 0 });
    expect(d.worst).toEqual([{ rolloutId: "r3", debt: 3 }, { rolloutId: "r2", debt: 1 }]);
  });
  it("a retry without a recorded reason makes the debt unknown; a first attempt is a first attempt", () => {
    expect(computeRetryDebt([rollout("r", "succeeded", {}, [null])], budget).status).toBe("available");
    expect(computeRetryDebt([rollout("r", "succeeded", {}, [null, null])], budget)).toMatchObject({ status: "unavailable", byReason: { unknown: 1 } });
  });
});

describe("reward curves", () => {
  it("orders by time as raw {x, y} points, counts rollouts without a reward instead of drawing them as zero", () => {
    const curve = rewardCurve([
      rollout("b", "succeeded", {}, ["first"], 0.2, 5),
      rollout("a", "succeeded", {}, ["first"], 0.8, 2),
      rollout("c", "failed", {}, ["first"], null, 3),
      rollout("d", "running", {}, ["first"], 0.9, 4),
    ]);
    expect(curve.points).toEqual([{ x: 2, y: 0.8, rolloutId: "a" }, { x: 5, y: 0.2, rolloutId: "b" }]);
    expect(curve).toMatchObject({ missingReward: 1, mean: 0.5 });
  });
});
