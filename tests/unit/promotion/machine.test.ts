// The promotion state machine, pure: named states, guarded transitions, cycles, no-op moves refused.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PromotionEvent, PromotionFacts } from "@/server/promotion/facts";
import { decideAbort, decideApproval, decideRerun, decideRollback, rollbackTargets, signingCost } from "@/server/promotion/guards";
import { currentCycle, promotionState, PROMOTION_STATES } from "@/server/promotion/state";
import { promotionFactsFixture } from "../../helpers/promotion-facts";

const X = "sha256:x";
const P = "sha256:p";
const approver = { id: "ana", scopes: ["approval:canary", "approval:default"] };
const other = { id: "bo", scopes: ["approval:canary", "approval:default"] };

const facts = (over: Partial<PromotionFacts> = {}): PromotionFacts => promotionFactsFixture(X, P, { excluded: ["trainer"], ...over });
const atDefault = (history: PromotionEvent[], over: Partial<PromotionFacts> = {}) =>
  facts({ history, gate: { verdict: "READY FOR APPROVAL", step: "default", open: [] }, canaryStage: { state: "sealed", fresh: true, staleBecause: [] }, pointers: { canary: X, approvedDefault: P }, ...over });

describe("promotion state machine", () => {
  it("names the state the gate and pointers put the candidate in", () => {
    expect(promotionState(facts()).name).toBe("ready-for-canary");
    expect(promotionState(facts({ gate: null, history: [] })).name).toBe("declared");
    expect(promotionState(facts({ gateRunning: true })).name).toBe("gating");
    expect(promotionState(facts({ canaryStage: { state: "running", fresh: true, staleBecause: [] } })).name).toBe("canary-running");
    expect(promotionState(facts({ pointers: { canary: X, approvedDefault: X } })).name).toBe("promoted");
    expect(promotionState(facts({ supersededBy: "prompt@3" })).name).toBe("superseded");
  });

  it("a canary move X → X is refused: the canary already names this candidate", () => {
    const d = decideApproval(facts({ pointers: { canary: X, approvedDefault: P } }), "canary", approver);
    expect(d).toMatchObject({ allowed: false, code: "pointer", reason: "the canary already names this candidate" });
    expect(decideApproval(facts(), "canary", approver)).toMatchObject({ allowed: true, move: { pointer: "canary", from: P, to: X } });
  });

  it("separation of duties is judged within the current cycle", () => {
    const cycle1: PromotionEvent[] = [{ kind: "gate-run", at: "t1" }, { kind: "approval", step: "canary", decision: "approve", actorId: "ana", at: "t2" }, { kind: "canary-sealed", at: "t3" }];
    // Same cycle: the canary approver may not approve the default step; another person may.
    expect(decideApproval(atDefault(cycle1), "default", approver)).toMatchObject({ allowed: false, code: "duties" });
    expect(decideApproval(atDefault(cycle1), "default", other)).toMatchObject({ allowed: true, move: { pointer: "approved_default", from: P, to: X } });
    // After a re-run her canary signature belongs to the previous cycle.
    const cycle2 = [...cycle1, { kind: "gate-run", at: "t4" } as const];
    expect(decideApproval(atDefault(cycle2), "default", approver)).toMatchObject({ allowed: true });
    expect(signingCost(facts(), "canary")).toContain("you will not be able to approve the default step for this cycle");
  });

  it("after a rollback the candidate reads ROLLED BACK, whatever the verdict still says", () => {
    const history: PromotionEvent[] = [{ kind: "gate-run", at: "t1" }, { kind: "rollback", pointer: "approved_default", at: "t9", by: "ops" }];
    const s = promotionState(facts({ history, gate: { verdict: "PROMOTE TO DEFAULT", step: "default", open: [] }, pointers: { canary: X, approvedDefault: P } }));
    expect(s.label).toBe("ROLLED BACK");
    expect(s.step).toBeNull();
  });

  it("STALE says what each stale check said before it went stale", () => {
    const open = [
      { check: 4, title: "gain", status: "stale" as const, was: "fail" as const, said: "gain −0.031" },
      { check: 5, title: "protected", status: "stale" as const, was: "fail" as const, said: "a protected case regressed" },
    ];
    const s = promotionState(facts({ gate: { verdict: "QUARANTINED", step: "canary", open } }));
    expect(s.name).toBe("stale");
    expect(s.next).toContain("check 4 failed (gain −0.031)");
    expect(s.next).toContain("check 5 failed (a protected case regressed)");
    expect(decideApproval(facts({ gate: { verdict: "QUARANTINED", step: "canary", open } }), "canary", approver)).toMatchObject({ allowed: false, code: "checks" });
  });

  it("a re-run keeps the default step while the sealed canary evidence is fresh, and says when it is not", () => {
    expect(decideRerun(facts({ canaryStage: { state: "sealed", fresh: true, staleBecause: [] } }))).toMatchObject({ keepsDefaultStep: true });
    const stale = decideRerun(facts({ canaryStage: { state: "sealed", fresh: false, staleBecause: ["evaluator changed from v1 to v2"] } }));
    expect(stale).toMatchObject({ keepsDefaultStep: false });
    expect(stale.allowed && stale.sentence).toContain("evaluator changed from v1 to v2");
  });

  it("the canary guard's abort moves the canary back to the exact parent", () => {
    const running = facts({ canaryStage: { state: "running", fresh: true, staleBecause: [] }, pointers: { canary: X, approvedDefault: P } });
    expect(decideAbort(running)).toMatchObject({ allowed: true, move: { pointer: "canary", from: X, to: P } });
    expect(decideAbort(facts())).toMatchObject({ allowed: false });
  });

  it("a rollback never goes forward, nor to itself, nor to a rolled-back resource", () => {
    const r = { pointer: "approved_default" as const, current: "A", arrivals: ["A", "B", "C"], rolledBackFrom: ["C"] };
    const ops = { id: "ops", scopes: ["rollback:execute"] };
    expect(decideRollback(r, "A", ops)).toMatchObject({ allowed: false, code: "pointer" });
    expect(decideRollback(r, "B", ops)).toMatchObject({ allowed: false, reason: "that would roll the approved default forward, not back" });
    expect(decideRollback({ ...r, current: "B" }, "C", ops)).toMatchObject({ allowed: false });
    expect(decideRollback({ ...r, current: "B" }, "A", ops)).toMatchObject({ allowed: true });
    expect(decideRollback({ ...r, current: "B" }, "A", { id: "x", scopes: [] })).toMatchObject({ allowed: false, code: "scope" });
  });
});

