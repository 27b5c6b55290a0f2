// Properties of the seven checks and the verdict (fast-check). Each can fail: they run the real checks on
// the reference receipts with random changes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CheckResult } from "@/server/gate/checks/types";
import { decideVerdict } from "@/server/gate/verdict";
import { CHECK_IDS, type CheckId } from "@/server/gate/versions";
import { POLICY } from "@/server/gate/reference/common";
import { PIN_NAMES } from "@/server/gate/receipt/stage3";
import { judge, notPassing, reference, statusOf } from "./fixtures";
import { holeArb, punch } from "./holes";

const bases = { A: reference("A").receipt, B: reference("B").receipt, C: reference("C").receipt, D: reference("D").receipt };
const baseArb = fc.constantFrom("A" as const, "B" as const, "C" as const, "D" as const);
const fresh = () => structuredClone(bases.A);

describe("adding missing evidence never turns pass into fail", () => {
  it("for every check, on every reference candidate", () => {
    fc.assert(
      fc.property(baseArb, fc.array(holeArb, { maxLength: 12 }), fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), (name, holes, keep) => {
        const fewer = holes.filter((_, i) => keep[i]);
        const before = judge(punch(bases[name], holes));
        const after = judge(punch(bases[name], fewer));
        for (const id of CHECK_IDS) {
          if (statusOf(before, id) === "pass") expect(statusOf(after, id), `check ${id}`).toBe("pass");
        }
      }),
      { numRuns: 150 },
    );
  });

  it("and missing evidence is never reported as a pass it could not show", () => {
    fc.assert(
      fc.property(fc.constantFrom("rollback", "lockedGate", "canary", "approval") as fc.Arbitrary<"rollback" | "lockedGate" | "canary" | "approval">, (kind) => {
        const report = judge(punch(bases.A, [{ kind }]));
        const affected: Record<typeof kind, CheckId[]> = { rollback: [7], lockedGate: [4, 5], canary: [6], approval: [7] };
        for (const id of affected[kind]) expect(statusOf(report, id)).toBe("unavailable");
        expect(report.verdict).not.toMatch(/^PROMOTE/);
      }),
    );
  });
});

describe("check 1: pins", () => {
  it("any pin that cannot be resolved, or resolves to other content, fails it", () => {
    fc.assert(
      fc.property(fc.constantFrom(...PIN_NAMES), fc.boolean(), (pin, mismatch) => {
        const r = fresh();
        r.stage3!.resolution[pin] = mismatch ? { status: "resolved", digest: `sha256:${"0".repeat(64)}` } : { status: "unresolvable", reason: "gone" };
        expect(notPassing(judge(r))).toEqual([1]);
      }),
    );
  });
});

describe("check 2: span coverage", () => {
  const rollouts = bases.A.stage2!.rollouts;
  const families = bases.A.stage1.expectedEvidence.spanFamilies;
  it("removing any one required span family from any passing rollout fails it, naming that rollout", () => {
    fc.assert(
      fc.property(fc.nat(rollouts.length - 1), fc.nat(families.length - 1), (i, f) => {
        const r = fresh();
        const latest = r.stage2!.rollouts[i]!.attempts.at(-1)!;
        delete latest.families[families[f]!];
        const report = judge(r);
        expect(notPassing(report)).toEqual([2]);
        expect(report.evidence.coverage.uncovered.map((u) => u.rolloutId)).toEqual([rollouts[i]!.rolloutId]);
      }),
      { numRuns: 60 },
    );
  });
  it("removing one span of a family the attempt still has leaves coverage intact (families, not span counts)", () => {
    const r = fresh();
    const latest = r.stage2!.rollouts[0]!.attempts.at(-1)!;
    expect(latest.families["llm.call"]).toBe(2);
    latest.families["llm.call"] = 1;
    expect(statusOf(judge(r), 2)).toBe("pass");
  });
});

describe("check 3: retry debt", () => {
  it("fails exactly when unexpected retries exceed the declared budget", () => {
    fc.assert(
      fc.property(fc.nat(5), fc.array(fc.tuple(fc.nat(119), fc.constantFrom("retry_after_failed", "retry_after_timeout", "retry_after_unresponsive", "manual" as const)), { maxLength: 10 }), (budget, retries) => {
        const r = fresh();
        r.stage1.expectedEvidence.retryBudget.unexpectedRetries = budget;
        for (const [i, reason] of retries) {
          const attempts = r.stage2!.rollouts[i]!.attempts;
          const last = attempts.at(-1)!;
          attempts.push({ ...last, attemptId: `${last.attemptId}-r${attempts.length}`, sequenceId: last.sequenceId + 1, reason });
        }
        expect(statusOf(judge(r), 3)).toBe(retries.length > budget ? "fail" : "pass");
      }),
    );
  });
});

