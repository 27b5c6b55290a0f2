// Every pin names one exact artifact — candidate, parent, data snapshots, evaluator (id and version) and the
// locked gate's own references: a moving name is refused where the receipt is declared (naming the field)
// and fails check 1 on any receipt that carries one anyway (sealed before the rule, or built by hand).
import { describe, expect, it } from "vitest";
import { movingNameIn } from "@/server/gate/receipt/exact-names";
import { ZStage1 } from "@/server/gate/receipt/stage1";
import { ZStage3 } from "@/server/gate/receipt/stage3";
import type { Receipt } from "@/server/gate/receipt/view";
import { judge, reference, statusOf } from "./fixtures";

type Edit = (r: Receipt) => void;
const PINS: [string, string, Edit][] = [
  ["evaluator version", "evaluator.version", (r) => void (r.stage1.evaluator.version = "latest")],
  ["evaluator", "evaluator.id", (r) => void (r.stage1.evaluator.id = "current-desk-evaluator")],
  ["training snapshot", "data.training.id", (r) => void (r.stage1.data.training.id = "ds-train@head")],
  ["held-out snapshot", "data.heldOut.id", (r) => void (r.stage1.data.heldOut.id = "heldout-newest")],
  ["candidate", "candidate.resourceId", (r) => void (r.stage1.candidate.resourceId = "rs-latestPolicy")],
  ["parent", "parent.resourceId", (r) => void (r.stage1.parent.resourceId = "latest")],
];

describe("moving names in pins", () => {
  it.each(PINS)("stage 1 refuses a moving %s, naming the field", (_what, field, edit) => {
    const { receipt } = reference("A");
    edit(receipt);
    const parsed = ZStage1.safeParse(receipt.stage1);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path.join(".")).toBe(field);
    expect(parsed.error!.issues[0]!.message).toMatch(/moving name/);
  });

  it("stage 3 refuses a locked gate run with a moving evaluator version, naming the field", () => {
    const { receipt } = reference("A");
    const stage3 = structuredClone(receipt.stage3!);
    stage3.lockedGate!.evaluator.version = "^3";
    const parsed = ZStage3.safeParse(stage3);
    expect(parsed.error!.issues[0]!.path.join(".")).toBe("lockedGate.evaluator.version");
  });

  it.each(PINS)("check 1 fails on a receipt whose %s is a moving name, naming it", (what, _field, edit) => {
    const { receipt } = reference("A");
    expect(statusOf(judge(receipt), 1)).toBe("pass");
    edit(receipt);
    const check = judge(receipt).checks[0]!;
    expect(check.status).toBe("fail");
    expect(check.explanation).toContain(`the ${what} is named`);
    expect(check.explanation).toMatch(/moving name/);
  });

  it("check 1 fails when the locked gate ran on a moving evaluator version, even if stage 1 pinned an exact one", () => {
    const { receipt } = reference("A");
    receipt.stage3!.lockedGate!.evaluator.version = "latest";
    const check = judge(receipt).checks[0]!;
    expect(check.status).toBe("fail");
    expect(check.explanation).toContain("locked gate's evaluator");
  });

  it("check 1 fails when the exact parent does not load now (missing, or other bytes), naming why; loading passes", () => {
    const { receipt } = reference("A");
    const parent = receipt.stage1.parent;
    expect(statusOf(judge(receipt, { parentLoad: { loadable: true, digest: parent.digest } }), 1)).toBe("pass");
    for (const reason of [`the store holds no version ${parent.version} of ${parent.resourceId}`, `the stored bytes of ${parent.resourceId} v${parent.version} hash to sha256:${"0".repeat(64)}`]) {
      const report = judge(receipt, { parentLoad: { loadable: false, reason } });
      expect(report.checks[0]).toMatchObject({ status: "fail", explanation: expect.stringContaining(`the parent ${parent.resourceId} v${parent.version} cannot be loaded now (${reason})`) });
      expect(report.verdict).toBe("QUARANTINED");
    }
  });

  it("an exact evaluator version passes: the rule is about moving names, not about versions", () => {
    for (const version of ["3", "1.4.2", "v2", "2026-03-01"]) expect(movingNameIn(version)).toBeNull();
  });
});
