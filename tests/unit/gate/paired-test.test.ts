// Check 4 is a paired comparison: per-case deltas candidate − exact parent on the locked set, and a 95 %
// paired t interval of their mean. A raw mean above the parent's is not enough when the cases' own
// spread could explain it; the evidence carries the interval, the method and n.
import { describe, expect, it } from "vitest";
import { pairedInterval, PAIRED_TEST } from "@/server/gate/evidence/paired-interval";
import { POLICY } from "@/server/gate/reference/common";
import { judge, reference, statusOf } from "./fixtures";

type PairedFacts = { n: number; method: string; confidence: number; interval: [number, number]; meanDelta: number; se: number; df: number };
const pairedOf = (report: ReturnType<typeof judge>) => report.checks[3]!.evidence.pairedTest as PairedFacts | null;

/** Candidate A with its general cases re-scored around the parent: +0.30 and −0.28 in turn (mean gain ≈ +0.012). */
function noisyA() {
  const a = reference("A");
  const parent = new Map(a.receipt.stage3!.lockedGate!.parent.cases.map((c) => [c.caseId, c.score]));
  let k = 0;
  for (const c of a.receipt.stage3!.lockedGate!.candidate.cases) {
    if (["billing", "shipping", "account"].includes(c.family)) c.score = parent.get(c.caseId)! + (k++ % 2 === 0 ? 0.3 : -0.28);
  }
  return a;
}

describe("check 4: paired comparison with an interval", () => {
  it("a candidate whose mean beats its parent only on noise fails check 4, naming the interval and n", () => {
    const report = judge(noisyA().receipt);
    expect(report.scoreGain!).toBeGreaterThan(0); // two raw means would call this a win
    const check = report.checks[3]!;
    expect(check.status).toBe("fail");
    const paired = pairedOf(report)!;
    expect(paired.n).toBe(60);
    expect(paired.interval[0]).toBeLessThanOrEqual(POLICY.minScoreGain);
    expect(paired.interval[1]).toBeGreaterThan(0);
    expect(paired.meanDelta).toBeCloseTo(report.scoreGain!, 12);
    expect(check.explanation).toMatch(/95 % paired t interval −0\.\d{3} to \+0\.\d{3}, n = 60 locked cases/);
    expect(report.verdict).toBe("QUARANTINED");
  });

  it("the reference candidates keep their verdicts on check 4: every one beats its parent beyond noise", () => {
    for (const name of ["A", "B", "C", "D"] as const) {
      const report = judge(reference(name).receipt);
      expect(statusOf(report, 4), name).toBe("pass");
      const paired = pairedOf(report)!;
      expect(paired).toMatchObject({ n: 60, method: PAIRED_TEST.method, confidence: 0.95, df: 59 });
      expect(paired.interval[0], name).toBeGreaterThan(POLICY.minScoreGain);
      expect(paired.interval[0]).toBeLessThanOrEqual(paired.meanDelta);
      expect(paired.interval[1]).toBeGreaterThanOrEqual(paired.meanDelta);
    }
    expect(judge(reference("A").receipt).checks[3]!.explanation).toMatch(/mean per-case gain \+0\.040 \(95 % paired t interval \+0\.0\d\d to \+0\.0\d\d, n = 60 locked cases\)/);
  });

  it("the lower bound is what the policy minimum is compared with, not the mean", () => {
    const { receipt } = reference("A");
    const paired = pairedOf(judge(receipt))!;
    const between = (paired.interval[0] + paired.meanDelta) / 2; // above the lower bound, below the mean gain
    const report = judge(receipt, { policy: { ...POLICY, minScoreGain: between } });
    expect(report.scoreGain!).toBeGreaterThan(between);
    expect(statusOf(report, 4)).toBe("fail");
    expect(statusOf(judge(receipt, { policy: { ...POLICY, minScoreGain: paired.interval[0] / 2 } }), 4)).toBe("pass");
  });

  it("is the textbook t interval of the paired deltas, and a point when they do not vary", () => {
    // mean 0.1, variance 0.005 over 5 cases: 0.1 ± t(0.975, 4) · √(0.005 / 5), t(0.975, 4) = 2.7764451.
    const p = pairedInterval([0, 0.1, 0.2, 0.1, 0.1])!;
    expect(p.se).toBeCloseTo(Math.sqrt(0.005 / 5), 12);
    expect(p.lower).toBeCloseTo(0.1 - 2.7764451 * Math.sqrt(0.005 / 5), 6);
    expect(p.upper).toBeCloseTo(0.1 + 2.7764451 * Math.sqrt(0.005 / 5), 6);
    const flat = pairedInterval(Array.from({ length: 30 }, () => 0.05))!;
    expect(flat.lower).toBeCloseTo(0.05, 12);
    expect(flat.upper).toBeCloseTo(0.05, 12);
    expect(pairedInterval([])).toBeNull();
    expect(pairedInterval([0.3])).toBeNull();
  });

  it("widens with the spread of the deltas and narrows with more cases", () => {
    const alternating = (n: number, spread: number) => Array.from({ length: n }, (_, i) => 0.05 + (i % 2 ? spread : -spread));
    const width = (xs: number[]) => {
      const p = pairedInterval(xs)!;
      return p.upper - p.lower;
    };
    expect(width(alternating(60, 0.2))).toBeGreaterThan(width(alternating(60, 0.05)));
    expect(width(alternating(600, 0.2))).toBeLessThan(width(alternating(60, 0.2)));
  });
});
