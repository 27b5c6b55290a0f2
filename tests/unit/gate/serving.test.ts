// Who may serve the gate's exam (issue 23): a result counts only when a runner key served it that had no hand
// in the candidate; and where the evaluator has expected outputs, the score comes from comparing what was
// served with them — never from what the runner says about its own result.
import { describe, expect, it } from "vitest";
import { judgeLockedCase, type GateSpan } from "@/server/gate/evidence/gate-rollouts";
import { servingDisqualification, servingShares } from "@/server/gate/evidence/serving";

const excluded = new Map([
  ["ak-learner", "declared this candidate"],
  ["person-1", "owns the key ak-learner, which declared this candidate"],
]);

describe("servingDisqualification", () => {
  it("counts a runner key with no hand in the candidate", () => {
    expect(servingDisqualification({ identity: "ak-runner", role: "runner" }, excluded)).toBeNull();
  });
  it("names what an excluded identity did, before its role", () => {
    expect(servingDisqualification({ identity: "ak-learner", role: "algorithm" }, excluded)).toBe("served by ak-learner, which declared this candidate");
    expect(servingDisqualification({ identity: "ak-learner", role: "runner" }, excluded)).toBe("served by ak-learner, which declared this candidate");
  });
  it("refuses every identity that is not a runner key, and an attempt that names none", () => {
    expect(servingDisqualification({ identity: "ak-algo", role: "algorithm" }, excluded)).toBe("served by ak-algo, which is not a runner (its role is algorithm)");
    expect(servingDisqualification({ identity: "anonymous-store", role: null }, excluded)).toBe("served by anonymous-store, which is not a runner (not an API key)");
    expect(servingDisqualification({ identity: null, role: null }, excluded)).toMatch(/no recorded identity/);
  });
});

describe("servingShares", () => {
  it("groups by identity, skips what nobody served, and keeps the first reason an identity was not counted", () => {
    const shares = servingShares([{ servedBy: "ak-r" }, { servedBy: "ak-l", notCounted: "served by ak-l, which declared this candidate" }, { servedBy: "ak-r" }, {}, { servedBy: null, notCounted: "x" }]);
    expect(shares).toEqual([
      { identity: "ak-r", rollouts: 2, counted: true, reason: null },
      { identity: "(none recorded)", rollouts: 1, counted: false, reason: "x" },
      { identity: "ak-l", rollouts: 1, counted: false, reason: "served by ak-l, which declared this candidate" },
    ]);
  });
});

describe("an expected-output evaluator scores what was served, not the runner's claims", () => {
  const spec = { scoring: "expected_output" as const, output_attribute: "agent.output" };
  const spans = (answer: string): GateSpan[] => [
    { sequence_id: 1, name: "openai.chat.completion", attributes: { "agent.output": answer } },
    // A runner's own verdict on itself: a pass and a perfect reward, whatever it served.
    { sequence_id: 2, name: "agentlightning.annotation", attributes: { "agentlightning.reward.0.value": 1, "lightgate.passed": true, "lightgate.evaluator": "e@1" } },
  ];
  it("a wrong answer fails with score 0 though the runner wrote passed: true and reward 1", () => {
    expect(judgeLockedCase({ status: "succeeded", spans: spans("refund promised") }, spec, "e@1", { answer: "answer 1" })).toEqual({ status: "scored", score: 0, passed: false });
  });
  it("the expected answer passes (also as its JSON text)", () => {
    expect(judgeLockedCase({ status: "succeeded", spans: spans(JSON.stringify({ answer: "answer 1" })) }, spec, "e@1", { answer: "answer 1" })).toEqual({ status: "scored", score: 1, passed: true });
  });
});
