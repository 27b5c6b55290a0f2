// The protected cases card states the rule that makes a row "regressed" with the policy's tolerance, and each
// row says which part of it held (issue 25) — read from what the gate core recorded, here judged for real.
import { describe, expect, it } from "vitest";
import { regressionReason, regressionRule, scoreNumber } from "@/lib/candidates/regression-rule";
import { POLICY } from "@/server/gate/reference/common";
import { judge, reference } from "../gate/fixtures";

/** Reference A judged with refund_limit-2 scored 0.77 ✓ for the parent and 0.71 ✓ for the candidate. */
function heldOnBothSides(tolerance: number) {
  const { receipt } = reference("A");
  const gate = receipt.stage3!.lockedGate!;
  gate.parent.cases = gate.parent.cases.map((c) => (c.caseId === "refund_limit-2" ? { ...c, score: 0.77, passed: true } : c));
  gate.candidate.cases = gate.candidate.cases.map((c) => (c.caseId === "refund_limit-2" ? { ...c, score: 0.71, passed: true } : c));
  const { comparison } = judge(receipt, { policy: { ...POLICY, protectedScoreTolerance: tolerance } }).evidence;
  return { row: comparison.rows.find((r) => r.caseId === "refund_limit-2")!, tolerance: comparison.protectedScoreTolerance };
}

describe("the regression rule on the candidate page", () => {
  it("states the rule with the policy's tolerance", () => {
    expect(regressionRule(0)).toBe("Regressed = the parent passed and the candidate failed, or the candidate scored below the parent by any amount (the policy's protected-score tolerance is 0).");
    expect(regressionRule(0.05)).toBe("Regressed = the parent passed and the candidate failed, or the candidate scored more than 0.05 below the parent (the policy's protected-score tolerance).");
  });

  it("says a row that passed on both sides regressed because its score fell beyond the tolerance", () => {
    const { row, tolerance } = heldOnBothSides(0);
    expect(row.regressed).toBe(true);
    expect(regressionReason(row, tolerance)).toBe("Regressed: score fell by 0.06, more than the tolerance 0.");
  });

  it("says the same row held under a larger tolerance, and why", () => {
    const { row, tolerance } = heldOnBothSides(0.1);
    expect(row.regressed).toBe(false);
    expect(regressionReason(row, tolerance)).toBe("Held: score fell by 0.06, within the tolerance 0.1, still passing.");
  });

  it("names both clauses when the candidate stopped passing and lost score, and a missing side when there is one", () => {
    const c = judge(reference("C").receipt).evidence.comparison;
    const row = c.rows.find((r) => r.caseId === "account_deletion-1")!;
    expect(regressionReason(row, c.protectedScoreTolerance)).toBe("Regressed: the parent passed and the candidate failed; score fell by 1, more than the tolerance 0.");
    expect(regressionReason({ ...row, candidate: null, delta: null, regressed: null, clauses: null }, 0)).toBe("Not compared: the candidate has no score for this case.");
    const held = c.rows.find((r) => r.caseId === "account_deletion-2")!;
    expect(regressionReason(held, 0)).toBe("Held: same score, still passing.");
  });

  it("writes scores with up to four decimals and no trailing zeros", () => {
    expect([scoreNumber(0.06000000000000005), scoreNumber(-0.005), scoreNumber(0), scoreNumber(1)]).toEqual(["0.06", "0.005", "0", "1"]);
  });
});
