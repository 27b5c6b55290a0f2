// Two pointers, never aliases; the approved default moves only through a passing, fresh, approved receipt.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { digestOf } from "@/server/digest";
import { advanceLatestCandidate, decideDefaultMove, decideRollback, readApprovedDefault, type AgentPointers } from "@/server/gate/pointers";
import type { ActorRef } from "@/server/gate/receipt/refs";
import { approvalTarget, sealStage, type SealedLink } from "@/server/gate/receipt/seal";
import { receiptView } from "@/server/gate/receipt/view";
import { AGENT, PARENT, POLICY, VERSIONS } from "@/server/gate/reference/common";
import { reference, verifiedDecisions } from "./fixtures";

const RELEASE_APPROVER: ActorRef = { id: "rita@example.com", kind: "user", roles: ["release_approver"] };
const pointersAt = (approvedDefault: AgentPointers["approvedDefault"]): AgentPointers => ({ agent: AGENT, latestCandidate: null, approvedDefault });
const parentDefault = pointersAt({ ...PARENT, receiptDigest: digestOf("parent receipt") });

/** A's receipt after its bounded canary: the canary stage sealed, optionally approved for the default step. */
function afterCanary(approver: ActorRef | null): SealedLink[] {
  const { chain, receipt } = reference("A");
  const at = "2026-03-03T12:00:00.000Z";
  const stage = { canary: receipt.stage3!.canary!, rollbackTest: receipt.stage3!.rollbackTest!, computedAt: at, versions: VERSIONS };
  chain.push(sealStage(chain, "canary-stage", stage, at));
  if (approver) {
    const approval = { step: "default" as const, decision: "approve" as const, actor: approver, approves: approvalTarget(chain, "default")!, at: "2026-03-03T13:00:00.000Z", comment: "canary clean" };
    chain.push(sealStage(chain, "approval", approval, approval.at));
  }
  return chain;
}

const NOW = new Date("2026-03-03T14:00:00.000Z");
const move = (chain: SealedLink[], pointers = parentDefault, versions = VERSIONS) =>
  decideDefaultMove({ pointers, receipt: receiptView(chain), receiptHead: chain.at(-1)!.digest, policy: POLICY, currentVersions: versions, now: NOW, decisions: verifiedDecisions(receiptView(chain)) });

describe("pointers", () => {
  it("an algorithm's update moves only the latest candidate, and the approved default is never read through it", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1000), { minLength: 1, maxLength: 20 }), fc.boolean(), (updates, hasDefault) => {
        let p = hasDefault ? parentDefault : pointersAt(null);
        for (const u of updates) p = advanceLatestCandidate(p, { resourceId: `rs-${u.toString(16).padStart(12, "0")}`, version: 1, digest: digestOf(u) }, "svc-algo", "2026-03-03T00:00:00.000Z").pointers;
        expect(p.approvedDefault).toEqual(hasDefault ? parentDefault.approvedDefault : null);
        const read = readApprovedDefault(p);
        if (hasDefault) expect(read).toEqual({ found: true, target: parentDefault.approvedDefault });
        else expect(read).toEqual({ found: false, reason: `no approved default for ${AGENT} yet` });
        expect(p.latestCandidate).not.toBe(p.approvedDefault);
      }),
    );
  });

  it("refuses a moving name as a pointer target", () => {
    expect(() => advanceLatestCandidate(parentDefault, { ...PARENT, resourceId: "latest" }, "svc", "2026-03-03T00:00:00.000Z")).toThrow(/moving name/);
  });

  it("PROMOTE TO BOUNDED CANARY does not move the default", () => {
    const decision = move(reference("A").chain);
    expect(decision.report.verdict).toBe("PROMOTE TO BOUNDED CANARY");
    expect(decision).toMatchObject({ allowed: false });
    if (!decision.allowed) expect(decision.reasons[0]).toMatch(/^the verdict is PROMOTE TO BOUNDED CANARY/);
  });

  it("after the canary stage passes, the default step waits for a release approval", () => {
    const decision = move(afterCanary(null));
    expect(decision.report.verdict).toBe("READY FOR APPROVAL");
    expect(decision.report.step).toBe("default");
    expect(decision.allowed).toBe(false);
    const canaryApproverOnly = afterCanary({ ...RELEASE_APPROVER, roles: ["canary_approver"] });
    expect(move(canaryApproverOnly).report.verdict).toBe("READY FOR APPROVAL");
  });

  it("moves the approved default with a full receipt, and records who, when, from, to and the receipt digest", () => {
    const chain = afterCanary(RELEASE_APPROVER);
    const decision = move(chain);
    expect(decision.report.verdict).toBe("PROMOTE TO DEFAULT");
    expect(decision.allowed).toBe(true);
    if (!decision.allowed) return;
    const candidate = reference("A").raw.candidate;
    expect(decision.move).toEqual({
      agent: AGENT,
      pointer: "approved-default",
      from: PARENT,
      to: candidate,
      by: RELEASE_APPROVER.id,
      at: NOW.toISOString(),
      receiptDigest: chain.at(-1)!.digest,
      reason: decision.report.sentence,
    });
    expect(decision.pointers.approvedDefault).toEqual({ ...candidate, receiptDigest: chain.at(-1)!.digest });
  });

  it("refuses when the default moved since the gate ran, or the evidence went stale", () => {
    const chain = afterCanary(RELEASE_APPROVER);
    const elsewhere = pointersAt({ resourceId: "rs-000000000abc", version: 2, digest: digestOf("other"), receiptDigest: digestOf("r") });
    const moved = move(chain, elsewhere, { ...VERSIONS, parent: digestOf("other") });
    expect(moved.allowed).toBe(false);
    if (!moved.allowed) {
      expect(moved.reasons.join("\n")).toMatch(/approved default is now rs-000000000abc: re-run the gate/);
      expect(moved.reasons.join("\n")).toMatch(/check 4 is stale: parent \(approved default\) changed/);
    }
    const newServer = move(chain, parentDefault, { ...VERSIONS, modelServer: "other-server@2" });
    expect(newServer.allowed).toBe(false);
    expect(newServer.report.blocking.map((b) => `${b.scope}:${b.check}`)).toEqual(["admission:6", "admission:7"]);
  });

  it("rolls back only to an earlier approved default, and only with rollback:execute", () => {
    const chain = afterCanary(RELEASE_APPROVER);
    const promoted = move(chain);
    if (!promoted.allowed) throw new Error("expected the move to be allowed");
    const history = [{ agent: AGENT, pointer: "approved-default" as const, from: null, to: PARENT, by: "x", at: "2026-03-01T00:00:00.000Z", receiptDigest: digestOf("p"), reason: "" }, promoted.move];
    const input = { pointers: promoted.pointers, history, target: PARENT, at: "2026-03-04T00:00:00.000Z", reason: "regression in production" };
    const ok = decideRollback({ ...input, actor: RELEASE_APPROVER });
    expect(ok).toMatchObject({ allowed: true, pointers: { approvedDefault: { ...PARENT, receiptDigest: digestOf("p") } } });
    expect(decideRollback({ ...input, actor: { id: "t", kind: "user", roles: ["trainer"] } })).toMatchObject({ allowed: false, reasons: ['t lacks the "rollback:execute" scope'] });
    expect(decideRollback({ ...input, actor: RELEASE_APPROVER, target: { ...PARENT, digest: digestOf("never") } }).allowed).toBe(false);
  });
});
