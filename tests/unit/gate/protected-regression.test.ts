// Check 5's rule, case by case: a protected case regresses when the parent passed and the candidate failed,
// or when the candidate scored more than the policy's protected-score tolerance below the parent. The
// comparison records which clause held and the tolerance it applied, for the candidate page to say why.
import { describe, expect, it } from "vitest";
import { POLICY } from "@/server/gate/reference/common";
import { judge, reference } from "./fixtures";

/** Reference A with one protected case scored `parent` → `candidate` (both sides passing or not as given). */
function withCase(parent: { score: number; passed: boolean }, candidate: { score: number; passed: boolean }) {
  const { receipt } = reference("A");
  const gate = receipt.stage3!.lockedGate!;
  gate.parent.cases = gate.parent.cases.map((c) => (c.caseId === "refund_limit-2" ? { ...c, ...parent } : c));
  gate.candidate.cases = gate.candidate.cases.map((c) => (c.caseId === "refund_limit-2" ? { ...c, ...candidate } : c));
  return receipt;
}
const rowOf = (report: ReturnType<typeof judge>) => report.evidence.comparison.rows.find((r) => r.caseId === "refund_limit-2")!;

describe("protected-case regressions", () => {
  it("a case that passes on both sides but lost score regresses under a zero tolerance, and says it was the drop", () => {
    const report = judge(withCase({ score: 0.77, passed: true }, { score: 0.71, passed: true }));
    expect(report.evidence.comparison.protectedScoreTolerance).toBe(0);
    expect(rowOf(report)).toMatchObject({ regressed: true, clauses: { stoppedPassing: false, droppedBeyondTolerance: true } });
    expect(report.checks[4]!.status).toBe("fail");
  });

  it("the same drop holds under a tolerance larger than it, and the comparison carries that tolerance", () => {
    const report = judge(withCase({ score: 0.77, passed: true }, { score: 0.71, passed: true }), { policy: { ...POLICY, protectedScoreTolerance: 0.1 } });
    expect(report.evidence.comparison.protectedScoreTolerance).toBe(0.1);
    expect(rowOf(report)).toMatchObject({ regressed: false, clauses: { stoppedPassing: false, droppedBeyondTolerance: false } });
    expect(report.checks[4]!.status).toBe("pass");
  });

  it("stopping passing regresses whatever the tolerance; both clauses are recorded when both hold", () => {
    const tolerant = { policy: { ...POLICY, protectedScoreTolerance: 0.5 } };
    expect(rowOf(judge(withCase({ score: 0.6, passed: true }, { score: 0.58, passed: false }), tolerant))).toMatchObject({ regressed: true, clauses: { stoppedPassing: true, droppedBeyondTolerance: false } });
    const c = judge(reference("C").receipt).evidence.comparison.rows.find((r) => r.caseId === "account_deletion-1")!;
    expect(c).toMatchObject({ regressed: true, clauses: { stoppedPassing: true, droppedBeyondTolerance: true } });
  });

  it("a case missing on one side is neither regressed nor held, with no clause", () => {
    const { receipt } = reference("A");
    receipt.stage3!.lockedGate!.candidate.cases = receipt.stage3!.lockedGate!.candidate.cases.filter((c) => c.caseId !== "refund_limit-2");
    expect(rowOf(judge(receipt))).toMatchObject({ regressed: null, clauses: null, candidate: null });
  });
});