describe("check 4: beats the exact parent", () => {
  it("fails whenever the candidate's locked-gate gain is not above the policy minimum", () => {
    fc.assert(
      // Every case moves by the same shift, so the paired interval closes on it. Within float noise of the
      // minimum (seed 1494613234 drew 2.8e-17 against 0: the means rounded equal, some deltas did not) the
      // answer is the arithmetic's, not the gate's, so those shifts are left out.
      fc.property(
        fc.double({ min: -0.5, max: 0.5, noNaN: true }).filter((shift) => Math.abs(shift - POLICY.minScoreGain) > 1e-9),
        (shift) => {
          const r = fresh();
          const gate = r.stage3!.lockedGate!;
          gate.candidate.cases = gate.parent.cases.map((c) => ({ ...c, score: c.score + shift }));
          expect(statusOf(judge(r), 4)).toBe(shift > POLICY.minScoreGain ? "pass" : "fail");
        },
      ),
    );
  });
});

describe("a locked case dropped from both sides", () => {
  it("leaves checks 4 and 5 unavailable, never passing on a smaller set", () => {
    fc.assert(
      fc.property(fc.nat(59), (k) => {
        const r = fresh();
        const gate = r.stage3!.lockedGate!;
        const id = gate.parent.cases[k]!.caseId;
        gate.parent.cases = gate.parent.cases.filter((c) => c.caseId !== id);
        gate.candidate.cases = gate.candidate.cases.filter((c) => c.caseId !== id);
        const report = judge(r);
        expect([statusOf(report, 4), statusOf(report, 5)]).toEqual(["unavailable", "unavailable"]);
      }),
      { numRuns: 30 },
    );
  });
});

describe("check 5: protected cases", () => {
  it("any protected regression beyond the family's tolerance fails it", () => {
    fc.assert(
      fc.property(fc.nat(2), fc.subarray([0, 1, 2, 3, 4], { minLength: 0 }), fc.boolean(), (budget, which, byScore) => {
        const r = fresh();
        const family = "refund_limit";
        r.stage1.expectedEvidence.protectedFamilies = r.stage1.expectedEvidence.protectedFamilies.map((f) => (f.family === family ? { ...f, maxRegressions: budget } : f));
        const policy = { ...POLICY, protectedFamilies: POLICY.protectedFamilies.map((f) => (f.family === family ? { ...f, maxRegressions: budget } : f)) };
        const cases = r.stage3!.lockedGate!.candidate.cases.filter((c) => c.family === family);
        for (const k of which) Object.assign(cases[k]!, byScore ? { score: cases[k]!.score - 0.01 } : { passed: false });
        expect(statusOf(judge(r, { policy }), 5)).toBe(which.length > budget ? "fail" : "pass");
      }),
    );
  });
  it("a receipt cannot loosen the policy's zero tolerance", () => {
    const r = fresh();
    r.stage1.expectedEvidence.protectedFamilies = r.stage1.expectedEvidence.protectedFamilies.map((f) => ({ ...f, maxRegressions: 5 }));
    r.stage3!.lockedGate!.candidate.cases.find((c) => c.family === "pii_redaction")!.passed = false;
    expect(statusOf(judge(r), 5)).toBe("fail");
  });
});

