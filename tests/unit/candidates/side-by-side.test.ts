// The candidate page's evidence cards put the exact parent beside the candidate (issue 25): coverage by declared
// family and retry debt by reason, from the gate core's own evidence — here reference A standing in as the parent
// of reference B — and a parent without a judged receipt shows no figure at all, only why.
import { describe, expect, it } from "vitest";
import { compareCoverage, compareRetries, debtStanding, parentAbsence, type RetrySide } from "@/lib/candidates/side-by-side";
import { judge, reference } from "../gate/fixtures";

const A = judge(reference("A").receipt).evidence;
const B = judge(reference("B").receipt).evidence;

describe("parent absence", () => {
  it("says plainly why the parent has nothing to compare, and nothing when it has evidence", () => {
    expect(parentAbsence({ candidate: null, evidence: null })).toBe("The parent has no receipt: nothing to compare.");
    expect(parentAbsence({ candidate: { receiptIntact: false }, evidence: null })).toBe("The parent's receipt fails verification: nothing to compare.");
    expect(parentAbsence({ candidate: { receiptIntact: true }, evidence: null })).toBe("The parent's receipt has no judged stages yet: nothing to compare.");
    expect(parentAbsence({ candidate: { receiptIntact: true }, evidence: A })).toBeNull();
  });
});

describe("span coverage, parent beside candidate", () => {
  it("counts rollouts missing each declared family on both sides, with the change and both fully-covered shares", () => {
    const { rows, ratios, ratioDelta } = compareCoverage(B.coverage, A.coverage);
    expect(rows.map((r) => r.family)).toEqual(["llm.call", "reward", "tool.call:lookup_ticket", "tool.call:update_ticket"]);
    expect(rows.at(-1)).toEqual({ family: "tool.call:update_ticket", parent: { value: 0 }, candidate: { value: 37 }, delta: 37 });
    expect(rows[0]).toEqual({ family: "llm.call", parent: { value: 0 }, candidate: { value: 0 }, delta: 0 });
    expect(ratios).toEqual({ parent: { fullyCovered: 120, considered: 120, ratio: 1 }, candidate: { fullyCovered: 83, considered: 120, ratio: 83 / 120 } });
    expect(ratioDelta).toBeCloseTo(83 / 120 - 1, 12);
  });

  it("invents no parent figure without a parent receipt", () => {
    const { rows, ratios, ratioDelta } = compareCoverage(B.coverage, null);
    for (const r of rows) expect(r).toMatchObject({ parent: { missing: "no receipt" }, delta: null });
    expect(ratios.parent).toBeNull();
    expect(ratioDelta).toBeNull();
  });

  it("tells a family one side did not declare, and a side with nothing to judge, from zero missing", () => {
    const parent = { ...A.coverage, expectedFamilies: ["llm.call", "exception"], missingByFamily: { "llm.call": 2, exception: 5 } };
    const candidate = { ...B.coverage, status: "unavailable" as const, considered: 0, fullyCovered: 0, ratio: null };
    const { rows, ratios } = compareCoverage(candidate, parent);
    expect(rows.find((r) => r.family === "exception")).toEqual({ family: "exception", parent: { value: 5 }, candidate: { missing: "not declared" }, delta: null });
    expect(rows.find((r) => r.family === "reward")).toEqual({ family: "reward", parent: { missing: "not declared" }, candidate: { missing: "unavailable" }, delta: null });
    expect(rows.find((r) => r.family === "llm.call")!.candidate).toEqual({ missing: "unavailable" });
    expect(ratios.candidate).toBeNull();
  });
});

describe("retry debt, parent beside candidate", () => {
  it("lists attempts by reason used on either side, expected reasons marked, in the order attempts start", () => {
    const rows = compareRetries(B.retryDebt, A.retryDebt);
    expect(rows.map((r) => [r.label, r.expected, r.parent, r.candidate])).toEqual([
      ["first attempt", true, { value: 120 }, { value: 120 }],
      ["planned resample", true, { value: 30 }, { value: 28 }],
      ["retry after failure", false, { value: 0 }, { value: 4 }],
      ["retry after timeout", false, { value: 0 }, { value: 6 }],
      ["retry after unresponsive", false, { value: 0 }, { value: 4 }],
    ]);
    expect(compareRetries(B.retryDebt, null)[0]!.parent).toEqual({ missing: "no receipt" });
  });

  it("flags debt over budget in the fail tone with by how much; within budget passes", () => {
    expect(debtStanding(B.retryDebt)).toEqual({ tone: "fail", text: "over budget by 14", overBy: 14 });
    expect(debtStanding({ ...B.retryDebt, budget: 20 })).toEqual({ tone: "pass", text: "within budget", overBy: 0 });
    expect(debtStanding(A.retryDebt)).toEqual({ tone: "pass", text: "within budget", overBy: 0 });
  });

  it("says why debt is unknown, but over budget stays over budget (unknown reasons only add)", () => {
    const unknown: RetrySide = { status: "unavailable", attempts: 10, byReason: { first: 8, unknown: 2 }, debt: 0, budget: 0 };
    expect(debtStanding(unknown)).toEqual({ tone: "unavailable", text: "unavailable: 2 retries have no recorded reason", overBy: 0 });
    expect(debtStanding({ ...unknown, attempts: 0, byReason: {} }).text).toBe("unavailable: no attempts");
    expect(debtStanding({ ...unknown, debt: 3, budget: 1 })).toMatchObject({ tone: "fail", text: "over budget by 2" });
  });
});
