// Evidence names what produced it: a stage 3 is judged with the evaluator its own `versions` names (what freshness
// compares with the one in force). A re-run judged with a newer evaluator than stage 1 declared counts, and says
// so; a stage 3 whose locked gate was scored by one evaluator but is recorded as produced by another — evidence
// relabelled rather than re-judged — is invalid, whatever the registry holds now.
import { describe, expect, it } from "vitest";
import { digestOf } from "@/server/digest";
import { EVALUATOR, VERSIONS } from "@/server/gate/reference/common";
import { evaluatorFromKey, evaluatorKey } from "@/server/gate/versions";
import { judge, reference, statusOf } from "./fixtures";

const V4 = { id: EVALUATOR.id, version: "4", digest: digestOf({ evaluator: EVALUATOR.id, version: 4 }) };
const inForceV4 = { ...VERSIONS, evaluator: evaluatorKey(V4) };

describe("evidence names the evaluator that produced it", () => {
  it("a stage 3 scored and recorded with the evaluator in force is judged with it (stage 1 keeps declaring v3)", () => {
    const { receipt } = reference("A");
    receipt.stage3!.lockedGate!.evaluator = V4;
    receipt.stage3!.versions = inForceV4;
    const report = judge(receipt, { versions: inForceV4 });
    expect(receipt.stage1.evaluator.version).toBe("3");
    expect(report.freshness.fresh).toBe(true);
    expect(statusOf(report, 4)).toBe("pass");
    const check4 = report.checks.find((c) => c.id === 4)!;
    expect(check4.explanation).toContain(`${EVALUATOR.id}@4`);
    expect(check4.explanation).not.toContain(`${EVALUATOR.id}@3`);
  });

  it("relabelled evidence — scored by v3, recorded as produced by v4 — is invalid: check 4 fails, naming both", () => {
    const { receipt } = reference("A");
    receipt.stage3!.versions = inForceV4;
    const report = judge(receipt, { versions: inForceV4 });
    expect(report.freshness.fresh).toBe(true);
    expect(statusOf(report, 4)).toBe("fail");
    expect(report.checks.find((c) => c.id === 4)!.explanation).toMatch(new RegExp(`ran with evaluator ${EVALUATOR.id}@3, but its evidence is recorded as produced by ${EVALUATOR.id}@4`));
    expect(report.verdict).toBe("QUARANTINED");
  });

  it("evaluatorFromKey inverts evaluatorKey, and names nothing for a key without an evaluator", () => {
    expect(evaluatorFromKey(evaluatorKey(V4))).toEqual(V4);
    expect(evaluatorFromKey("(none registered)")).toBeNull();
  });
});
