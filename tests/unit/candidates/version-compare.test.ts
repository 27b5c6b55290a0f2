// Two versions compared case by case only on one exam scored by one evaluator; otherwise a plain sentence says why
// not. Where they differ most: the largest gap first, a pass that flipped before an equal gap that did not, case
// ids breaking ties; cases scored on one side only are left out. Config: the keys that differ, masked secrets,
// and no flood of "added" keys when one side's bytes are missing.
import { describe, expect, it } from "vitest";
import { MASK } from "@/lib/json/secrets";
import type { GateReport } from "@/server/gate/gate";
import { compareCases, configDifference, MAX_CASE_DIFFERENCES, type SideInput } from "@/server/receipts/version-compare";

const EXAM = { id: "ds-exam", digest: `sha256:${"e".repeat(64)}` } as const;
const EVAL = { id: "desk-eval", version: "3", digest: `sha256:${"d".repeat(64)}` } as const;

type Case = [caseId: string, score: number, passed: boolean, family?: string];
const report = (cases: Case[]) =>
  ({ evidence: { comparison: { rows: cases.map(([caseId, score, passed, family = "billing"]) => ({ caseId, family, protected: family === "refund_limit", parent: null, candidate: { score, passed }, delta: null, regressed: null })) } } }) as unknown as GateReport;

function side(name: string, cases: Case[] | null, over: Partial<SideInput> = {}): SideInput {
  return {
    id: `cand-${name}`,
    name,
    label: null,
    parent: { resourcesId: "rs-parent", version: 1 },
    status: "QUARANTINED",
    promotion: null,
    report: cases ? report(cases) : null,
    lockedGate: cases ? { dataset: EXAM, evaluator: EVAL } : null,
    ...over,
  } as SideInput;
}

describe("compareCases", () => {
  it("on one exam: the largest gaps first, a flipped pass before an equal gap, one-sided cases left out", () => {
    const a = side("a v1", [["c1", 0.9, true], ["c2", 0.5, true], ["c3", 0.5, true], ["c4", 0.7, true], ["only-a", 0.1, false]]);
    const b = side("b v1", [["c1", 0.9, true], ["c2", 0.2, true], ["c3", 0.8, false, "refund_limit"], ["c4", 0.6, true], ["only-b", 1, true]]);
    const c = compareCases(a, b);
    if (!c.comparable) throw new Error(c.sentence);
    expect(c).toMatchObject({ compared: 4, differing: 3, flipped: 1 });
    expect(c.top.map((r) => [r.caseId, Number(r.delta.toFixed(2)), r.protected])).toEqual([
      ["c3", 0.3, true],
      ["c2", -0.3, false],
      ["c4", -0.1, false],
    ]);
    expect(c.sentence).toBe("Both were judged on held-out set ds-exam by desk-eval@3: 4 cases scored on both, 3 differ, 1 of them pass on one side only.");
  });

  it("lists at most MAX_CASE_DIFFERENCES cases", () => {
    const many = (score: number) => Array.from({ length: 40 }, (_, i): Case => [`c${String(i).padStart(2, "0")}`, score + i / 100, true]);
    const c = compareCases(side("a", many(0)), side("b", many(0.5).map(([id, s, p], i): Case => [id, s + (i % 3) / 10, p])));
    if (!c.comparable) throw new Error(c.sentence);
    expect(c.differing).toBe(40);
    expect(c.top).toHaveLength(MAX_CASE_DIFFERENCES);
    expect(c.top.every((r) => Math.abs(r.delta) >= 0.7 - 1e-9)).toBe(true);
  });

  it("says plainly when they sat different exams", () => {
    const c = compareCases(side("a v1", [["c1", 1, true]]), side("b v1", [["c1", 0, false]], { lockedGate: { dataset: { id: "ds-spring", digest: `sha256:${"f".repeat(64)}` }, evaluator: EVAL } }));
    expect(c).toEqual({ comparable: false, sentence: expect.stringMatching(/^They were judged on different exams: a v1 on held-out set ds-exam, b v1 on ds-spring\./) });
  });

  it("refuses one scale for two evaluators on the same exam", () => {
    const c = compareCases(side("a", [["c1", 1, true]]), side("b", [["c1", 0, false]], { lockedGate: { dataset: EXAM, evaluator: { ...EVAL, version: "4", digest: `sha256:${"4".repeat(64)}` } } }));
    expect(c.comparable).toBe(false);
    expect(c.sentence).toContain("different evaluators (desk-eval@3 and desk-eval@4)");
  });

  it("names the versions not judged on the locked gate yet", () => {
    expect(compareCases(side("a", null), side("b", [["c1", 1, true]])).sentence).toBe("a has no locked-gate result yet: nothing to compare case by case.");
    expect(compareCases(side("a", null), side("b", null)).sentence).toBe("a and b have no locked-gate result yet: nothing to compare case by case.");
  });
});

describe("configDifference", () => {
  it("lists the keys that differ, secret-like values masked", () => {
    const d = configDifference(
      { name: "a", algorithm: { name: "apo", config: { beam: 4 } }, resources: { prompt: { template: "Hi", api_key: "sk-one" } } },
      { name: "b", algorithm: { name: "apo", config: { beam: 8 } }, resources: { prompt: { template: "Hi", api_key: "sk-two" } } },
    );
    expect(d.entries.map((e) => [e.path, e.change, e.before, e.after, e.secret])).toEqual([
      ["algorithm.config.beam", "changed", "4", "8", false],
      ["resources.prompt.api_key", "changed", MASK, MASK, true],
    ]);
    expect(d.unchanged).toBe(2);
  });

  it("folds an array of changed numbers (a policy's weights) into one row saying how many changed and by how much", () => {
    const w = (shift: number) => Array.from({ length: 40 }, (_, i) => (i < 30 ? i / 10 + shift : i / 10));
    const d = configDifference({ name: "a", algorithm: { name: "ppo" }, resources: { policy: { weights: w(0), bias: [1, 2] } } }, { name: "b", algorithm: { name: "ppo" }, resources: { policy: { weights: w(0.5), bias: [1, 3] } } });
    expect(d.entries.map((e) => [e.path, e.before, e.after])).toEqual([
      ["resources.policy.bias[1]", "2", "3"],
      ["resources.policy.weights[…]", "30 numbers", "30 changed · max |Δ| 0.500 · mean |Δ| 0.500"],
    ]);
    expect(d.changed).toBe(2);
    // A few changed numbers stay one row each.
    const few = configDifference({ name: "a", algorithm: {}, resources: { w: [1, 2, 3] } }, { name: "b", algorithm: {}, resources: { w: [1, 5, 6] } });
    expect(few.entries.map((e) => e.path)).toEqual(["resources.w[1]", "resources.w[2]"]);
  });

  it("compares only the algorithm when one side's bytes are missing, and says so", () => {
    const d = configDifference({ name: "a v1", algorithm: { name: "ppo" }, resources: null }, { name: "b v1", algorithm: { name: "ppo" }, resources: { policy: { w: 1 } } });
    expect(d.entries).toEqual([]);
    expect(d.missing).toEqual(["the store holds no bytes of a v1: only its algorithm and config are compared"]);
  });
});
