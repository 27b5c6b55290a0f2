// The promotion timeline, pure: hand-built facts → the machine's state → steps. The current step is the one the
// machine's state names; re-runs, rollbacks and aborts open cycles of their own; STALE says what was said.
import { describe, expect, it } from "vitest";
import type { CheckSaid, PromotionEvent, PromotionFacts } from "@/server/promotion/facts";
import { promotionState, type PromotionStateName } from "@/server/promotion/state";
import { promotionFactsFixture } from "../../helpers/promotion-facts";
import { buildTimeline, type TimelineFact, type TimelineInput } from "@/server/promotion/timeline";
import type { VersionSet } from "@/server/gate/versions";

const X = "sha256:" + "a".repeat(64);
const P = "sha256:" + "b".repeat(64);
const versions = (evaluatorVersion = "1"): VersionSet => ({
  evaluator: `desk-exam@${evaluatorVersion}#sha256:${"c".repeat(64)}`,
  toolContracts: { search_kb: `sha256:${"d".repeat(64)}` },
  taskDistribution: "v2",
  parent: P,
  retryPolicy: `sha256:${"e".repeat(64)}`,
  permissions: [],
  destinations: [],
  modelServer: "local@1",
});

const declared: TimelineFact = { kind: "declared", by: "Dana Trainer", at: "2025-01-01T00:00:00.000Z" };
const run = (at: string, evaluatorVersion = "1", carriesCanaryStage = false): TimelineFact => ({ kind: "gate-run", at, runId: `run-${at}`, produced: { versions: versions(evaluatorVersion), parent: { resourceId: "desk-policy", version: 1 } }, carriesCanaryStage });
const approve = (step: "canary" | "default", by: string, at: string): TimelineFact => ({ kind: "approval", step, decision: "approve", by, at });
const sealed = (at: string): TimelineFact => ({ kind: "canary-stage", at, outcome: "sealed", produced: { versions: versions(), parent: { resourceId: "desk-policy", version: 1 } } });

/** The machine's history from the same facts (what promotion-facts.ts reads from the chain and the decisions). */
function history(facts: readonly TimelineFact[]): PromotionEvent[] {
  return facts.flatMap((f): PromotionEvent[] => {
    if (f.kind === "gate-run") return [{ kind: "gate-run", at: f.at }];
    if (f.kind === "approval") return [{ kind: "approval", step: f.step, decision: f.decision, actorId: f.by, at: f.at }];
    if (f.kind === "canary-stage") return [f.outcome === "sealed" ? { kind: "canary-sealed", at: f.at } : { kind: "canary-aborted", at: f.at, reason: f.reason ?? "" }];
    if (f.kind === "rollback") return [{ kind: "rollback", pointer: f.pointer, at: f.at, by: f.by }];
    return [];
  });
}

function machine(facts: readonly TimelineFact[], over: Partial<PromotionFacts> = {}): PromotionFacts {
  return promotionFactsFixture(X, P, { candidate: { id: "cand_1", digest: X, resourceId: "desk-policy@2", parentDigest: P }, history: history(facts), ...over });
}

function timeline(facts: TimelineFact[], over: Partial<PromotionFacts> = {}, extra: Partial<TimelineInput> = {}) {
  const f = machine(facts, over);
  const state = promotionState(f);
  return { state, t: buildTimeline({ candidateId: "cand_1", state, facts: [declared, ...facts], open: f.gate?.open ?? [], ...extra }) };
}

const currentOf = (t: ReturnType<typeof buildTimeline>) => t.cycles.flatMap((c) => c.steps).filter((s) => s.status === "current");

const T = (n: number) => `2025-01-0${n}T00:00:00.000Z`;
const stale4: CheckSaid = { check: 4, title: "Beats the parent on the locked gate", status: "stale", was: "pass", said: "gain +0.210, lower bound +0.120", staleBecause: ["the evaluator changed: desk-exam 1 → 1.1"] };