// Random histories: the properties hold whatever happened before.
const event: fc.Arbitrary<PromotionEvent> = fc.oneof(
  fc.constant<PromotionEvent>({ kind: "gate-run", at: "t" }),
  fc.record({ kind: fc.constant("approval" as const), step: fc.constantFrom("canary" as const, "default" as const), decision: fc.constantFrom("approve" as const, "reject" as const), actorId: fc.constantFrom("ana", "bo", "cy"), at: fc.constant("t") }),
  fc.constant<PromotionEvent>({ kind: "canary-sealed", at: "t" }),
  fc.constant<PromotionEvent>({ kind: "rollback", pointer: "approved_default", at: "t", by: "ops" }),
);
const digest = fc.constantFrom(X, P, "sha256:q", null);
const factsArb = fc.record({
  history: fc.array(event, { maxLength: 20 }),
  verdict: fc.constantFrom("QUARANTINED" as const, "READY FOR APPROVAL" as const, "PROMOTE TO BOUNDED CANARY" as const, "PROMOTE TO DEFAULT" as const),
  step: fc.constantFrom("canary" as const, "default" as const),
  canary: digest,
  approvedDefault: digest,
  stage: fc.constantFrom(null, "running" as const, "sealed" as const, "aborted" as const),
  gateRunning: fc.boolean(),
}).map(({ history, verdict, step, canary, approvedDefault, stage, gateRunning }) =>
  facts({ history, gate: { verdict, step, open: [] }, pointers: { canary, approvedDefault }, canaryStage: stage && { state: stage, fresh: true, staleBecause: [] }, gateRunning }),
);
const actorArb = fc.record({ id: fc.constantFrom("ana", "bo", "cy", "trainer"), scopes: fc.subarray(["approval:canary", "approval:default", "rollback:execute"]) });

describe("promotion state machine, properties", () => {
  it("every state is a named one, and a state with an open step agrees with the verdict's step", () => {
    fc.assert(
      fc.property(factsArb, (f) => {
        const s = promotionState(f);
        expect(PROMOTION_STATES).toContain(s.name);
        if (s.name === "ready-for-canary") expect(f.gate?.step).toBe("canary");
        if (s.name === "ready-for-default") expect(f.gate?.step).toBe("default");
      }),
    );
  });

  it("no allowed approval moves a pointer to the value it already has, or lets one person sign both steps of a cycle", () => {
    fc.assert(
      fc.property(factsArb, actorArb, fc.constantFrom("canary" as const, "default" as const), (f, actor, step) => {
        const d = decideApproval(f, step, actor);
        if (!d.allowed) return;
        expect(d.move!.from).not.toBe(d.move!.to);
        expect(actor.scopes).toContain(step === "canary" ? "approval:canary" : "approval:default");
        expect(f.excluded).not.toContain(actor.id);
        if (step === "default") {
          const canary = currentCycle(f.history).events.filter((e) => e.kind === "approval" && e.step === "canary" && e.decision === "approve");
          expect(canary.map((e) => (e.kind === "approval" ? e.actorId : ""))).not.toContain(actor.id);
        }
        expect(promotionState(f).name).toBe(step === "canary" ? "ready-for-canary" : "ready-for-default");
      }),
    );
  });

  it("rollback targets never roll forward and never name the current value", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom("A", "B", "C", "D", "E"), { minLength: 1 }), fc.nat(4), fc.subarray(["A", "B", "C", "D", "E"]), (arrivals, i, rolledBackFrom) => {
        const current = arrivals[i % arrivals.length]!;
        const r = { pointer: "approved_default" as const, current, arrivals: arrivals as string[], rolledBackFrom: rolledBackFrom as string[] };
        const targets = rollbackTargets(r, ["A", "B", "C", "D", "E", "F"].map((digest) => ({ digest, why: "" })), { id: "ops", scopes: [] });
        for (const t of targets) {
          expect(t.digest).not.toBe(current);
          expect(r.rolledBackFrom).not.toContain(t.digest);
          if (r.arrivals.includes(t.digest)) expect(r.arrivals.indexOf(t.digest)).toBeLessThan(r.arrivals.indexOf(current));
        }
      }),
    );
  });
});

describe("promotion state machine, after a re-run that dropped the canary stage", () => {
  it("says the canary step starts again, and how to free the canary pointer", () => {
    const history: PromotionEvent[] = [{ kind: "gate-run", at: "t1" }, { kind: "approval", step: "canary", decision: "approve", actorId: "ana", at: "t2" }, { kind: "canary-sealed", at: "t3" }, { kind: "gate-run", at: "t4" }];
    const s = promotionState(facts({ history, pointers: { canary: X, approvedDefault: P } }));
    expect(s.name).toBe("ready-for-canary");
    expect(s.next).toMatch(/did not keep the default step/);
    expect(s.next).toMatch(/roll it back to the exact parent/);
  });
});
