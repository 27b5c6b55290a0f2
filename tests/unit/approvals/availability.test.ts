// The button's rule (shared by server and UI) and the release-bot policy, as pure functions.
import { describe, expect, it } from "vitest";
import { approvalAvailability, type ApprovalSituation } from "@/lib/approvals/availability";
import type { RoleGrant } from "@/lib/auth/scopes";
import { candidateStatus } from "@/lib/candidates/status";
import { botPolicyViolations, type BotPolicy } from "@/server/approvals/bot-policy";

const ready: ApprovalSituation = { agent: "support-desk", verdict: "READY FOR APPROVAL", verdictStep: "canary", open: [], stale: [], excluded: ["svc-trainer"], decided: null };
const person = (id: string, grants: RoleGrant[], hasPasskey = true) => ({ id, grants, kind: "user" as const, hasPasskey });
const approver = person("rosa", [{ role: "release_approver", agent: null }]);
const quarantined: ApprovalSituation = {
  ...ready,
  verdict: "QUARANTINED",
  open: [
    { check: 2, title: "Full expected-span coverage", status: "fail" },
    { check: 3, title: "Unexpected retry debt within budget", status: "fail" },
  ],
  // The fixture's quarantined candidates carry a recorded canary approval: the failed checks still come first.
  decided: { decision: "approve", by: "Carlos Mendes", at: "2026-03-02 17:00:00 UTC" },
};

describe("approvalAvailability", () => {
  it("is enabled only for a fresh READY FOR APPROVAL receipt, an undecided step, and a viewer holding the step's scope", () => {
    expect(approvalAvailability(ready, approver)).toEqual({ enabled: true, step: "canary", scope: "approval:canary" });
    expect(approvalAvailability(ready, null)).toMatchObject({ enabled: false, code: "signed-out", reason: "sign in to approve" });
    expect(approvalAvailability(ready, person("tom", [{ role: "trainer", agent: null }]))).toMatchObject({ enabled: false, code: "scope", reason: expect.stringContaining('"approval:canary"') });
    expect(approvalAvailability({ ...ready, verdictStep: "default" }, person("carl", [{ role: "canary_approver", agent: null }]))).toMatchObject({ enabled: false, scope: "approval:default" });
    expect(approvalAvailability(ready, person("ann", [{ role: "canary_approver", agent: "other-agent" }]))).toMatchObject({ enabled: false, code: "scope" });
    expect(approvalAvailability(ready, person("ann", [{ role: "canary_approver", agent: "support-desk" }]))).toMatchObject({ enabled: true });
    expect(approvalAvailability({ ...ready, excluded: ["rosa"] }, approver)).toMatchObject({ enabled: false, code: "duties", reason: expect.stringContaining("separation of duties") });
    expect(approvalAvailability({ ...ready, verdict: "QUARANTINED" }, approver)).toMatchObject({ enabled: false, code: "verdict", reason: expect.stringContaining("QUARANTINED") });
  });

  it("names the first real blocker: checks, then a decision taken, then scope, then separation of duties, then the passkey", () => {
    const viewer = person("vivian", [{ role: "viewer", agent: null }], false);
    const a = approvalAvailability(quarantined, viewer);
    expect(a).toMatchObject({ enabled: false, code: "checks" });
    expect(!a.enabled && a.reason).toBe("check 2 (Full expected-span coverage) failed; check 3 (Unexpected retry debt within budget) failed: the candidate stays quarantined until they pass.");
    const approved = { ...ready, verdict: "PROMOTE TO BOUNDED CANARY", decided: quarantined.decided };
    expect(approvalAvailability(approved, viewer)).toMatchObject({ code: "decided", reason: "the bounded canary step of this receipt was approved by Carlos Mendes at 2026-03-02 17:00:00 UTC" });
    // After a rollback the decision taken on this receipt is history: the promotion machine says why nothing is open.
    const rolledBack = { ...approved, closed: { state: "rolled-back", next: "The approved default was rolled back from this candidate; re-run the gate to promote it again." } };
    expect(approvalAvailability(rolledBack, approver)).toMatchObject({ code: "state", reason: expect.stringContaining("re-run the gate to promote it again") });
    expect(approvalAvailability(ready, viewer)).toMatchObject({ code: "scope" });
    expect(approvalAvailability({ ...ready, excluded: ["rosa"] }, { ...approver, hasPasskey: false })).toMatchObject({ code: "duties" });
    expect(approvalAvailability(ready, { ...approver, hasPasskey: false })).toMatchObject({ code: "passkey", reason: expect.stringContaining("Settings → Security") });
    // a rejection fails check 7 itself: the rejection is named, not "check 7 failed"
    const rejected = { ...ready, verdict: "QUARANTINED", open: [{ check: 7, title: "Rollback tested and step approved", status: "fail" as const }], decided: { decision: "reject" as const, by: "Rosa Albers", at: "2026-03-02 18:00:00 UTC" } };
    expect(approvalAvailability(rejected, approver)).toMatchObject({ code: "decided", reason: "the bounded canary step of this receipt was rejected by Rosa Albers at 2026-03-02 18:00:00 UTC" });
    // a release bot signs with its own key, not a passkey
    expect(approvalAvailability(ready, { id: "bot", grants: [{ role: "release_bot", agent: null }], kind: "service", hasPasskey: false })).toMatchObject({ enabled: true });
  });

  it("names every stale check and why, after the checks that failed", () => {
    const stale = [{ check: 4, sentences: ["evaluator changed from a to b"] }, { check: 1, sentences: ["evaluator changed from a to b"] }];
    const open = [
      { check: 1, title: "Pinned", status: "stale" as const },
      { check: 4, title: "Beats its exact parent", status: "stale" as const },
    ];
    const a = approvalAvailability({ ...ready, verdict: "QUARANTINED", open, stale }, approver);
    expect(a).toMatchObject({ enabled: false, code: "checks", reason: expect.stringContaining("checks 4 and 1 are stale (evaluator changed from a to b)") });
    const both = approvalAvailability({ ...ready, verdict: "QUARANTINED", open: [{ check: 5, title: "No protected case regressed", status: "fail" }, ...open], stale }, approver);
    expect(!both.enabled && both.reason).toMatch(/^check 5 \(No protected case regressed\) failed: the candidate stays quarantined\. Also checks 4 and 1 are stale/);
  });
});

