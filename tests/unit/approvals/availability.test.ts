// The button's rule (shared by server and UI) and the release-bot policy, as pure functions.
import { describe, expect, it } from "vitest";
import { approvalAvailability, type ApprovalSituation } from "@/lib/approvals/availability";
import { botPolicyViolations, type BotPolicy } from "@/server/approvals/bot-policy";

const ready: ApprovalSituation = { agent: "support-desk", verdict: "READY FOR APPROVAL", verdictStep: "canary", stale: [], excluded: ["svc-trainer"], decided: null };
const approver = { id: "rosa", grants: [{ role: "release_approver" as const, agent: null }] };

describe("approvalAvailability", () => {
  it("is enabled only for a fresh READY FOR APPROVAL receipt, an undecided step, and a viewer holding the step's scope", () => {
    expect(approvalAvailability(ready, approver)).toEqual({ enabled: true, step: "canary", scope: "approval:canary" });
    expect(approvalAvailability(ready, null)).toMatchObject({ enabled: false, reason: "sign in to approve" });
    expect(approvalAvailability(ready, { id: "tom", grants: [{ role: "trainer", agent: null }] })).toMatchObject({ enabled: false, reason: expect.stringContaining('"approval:canary"') });
    expect(approvalAvailability({ ...ready, verdictStep: "default" }, { id: "carl", grants: [{ role: "canary_approver", agent: null }] })).toMatchObject({ enabled: false, scope: "approval:default" });
    expect(approvalAvailability(ready, { id: "ann", grants: [{ role: "canary_approver", agent: "other-agent" }] })).toMatchObject({ enabled: false });
    expect(approvalAvailability(ready, { id: "ann", grants: [{ role: "canary_approver", agent: "support-desk" }] })).toMatchObject({ enabled: true });
    expect(approvalAvailability({ ...ready, excluded: ["rosa"] }, approver)).toMatchObject({ enabled: false, reason: expect.stringContaining("separation of duties") });
    expect(approvalAvailability({ ...ready, decided: "approve", verdict: "PROMOTE TO BOUNDED CANARY" }, approver)).toMatchObject({ enabled: false, reason: expect.stringContaining("already approved") });
    expect(approvalAvailability({ ...ready, verdict: "QUARANTINED" }, approver)).toMatchObject({ enabled: false, reason: expect.stringContaining("QUARANTINED") });
  });

  it("names every stale check and why", () => {
    const stale = [{ check: 4, sentences: ["evaluator changed from a to b"] }, { check: 1, sentences: ["evaluator changed from a to b"] }];
    const a = approvalAvailability({ ...ready, verdict: "QUARANTINED", stale }, approver);
    expect(a).toMatchObject({ enabled: false, reason: expect.stringContaining("checks 4 and 1 are stale (evaluator changed from a to b)") });
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