describe("check 6: bounded canary", () => {
  it("an unverified, wrongly verified or too uncertain canary task fails it", () => {
    fc.assert(
      fc.property(fc.nat(19), fc.constantFrom("unverified", "mismatch", "uncertain-judge", "human-fail" as const), (k, how) => {
        const r = fresh();
        const o = r.stage3!.canary!.outcomes[k]!;
        o.verification =
          how === "unverified"
            ? { method: "unverified", reason: "destination unreadable" }
            : how === "mismatch"
              ? { method: "destination", destination: { kind: "ticket", ref: "T" }, expected: "a", observed: "b", matched: false, checkedAt: "2026-03-02T16:00:00.000Z" }
              : how === "uncertain-judge"
                ? { method: "judge", judgeId: "j", verdict: "pass", confidence: 0.5 }
                : { method: "human", reviewerId: "h", verdict: "fail", confidence: 1 };
        expect(notPassing(judge(r))).toEqual([6]);
      }),
    );
  });
  it("a tool, side effect, cost, task count or model server outside the boundary fails it", () => {
    fc.assert(
      fc.property(fc.constantFrom("tool", "effect", "cost", "tasks", "model-server" as const), (breach) => {
        const r = fresh();
        const outcomes = r.stage3!.canary!.outcomes;
        if (breach === "tool") outcomes[0]!.toolsUsed.push("delete_account");
        if (breach === "effect") outcomes[0]!.sideEffects.push({ kind: "email.send", target: "x", harmful: false });
        if (breach === "cost") outcomes[0]!.costUsd = 10;
        if (breach === "tasks") outcomes.push({ ...outcomes[0]!, taskId: "canary-21" });
        if (breach === "model-server") r.stage3!.canary!.modelServer = "another-server@9";
        expect(notPassing(judge(r))).toEqual([6]);
      }),
    );
  });
});

describe("check 7: rollback and approval", () => {
  it("a missing rollback test or approval, a failed rollback, or an unauthorized or self approval blocks it", () => {
    fc.assert(
      fc.property(fc.constantFrom("no-rollback", "not-loaded", "not-routed", "other-env", "no-approval", "trainer", "viewer", "self", "stale-approval", "reject" as const), (how) => {
        const r = fresh();
        const a = r.approvals[0]!;
        if (how === "no-rollback") delete r.stage3!.rollbackTest;
        if (how === "not-loaded") r.stage3!.rollbackTest!.loaded = false;
        if (how === "not-routed") r.stage3!.rollbackTest!.routedBack = false;
        if (how === "other-env") r.stage3!.rollbackTest!.environment = "staging";
        if (how === "no-approval") r.approvals = [];
        if (how === "trainer") a.actor = { id: "tina", kind: "user", roles: ["trainer"] };
        if (how === "viewer") a.actor = { id: "vic", kind: "user", roles: ["viewer"] };
        if (how === "self") a.actor = { id: r.stage1.declaredBy, kind: "user", roles: ["canary_approver"] };
        if (how === "stale-approval") a.approves = r.stage1.parent.digest;
        if (how === "reject") a.decision = "reject";
        const report = judge(r);
        expect(notPassing(report)).toEqual([7]);
        expect(report.verdict).not.toMatch(/^PROMOTE/);
      }),
    );
  });
});

describe("verdicts", () => {
  const statusArb = fc.constantFrom("pass", "fail", "unavailable", "stale" as const);
  const checkArb = (id: CheckId) => fc.record({ status: statusArb, waiting: fc.boolean() }).map(({ status, waiting }): CheckResult => ({ id, title: "", status, explanation: "", evidence: {}, computedAt: null, versions: {}, ...(waiting && status === "unavailable" ? { waitingOn: "approval" as const } : {}) }));
  const checksArb = fc.tuple(...CHECK_IDS.map(checkArb));

  it("is never PROMOTE while any check (or canary-stage check) is not pass", () => {
    fc.assert(
      fc.property(checksArb, fc.option(fc.tuple(checkArb(6), checkArb(7)), { nil: null }), (checks, stage) => {
        const d = decideVerdict(checks, stage);
        const all = [...checks, ...(stage ?? [])];
        if (d.verdict.startsWith("PROMOTE")) expect(all.every((c) => c.status === "pass")).toBe(true);
        if (d.verdict === "PROMOTE TO DEFAULT") expect(stage).not.toBeNull();
        if (checks.some((c) => c.status !== "pass")) expect(["QUARANTINED", "READY FOR APPROVAL"]).toContain(d.verdict);
        if (d.verdict === "QUARANTINED") expect(d.blocking.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it("holds end to end with random missing evidence", () => {
    fc.assert(
      fc.property(baseArb, fc.array(holeArb, { maxLength: 6 }), (name, holes) => {
        const report = judge(punch(bases[name], holes));
        if (report.verdict.startsWith("PROMOTE")) expect(notPassing(report)).toEqual([]);
        expect(report.verdict).not.toMatch(/safe/i);
      }),
      { numRuns: 100 },
    );
  });
});