describe("candidateStatus", () => {
  it("reads STALE only when every check in the way is stale", () => {
    expect(candidateStatus("QUARANTINED", [{ status: "stale" }, { status: "stale" }])).toBe("STALE");
    expect(candidateStatus("QUARANTINED", [{ status: "stale" }, { status: "fail" }])).toBe("QUARANTINED");
    expect(candidateStatus("QUARANTINED", [])).toBe("QUARANTINED");
    expect(candidateStatus("READY FOR APPROVAL", [])).toBe("READY FOR APPROVAL");
  });
});

describe("botPolicyViolations", () => {
  const policy: BotPolicy = { botId: "bot", agents: ["support-desk"], verdicts: ["READY FOR APPROVAL"], steps: ["canary"], maxCanaryTasks: 20, maxCanaryWallSeconds: 3600, maxCanaryCostUsd: 5 };
  const boundary = { maxTasks: 20, maxWallTimeSeconds: 3600, allowedTools: [], maxCostUsd: 5, allowedSideEffects: [] };
  const ask = { botId: "bot", agent: "support-desk", verdict: "READY FOR APPROVAL", step: "canary", boundary };
  it("allows exactly what the policy covers and names each excess", () => {
    expect(botPolicyViolations(policy, ask)).toEqual([]);
    expect(botPolicyViolations(null, ask)[0]).toMatch(/no release policy/);
    expect(botPolicyViolations(policy, { ...ask, agent: "billing" })[0]).toMatch(/does not cover agent billing/);
    expect(botPolicyViolations(policy, { ...ask, step: "default" })[0]).toMatch(/default step/);
    expect(botPolicyViolations(policy, { ...ask, boundary: { ...boundary, maxTasks: 21, maxCostUsd: 5.01 } })).toHaveLength(2);
    expect(botPolicyViolations({ ...policy, agents: ["*"] }, { ...ask, agent: "billing" })).toEqual([]);
  });
});
