// Continual training pauses itself on degraded evidence, whatever the reward does.
import { describe, expect, it } from "vitest";
import { effectiveExpectations } from "@/server/gate/policy";
import { decideStop, summarizeWindow, type EvidenceWindow } from "@/server/gate/stop-conditions";
import { POLICY } from "@/server/gate/reference/common";
import { judge, reference } from "./fixtures";

const a = reference("A").receipt;
const expectations = effectiveExpectations(a.stage1, POLICY);
const rollouts = a.stage2!.rollouts;
const healthy = (label: string, part: number): EvidenceWindow => summarizeWindow(label, rollouts.slice(part * 40, part * 40 + 40), expectations, { parentResolvable: true });
const stop = (windows: EvidenceWindow[]) => decideStop(windows, expectations.unexpectedRetryBudget, POLICY.stop);

describe("stop conditions", () => {
  it("continues while the evidence holds, and reports activity and progress separately", () => {
    const d = stop([healthy("w1", 0), healthy("w2", 1), healthy("w3", 2)]);
    expect(d).toMatchObject({ action: "continue", reasons: [], active: true });
    expect(typeof d.usefulProgress).toBe("boolean");
    expect(stop([])).toEqual({ action: "continue", reasons: [], active: false, usefulProgress: null });
  });

  it("pauses when span coverage drops, even while the reward rises", () => {
    const w2 = structuredClone(rollouts.slice(40, 80));
    for (const r of w2.slice(0, 3)) {
      delete r.attempts.at(-1)!.families["tool.call:update_ticket"];
      r.reward = 1;
    }
    const d = stop([healthy("w1", 0), summarizeWindow("w2", w2, expectations, { parentResolvable: true })]);
    expect(d.action).toBe("pause");
    expect(d.reasons).toEqual([{ condition: "coverage_dropped", window: "w2", sentence: "Span coverage is 92.5%, below the required 100.0%." }]);
    expect(d.usefulProgress).toBe(false);
  });

  it("pauses when coverage drops beyond the tolerated drop", () => {
    const w1 = { ...healthy("w1", 0), coverage: { considered: 40, fullyCovered: 40 } };
    const w2 = { ...healthy("w2", 1), coverage: { considered: 40, fullyCovered: 36 } };
    const d = decideStop([w1, w2], 0, { minCoverageRatio: 0.8, maxCoverageDrop: 0.05 });
    expect(d.reasons.map((r) => r.sentence)).toEqual(["Span coverage dropped from 100.0% to 90.0%."]);
  });

  it("pauses when retry debt crosses its bound, or a retry's reason is unknown", () => {
    const w = structuredClone(rollouts.slice(0, 40));
    const last = w[0]!.attempts.at(-1)!;
    w[0]!.attempts.push({ ...last, attemptId: "x", sequenceId: last.sequenceId + 1, reason: "retry_after_timeout" });
    expect(stop([summarizeWindow("w", w, expectations, { parentResolvable: true })]).reasons.map((r) => r.condition)).toEqual(["retry_debt_over_bound"]);
    w[0]!.attempts.at(-1)!.reason = null;
    expect(stop([summarizeWindow("w", w, expectations, { parentResolvable: true })]).reasons.map((r) => r.condition)).toEqual(["retry_debt_unknown"]);
  });

  it("pauses when a protected family regresses, the parent is unavailable, or the canary cannot verify effects", () => {
    const c = judge(reference("C").receipt).evidence;
    const d = judge(reference("D").receipt).evidence;
    const window = summarizeWindow("w", rollouts.slice(0, 40), expectations, { protectedCases: c.protectedCases, parentResolvable: false, canary: d.canary });
    expect(stop([window]).reasons.map((r) => r.condition)).toEqual(["protected_regressed", "protected_regressed", "protected_regressed", "parent_unavailable", "canary_unverifiable"]);
    const unknownParent = summarizeWindow("w", rollouts.slice(0, 40), expectations, { parentResolvable: null });
    expect(stop([unknownParent]).reasons[0]!.sentence).toBe("Nobody checked that the exact parent still loads.");
  });

  it("an empty window is activity without evidence, not health", () => {
    const d = stop([healthy("w1", 0), summarizeWindow("w2", [], expectations, { parentResolvable: true })]);
    expect(d).toMatchObject({ action: "pause", active: false, reasons: [{ condition: "coverage_unavailable" }] });
  });
});
