// The spec's four-candidate table, reproduced from raw evidence by the checks — not from stated verdicts. As
// sealed, nobody has decided yet: check 7 waits for a signed approval everywhere the rollback was tested, and
// only A's verdict lets anyone give one. With a verified signed approval (what the database edge reports for a
// real one — tests/integration/receipts/reference-store.test.ts signs it for real) A is PROMOTE TO BOUNDED
// CANARY, and no approval overrides a failing check.
import { describe, expect, it } from "vitest";
import type { GateReport } from "@/server/gate/gate";
import { NO_SIGNED_DECISIONS } from "@/server/gate/receipt/signed-decisions";
import { REFERENCE_SPECS } from "@/server/gate/reference/raw-evidence";
import { referenceSummary, runReference } from "@/server/gate/reference/four-candidates";
import { APPROVER, judge, notPassing, reference, statusOf } from "./fixtures";

const failing = (r: GateReport) => r.checks.filter((c) => c.status === "fail").map((c) => c.id);

describe("four-candidate reference", () => {
  const results = runReference();
  const byName = Object.fromEntries(results.map((r) => [r.name, r.report]));

  it("before any decision, check 7 waits for a signed approval wherever the rollback was tested", () => {
    for (const name of ["A", "B", "C"]) expect(byName[name]!.checks[6], name).toMatchObject({ status: "unavailable", waitingOn: "approval" });
    expect(byName.D!.checks[6]!.status).toBe("fail");
  });

  it("C (+0.10) fails exactly check 5: three protected cases regressed", () => {
    expect(byName.C!.scoreGain).toBeCloseTo(0.1, 9);
    expect(failing(byName.C!)).toEqual([5]);
    expect(notPassing(byName.C!)).toEqual([5, 7]);
    expect(statusOf(byName.C!, 5)).toBe("fail");
    expect(byName.C!.evidence.protectedCases.totalRegressions).toBe(3);
    expect(byName.C!.verdict).toBe("QUARANTINED");
  });

  it("B (+0.08) fails exactly checks 2 and 3: 83 of 120 covered, 14 unexpected retries", () => {
    expect(byName.B!.scoreGain).toBeCloseTo(0.08, 9);
    expect(failing(byName.B!)).toEqual([2, 3]);
    expect(notPassing(byName.B!)).toEqual([2, 3, 7]);
    expect([statusOf(byName.B!, 2), statusOf(byName.B!, 3)]).toEqual(["fail", "fail"]);
    expect(byName.B!.evidence.coverage).toMatchObject({ considered: 120, fullyCovered: 83 });
    expect(byName.B!.evidence.retryDebt.unexpectedRetries).toBe(14);
    expect(byName.B!.verdict).toBe("QUARANTINED");
  });

  it("D (+0.07) fails exactly checks 1, 6 and 7: unresolvable parent, 18 of 20 canary outcomes verified, no rollback", () => {
    expect(byName.D!.scoreGain).toBeCloseTo(0.07, 9);
    expect(notPassing(byName.D!)).toEqual([1, 6, 7]);
    expect([1, 6, 7].map((id) => statusOf(byName.D!, id as 1 | 6 | 7))).toEqual(["fail", "fail", "fail"]);
    expect(byName.D!.evidence.canary).toMatchObject({ tasks: 20, verified: 18 });
    expect(byName.D!.verdict).toBe("QUARANTINED");
    expect(byName.D!.sentence).toBe("Quarantined: check 1 failed, check 6 failed, check 7 failed.");
  });

  it("A (smaller gain) passes checks 1–6 and is READY FOR APPROVAL; an approval link with no signed decision behind it changes nothing", () => {
    expect(byName.A!.scoreGain).toBeCloseTo(0.04, 9);
    expect(byName.A!.scoreGain!).toBeLessThan(byName.D!.scoreGain!);
    expect(byName.A!.verdict).toBe("READY FOR APPROVAL");
    expect(notPassing(byName.A!)).toEqual([7]);
    const unsigned = judge(reference("A").receipt, { decisions: NO_SIGNED_DECISIONS });
    expect(unsigned.verdict).toBe("READY FOR APPROVAL");
    expect(unsigned.checks[6]!.explanation).toContain(`not counted: ${APPROVER.id}'s approval: no signed decision is stored for it`);
  });

  it("A with a verified signed approval passes all seven checks: PROMOTE TO BOUNDED CANARY, never more", () => {
    const a = judge(reference("A").receipt);
    expect(notPassing(a)).toEqual([]);
    expect(a.verdict).toBe("PROMOTE TO BOUNDED CANARY");
    expect(a.checks[6]!.explanation).toContain("approved the canary step (signed, verified)");
    expect(JSON.stringify(a).toLowerCase()).not.toMatch(/\bsafe\b/);
  });

  it("a verified signed approval overrides no failing check", () => {
    expect(failing(judge(reference("C").receipt))).toEqual([5]);
    expect(notPassing(judge(reference("B").receipt))).toEqual([2, 3]);
    expect(notPassing(judge(reference("D").receipt))).toEqual([1, 6, 7]);
    for (const name of ["B", "C", "D"] as const) expect(judge(reference(name).receipt).verdict).toBe("QUARANTINED");
  });

  it("the biggest reward loses: the only candidate cleared is the one with the smallest gain", () => {
    const cleared = results.filter((r) => r.report.verdict !== "QUARANTINED").map((r) => r.name);
    const biggest = [...results].sort((x, y) => y.report.scoreGain! - x.report.scoreGain!)[0]!.name;
    expect(cleared).toEqual(["A"]);
    expect(biggest).toBe("C");
  });

  it("prints the machine-readable summary the issue specifies", () => {
    const summary = referenceSummary(results);
    expect(summary.candidates.map((c) => [c.name, c.verdict])).toEqual([
      ["C", "QUARANTINED"],
      ["B", "QUARANTINED"],
      ["D", "QUARANTINED"],
      ["A", "READY FOR APPROVAL"],
    ]);
    const a = summary.candidates.find((c) => c.name === "A")!;
    expect(a).toMatchObject({ scoreGain: 0.04, checks: { "1": "pass", "6": "pass", "7": "unavailable" }, evidence: { approvedBy: null } });
    expect(a.parent).toMatch(/^rs-[0-9a-f]{12}$/);
  });

  it("is falsifiable: change one field of D's evidence and exactly the matching check changes", () => {
    const d = reference("D");
    d.receipt.stage3!.resolution.parent = { status: "resolved", digest: d.receipt.stage1.parent.digest };
    d.receipt.stage3!.rollbackTest = { ...d.receipt.stage3!.rollbackTest!, loaded: true, routedBack: true };
    expect(notPassing(judge(d.receipt))).toEqual([6]);
    const a = reference("A");
    a.receipt.stage3!.canary!.outcomes[4]!.sideEffects.push({ kind: "ticket.delete", target: "TCK-A005", harmful: true });
    const report = judge(a.receipt);
    expect(notPassing(report)).toEqual([6]);
    expect(report.checks[5]!.explanation).toContain("harmful side effect");
  });

  it("the fixture differs between candidates only where the table says", () => {
    const specs = Object.values(REFERENCE_SPECS);
    expect(new Set(specs.map((s) => s.rollouts))).toEqual(new Set([120]));
    expect(specs.filter((s) => !s.parentResolvable).map((s) => s.name)).toEqual(["D"]);
  });
});
