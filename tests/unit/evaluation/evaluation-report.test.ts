import { describe, expect, it } from "vitest";
import { redactionCounts, redactionText } from "@/lib/datasets/redactions";
import { powerSentence } from "@/server/evaluations/ab";
import { deriveMetrics } from "@/server/evaluations/metrics";
import { compareArms } from "@/server/trainers/evaluation/ab-test";

const base = { subject: { label: "x", policyKind: "softmax-linear", policyDigest: "sha256:0" }, data: { id: "d", digest: "sha256:1", records: 10 }, heldOut: { digest: "sha256:2", cases: 50 }, learningCurve: null, heldOutResult: null, kFold: null, temporal: null, domainTransfer: null, fewShot: null, adversarial: null };

describe("the evaluation report's metrics", () => {
  it("say which protocol would measure a metric that was not measured", () => {
    const rows = deriveMetrics(base);
    expect(rows.map((r) => [r.key, r.value, r.display])).toEqual([
      ["success-rate", null, "not measured"],
      ["quality", null, "not measured"],
      ["learning-efficiency", null, "not measured"],
      ["retention", null, "not measured"],
      ["adaptation-speed", null, "not measured"],
      ["generalization", null, "not measured"],
      ["stability", null, "not measured"],
    ]);
    expect(rows[5]!.basis).toBe("needs domain transfer or temporal validation");
  });

  it("derive adaptation speed, retention, generalization and stability from the protocols that measure them", () => {
    const rows = deriveMetrics({
      ...base,
      fewShot: { domain: "incident", support: 10, curve: [0.5, 0.6, 0.85, 0.9, 0.9].map((accuracy, step) => ({ step, accuracy })), otherDomainsBefore: 0.8, otherDomainsAfter: 0.6 },
      temporal: { cutAt: "2026-03-01T00:00:00.000Z", past: 0.9, future: 0.7 },
      learningCurve: [0.1, 0.3, 0.2, 0.4].map((meanReward, i) => ({ update: i + 1, meanReward, successRate: 0 })),
    });
    const by = Object.fromEntries(rows.map((r) => [r.key, r]));
    // 90 % of the best gain (0.5 → 0.9) is 0.86: reached at the third step.
    expect(by["adaptation-speed"]!.value).toBe(3);
    expect(by["retention"]!.value).toBeCloseTo(0.75, 12);
    expect(by["generalization"]!.value).toBeCloseTo(0.2, 12);
    expect(by["stability"]!.display).toBe("sd 0.129 · worst drop 0.100");
    expect(by["learning-efficiency"]!.display).toBe("AUC 0.250 · +0.100 per update");
  });
});

describe("the A/B power sentence", () => {
  it("states sample size, the chosen difference standardized by the spread seen, the power here and the runs per arm it needs", () => {
    const r = compareArms({ metric: "held-out mean reward", a: { name: "a", values: [1, 2, 3, 4] }, b: { name: "b", values: [2, 3, 4, 5] }, effect: 1 });
    expect(powerSentence(r)).toMatch(/^n = 4 per arm; against a difference of 1\.000 in held-out mean reward \(d = 0\.77 at the spread seen, sd 1\.291\): power 0\.\d\d here, 80 % needs 28 runs per arm; this test detects ≥ \d\.\d{3} with 80 % power at α = 0\.05\.$/);
    expect(powerSentence(r)).not.toMatch(/observed/);
  });

  it("says when the runs did not vary (no spread to standardize by)", () => {
    const r = compareArms({ metric: "m", a: { name: "a", values: [1, 1] }, b: { name: "b", values: [1, 1] }, effect: 0.1 });
    expect(powerSentence(r)).toBe("n = 2 per arm; the runs did not vary (sd 0), so any difference shows: power 1 against 0.100 in m.");
  });
});

describe("redaction counts from a pipeline's reports", () => {
  it("add up each PII type over the steps and leave out the zeros", () => {
    const c = redactionCounts([{ step: "clean", details: { droppedUnfit: 2 } }, { step: "anonymize", details: { recordsRedacted: 3, "redacted.email": 2, "redacted.phone": 0, "redacted.name": 1 } }]);
    expect(c).toEqual({ email: 2, name: 1 });
    expect(redactionText(c)).toBe("2 email, 1 name");
    expect(redactionText({})).toBeNull();
  });
});