describe("promotion timeline", () => {
  const cases: [string, TimelineFact[], Partial<PromotionFacts>, PromotionStateName, string][] = [
    ["declared", [], { gate: null }, "declared", "declared"],
    ["gating", [], { gate: null, gateRunning: true }, "gating", "gate-run"],
    ["quarantined", [run(T(2))], { gate: { verdict: "QUARANTINED", step: "canary", open: [{ check: 4, title: "Beats the parent", status: "fail" }] } }, "quarantined", "gate-run"],
    ["ready-for-canary", [run(T(2))], {}, "ready-for-canary", "canary-approval"],
    ["canary-approved", [run(T(2)), approve("canary", "Carl", T(3))], { gate: { verdict: "PROMOTE TO BOUNDED CANARY", step: "canary", open: [] }, pointers: { canary: X, approvedDefault: P } }, "canary-approved", "canary-stage"],
    ["canary-running", [run(T(2)), approve("canary", "Carl", T(3))], { canaryStage: { state: "running", fresh: true, staleBecause: [] }, pointers: { canary: X, approvedDefault: P } }, "canary-running", "canary-stage"],
    ["ready-for-default", [run(T(2)), approve("canary", "Carl", T(3)), sealed(T(4))], { gate: { verdict: "READY FOR APPROVAL", step: "default", open: [] }, canaryStage: { state: "sealed", fresh: true, staleBecause: [] }, pointers: { canary: X, approvedDefault: P } }, "ready-for-default", "default-approval"],
    ["promoted", [run(T(2)), approve("canary", "Carl", T(3)), sealed(T(4)), approve("default", "Rosa", T(5))], { gate: { verdict: "PROMOTE TO DEFAULT", step: "default", open: [] }, canaryStage: { state: "sealed", fresh: true, staleBecause: [] }, pointers: { canary: X, approvedDefault: X } }, "promoted", "promoted"],
    ["superseded", [run(T(2))], { supersededBy: "sha256:later" }, "superseded", "superseded"],
  ];
  it.each(cases)("%s: the current step is the one the machine's state names", (_name, facts, over, state, kind) => {
    const { state: s, t } = timeline(facts, over);
    expect(s.name).toBe(state);
    expect(t.state).toBe(state);
    expect(currentOf(t)).toHaveLength(1);
    expect(t.current).toMatchObject({ kind, status: "current" });
    expect(t.current!.sentence.endsWith(s.next)).toBe(true);
    // Pending steps come only after the current one, in the latest cycle.
    const steps = t.cycles.at(-1)!.steps;
    const at = steps.findIndex((x) => x.status === "current");
    expect(steps.slice(0, at).some((x) => x.status === "pending")).toBe(false);
  });

  it("promoted: who signed each step, when, and what the gate run was judged with", () => {
    const { t } = timeline([run(T(2)), approve("canary", "Carl", T(3)), sealed(T(4)), approve("default", "Rosa", T(5))], { gate: { verdict: "PROMOTE TO DEFAULT", step: "default", open: [] }, canaryStage: { state: "sealed", fresh: true, staleBecause: [] }, pointers: { canary: X, approvedDefault: X } });
    const steps = t.cycles[0]!.steps;
    expect(steps.map((s) => [s.kind, s.status, s.who])).toEqual([
      ["declared", "done", "Dana Trainer"],
      ["gate-run", "done", null],
      ["canary-approval", "done", "Carl"],
      ["canary-stage", "done", null],
      ["default-approval", "done", "Rosa"],
      ["promoted", "current", "Rosa"],
    ]);
    expect(steps[1]!.judgedWith.find((j) => j.name === "evaluator")).toEqual({ name: "evaluator", value: "desk-exam v1", full: versions().evaluator });
    expect(steps[1]!.evidence?.href).toBe("#checks");
    // The canary stage ran on the gate run's versions: said once, not listed twice.
    expect(steps[3]!.judgedWith).toEqual([]);
    expect(steps[3]!.sentence).toContain("Judged with the gate run's versions.");
  });

  it("ready for canary: the steps ahead are pending, greyed, in order", () => {
    const { t } = timeline([run(T(2))]);
    expect(t.cycles[0]!.steps.map((s) => `${s.kind}:${s.status}`)).toEqual(["declared:done", "gate-run:done", "canary-approval:current", "canary-stage:pending", "default-approval:pending", "promoted:pending"]);
  });

  it("a re-run after an evaluator publish opens a new cycle naming the new evaluator; the older cycle stays as it was", () => {
    const facts = [run(T(2)), approve("canary", "Carl", T(3)), run(T(4), "1.1")];
    const { t } = timeline(facts);
    expect(t.cycles.map((c) => [c.title, c.latest])).toEqual([["Cycle 1 · gate run 1", false], ["Cycle 2 · re-run 2", true]]);
    expect(t.cycles[0]!.steps.map((s) => s.kind)).toEqual(["declared", "gate-run", "canary-approval"]);
    const rerun = t.cycles[1]!.steps[0]!;
    expect(rerun.title).toBe("Gate re-run (run 2)");
    expect(rerun.judgedWith[0]!.value).toBe("desk-exam v1.1");
    expect(rerun.sentence).toContain("Judged with evaluator desk-exam v1.1 — a new evaluator (run 1 was judged with desk-exam v1)");
    expect(t.current?.kind).toBe("canary-approval");
  });

  it("a re-run that carries a fresh sealed canary stage skips the canary steps and stays at the default step", () => {
    const facts = [run(T(2)), approve("canary", "Carl", T(3)), sealed(T(4)), run(T(5), "1", true)];
    const { t } = timeline(facts, { gate: { verdict: "READY FOR APPROVAL", step: "default", open: [] }, canaryStage: { state: "sealed", fresh: true, staleBecause: [] }, pointers: { canary: X, approvedDefault: P } });
    expect(t.cycles[1]!.steps.map((s) => `${s.kind}:${s.status}`)).toEqual(["gate-run:done", "canary-approval:skipped", "canary-stage:skipped", "default-approval:current", "promoted:pending"]);
  });

  it("a re-run queued after a gate run opens the next cycle, running", () => {
    const { t } = timeline([run(T(2))], { gateRunning: true });
    expect(t.state).toBe("gating");
    expect(t.cycles.at(-1)!.steps[0]).toMatchObject({ kind: "gate-run", status: "current", title: "Gate re-run (run 2) — running" });
    expect(t.cycles[0]!.steps.every((s) => s.status !== "pending")).toBe(true);
  });

  it("an abort: the guard's move back to the exact parent is current, the stage it aborted (sealed after the move) shows its reason", () => {
    const breach = "span tool wipe_customer outside the boundary";
    // As it happens: the guard moves the pointer when it sees the breach; the stage seals with its stop afterwards.
    const facts: TimelineFact[] = [
      run(T(2)),
      approve("canary", "Carl", T(3)),
      { kind: "rollback", pointer: "canary", by: "Lightgate canary guard", at: T(4), reason: `canary stage aborted: ${breach}`, guard: true, to: "desk-policy v1" },
      { kind: "canary-stage", at: T(5), outcome: "aborted", reason: breach, produced: { versions: versions(), parent: { resourceId: "desk-policy", version: 1 } } },
    ];
    const { state, t } = timeline(facts, { canaryStage: { state: "aborted", fresh: true, staleBecause: [] }, pointers: { canary: P, approvedDefault: P } });
    expect(state.name).toBe("rolled-back");
    expect(t.cycles.map((c) => c.title)).toEqual(["Cycle 1 · gate run 1", "Cycle 2 · aborted"]);
    expect(t.cycles[1]!.steps.map((s) => `${s.kind}:${s.status}`)).toEqual(["canary-stage:failed", "aborted:current", "gate-run:pending"]);
    const stage = t.cycles[1]!.steps[0]!;
    expect(stage.title).toBe("Canary stage aborted");
    expect(stage.sentence).toContain(breach);
    expect(t.current).toMatchObject({ kind: "aborted", tone: "failed", who: "Lightgate canary guard", title: "Canary aborted by the guard" });
    expect(t.current!.sentence).toContain(`canary stage aborted: ${breach}`);
  });

  it("an abort whose stage sealed before the guard's move keeps the failed stage in the gate run's cycle", () => {
    const facts: TimelineFact[] = [
      run(T(2)),
      approve("canary", "Carl", T(3)),
      { kind: "canary-stage", at: T(4), outcome: "aborted", reason: "breach", produced: { versions: versions() } },
      { kind: "rollback", pointer: "canary", by: "Lightgate canary guard", at: T(5), reason: "canary stage aborted: breach", guard: true, to: "desk-policy v1" },
    ];
    const { t } = timeline(facts, { canaryStage: { state: "aborted", fresh: true, staleBecause: [] }, pointers: { canary: P, approvedDefault: P } });
    expect(t.cycles[0]!.steps.find((s) => s.kind === "canary-stage")).toMatchObject({ status: "failed", title: "Canary stage aborted" });
    expect(t.current).toMatchObject({ kind: "aborted", status: "current" });
  });

  it("a rollback: the promoted cycle stays done, the rollback opens the latest cycle and is current", () => {
    const facts: TimelineFact[] = [
      run(T(2)),
      approve("canary", "Carl", T(3)),
      sealed(T(4)),
      approve("default", "Rosa", T(5)),
      { kind: "rollback", pointer: "approved_default", by: "Rosa", at: T(6), reason: "the evaluator changed", guard: false, to: "desk-policy v1" },
    ];
    const { state, t } = timeline(facts, { gate: { verdict: "PROMOTE TO DEFAULT", step: "default", open: [] }, canaryStage: { state: "sealed", fresh: true, staleBecause: [] }, pointers: { canary: X, approvedDefault: P } });
    expect(state.name).toBe("rolled-back");
    expect(t.cycles[0]!.steps.find((s) => s.kind === "promoted")).toMatchObject({ status: "done", who: "Rosa" });
    expect(t.current).toMatchObject({ kind: "rolled-back", title: "Rolled back (approved default)", who: "Rosa", at: T(6) });
    expect(t.current!.sentence).toBe(`The approved default moved off this candidate to desk-policy v1: the evaluator changed. ${state.next}`);
    expect(t.cycles[1]!.latest).toBe(true);
  });

  it("STALE: the current step carries what each stale check said before it went stale", () => {
    const { state, t } = timeline([run(T(2))], { gate: { verdict: "QUARANTINED", step: "canary", open: [stale4] } });
    expect(state.name).toBe("stale");
    expect(t.current).toMatchObject({ kind: "canary-approval", tone: "stale" });
    expect(t.current!.said).toEqual([stale4]);
    expect(t.current!.sentence).toContain("check 4 passed (gain +0.210, lower bound +0.120)");
  });

  it("a promoted candidate whose evidence went stale stays promoted (the machine says so) and shows what was said", () => {
    const facts = [run(T(2)), approve("canary", "Carl", T(3)), sealed(T(4)), approve("default", "Rosa", T(5))];
    const { state, t } = timeline(facts, { gate: { verdict: "QUARANTINED", step: "default", open: [stale4] }, canaryStage: { state: "sealed", fresh: false, staleBecause: [] }, pointers: { canary: X, approvedDefault: X } });
    expect(state.name).toBe("promoted");
    expect(t.current).toMatchObject({ kind: "promoted", tone: "stale", said: [stale4] });
    expect(t.current!.sentence).toContain("Its evidence has gone stale since");
  });

  it("once rolled back, the current step is the rollback (no stale sayings on it), and evidence links point where the page waits", () => {
    const facts: TimelineFact[] = [run(T(2)), approve("canary", "Carl", T(3)), sealed(T(4)), approve("default", "Rosa", T(5)), { kind: "rollback", pointer: "approved_default", by: "Rosa", at: T(6), reason: "stale", guard: false, to: null }];
    const { t } = timeline(facts, { gate: { verdict: "QUARANTINED", step: "default", open: [stale4] }, canaryStage: { state: "sealed", fresh: true, staleBecause: [] }, pointers: { canary: X, approvedDefault: P } });
    expect(t.current).toMatchObject({ kind: "rolled-back", tone: "failed" });
    expect(t.current!.said).toBeUndefined();
    expect(timeline([run(T(2))]).t.current!.evidence).toEqual({ href: "#approval", label: "the approval panel" });
  });

  it("a rejection shows who rejected the step", () => {
    const facts: TimelineFact[] = [run(T(2)), { kind: "approval", step: "canary", decision: "reject", by: "Carl", at: T(3), comment: "too risky" }];
    const { t } = timeline(facts, { gate: { verdict: "QUARANTINED", step: "canary", open: [{ check: 7, title: "Approved", status: "fail" }] } });
    const step = t.cycles[0]!.steps.find((s) => s.kind === "canary-approval")!;
    expect(step).toMatchObject({ title: "Canary approval rejected", who: "Carl", status: "failed" });
    expect(step.sentence).toContain("too risky");
  });
});
