// What the candidate page states beside the verdict: its name (with the reference letter), until when its
// evidence holds on age alone and why, and the one date format.
import { describe, expect, it } from "vitest";
import { relativeTime, timestamp } from "@/lib/format/time";
import { POLICY } from "@/server/gate/reference/common";
import { runReference } from "@/server/gate/reference/four-candidates";
import { receiptView } from "@/server/gate/receipt/view";
import { candidateLabel } from "@/server/receipts/candidate-names";
import { freshUntil } from "@/server/receipts/fresh-until";

describe("candidate page facts", () => {
  const results = runReference();

  it("names a candidate as <agent> · <resources> v<n>, with the reference letter for the four reference candidates only", () => {
    for (const r of results) {
      expect(candidateLabel({ agent: "support-desk", resourcesId: r.raw.candidate.resourceId, version: 1 })).toEqual({
        title: `support-desk · ${r.raw.candidate.resourceId} v1`,
        label: `reference ${r.name}`,
      });
    }
    expect(candidateLabel({ agent: "support-desk", resourcesId: "rs-run-u5", version: 2 }).label).toBeNull();
  });

  it("is fresh until the first age limit runs out, counted from when that check's evidence was computed", () => {
    const a = results.find((r) => r.name === "A")!;
    const receipt = receiptView(a.chain);
    const f = freshUntil(receipt, { maxEvidenceAgeSeconds: { "6": 14 * 86_400, "4": 30 * 86_400 } });
    expect(f).toMatchObject({ check: 6, scope: "admission", computedAt: receipt.stage3!.computedAt, maxAgeSeconds: 14 * 86_400 });
    expect(Date.parse(f.at!) - Date.parse(receipt.stage3!.computedAt)).toBe(14 * 86_400_000);
    expect(f.dependsOn).toEqual(expect.arrayContaining(["evaluator", "parent", "toolContracts", "taskDistribution"]));
    expect(freshUntil(receipt, { ...POLICY, maxEvidenceAgeSeconds: {} })).toMatchObject({ at: null, check: null });
  });

  it("writes every date one way, with the relative time for hovering", () => {
    const at = new Date("2026-03-02T17:00:05.120Z");
    expect(timestamp(at)).toBe("2026-03-02 17:00:05 UTC");
    expect(timestamp(at.toISOString())).toBe("2026-03-02 17:00:05 UTC");
    expect(timestamp("not a date")).toBe("—");
    const now = at.getTime();
    expect(relativeTime(new Date(now - 3 * 86_400_000), now)).toBe("3 d ago");
    expect(relativeTime(new Date(now + 2 * 3600_000), now)).toBe("in 2 h");
    expect(relativeTime(new Date(now - 400 * 86_400_000), now)).toBe("13 mo ago");
  });
});
