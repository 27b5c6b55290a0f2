// Check 7 rests only on a verified signed decision: an approval link counts when the decision stored with it
// has a signature that verifies over a payload naming exactly that decision, made with a key registered to the
// signer, by someone who held the step's scope for the agent when it was decided and is not the receipt's
// author. Each fact is broken alone here (the database edge that establishes them has its own tests).
import { describe, expect, it } from "vitest";
import type { DecisionRecord, SignedDecisions } from "@/server/gate/receipt/signed-decisions";
import { approvalTarget, sealStage } from "@/server/gate/receipt/seal";
import { receiptView } from "@/server/gate/receipt/view";
import { APPROVER, judge, reference, statusOf, verifiedDecisions } from "./fixtures";

/** A's receipt with its canary approval, and the edge's report with one fact of its only record changed. */
function withRecord(edit: (r: DecisionRecord) => DecisionRecord, excluded: string[] = []) {
  const { receipt } = reference("A");
  const decisions = verifiedDecisions(receipt, excluded);
  return judge(receipt, { decisions: { ...decisions, records: decisions.records.map(edit) } });
}
const payloadData = (r: DecisionRecord) => (r.payload as { data: Record<string, unknown> }).data;
const withData = (r: DecisionRecord, data: Record<string, unknown>): DecisionRecord => ({ ...r, payload: { ...(r.payload as object), data: { ...payloadData(r), ...data } } as DecisionRecord["payload"] });

describe("check 7 counts only verified signed decisions", () => {
  it("a verified signed approval by an authorized actor passes check 7", () => {
    const report = withRecord((r) => r);
    expect(statusOf(report, 7)).toBe("pass");
    expect(report.verdict).toBe("PROMOTE TO BOUNDED CANARY");
    expect(report.checks[6]!.evidence).toMatchObject({ decision: { actor: APPROVER.id, decision: "approve", signed: true, roles: ["canary_approver"] } });
  });

  it.each<[string, (r: DecisionRecord) => DecisionRecord, RegExp]>([
    ["no signed decision stored for the link", (r) => ({ ...r, link: `sha256:${"0".repeat(64)}` }), /no signed decision is stored for it/],
    ["a signature that does not verify", (r) => ({ ...r, signatureVerified: { ok: false, reason: "the Ed25519 signature does not verify" } }), /its signature does not verify \(the Ed25519 signature does not verify\)/],
    ["a key not registered to the signer", (r) => ({ ...r, keyRegistered: { ok: false, reason: "passkey abc… is not registered to usr-alice" } }), /signed with a key not registered to usr-alice/],
    ["a payload signed by someone else", (r) => ({ ...r, payload: { ...(r.payload as object), signer: { kind: "user", id: "usr-mallory", name: "Mallory" } } as DecisionRecord["payload"] }), /signed payload is not this decision/],
    ["a payload about another link", (r) => withData(r, { approves: `sha256:${"1".repeat(64)}` }), /signed payload is not this decision/],
    ["a payload with another comment", (r) => withData(r, { comment: "something else" }), /signed payload is not this decision/],
    ["a rejection's payload under an approval", (r) => withData(r, { kind: "rejection", decision: "reject" }), /signed payload is not this decision/],
    ["a payload that is not a decision at all", (r) => ({ ...r, payload: { purpose: "passkey-test", data: { statement: "hello" } } }), /signed payload is not a decision/],
    ["no record of the roles held when it was signed", (r) => ({ ...r, rolesAtTheTime: null }), /no record shows which roles usr-alice held/],
    ["a signer who held only the viewer role at the time, whatever the link claims", (r) => ({ ...r, rolesAtTheTime: ["viewer"] }), /lacks the "approval:canary" scope \(roles held when it was signed: viewer\)/],
  ])("%s: not counted, check 7 waits for an approval and names why", (_what, edit, why) => {
    const report = withRecord(edit);
    const check = report.checks[6]!;
    expect(check).toMatchObject({ status: "unavailable", waitingOn: "approval" });
    expect(check.explanation).toMatch(why);
    expect(report.verdict).toBe("READY FOR APPROVAL");
  });

  it("an approver whom separation of duties excludes (its key's owner, the run's starter) is not counted", () => {
    const check = withRecord((r) => r, [APPROVER.id]).checks[6]!;
    expect(check.status).toBe("unavailable");
    expect(check.explanation).toContain(`separation of duties excludes ${APPROVER.id}`);
  });

  it("a verified signed rejection fails check 7; an unverified one is ignored and the step still waits", () => {
    const { chain } = reference("A", { approve: false });
    const at = "2026-03-02T17:30:00.000Z";
    const rejection = { step: "canary" as const, decision: "reject" as const, actor: APPROVER, approves: approvalTarget(chain, "canary")!, at, comment: "refund replies too terse" };
    chain.push(sealStage(chain, "approval", rejection, at));
    const receipt = receiptView(chain);
    const signed = judge(receipt);
    expect(statusOf(signed, 7)).toBe("fail");
    expect(signed.checks[6]!.explanation).toContain("rejected the canary step (signed, verified): “refund replies too terse”");
    const forged: SignedDecisions = { ...verifiedDecisions(receipt), records: verifiedDecisions(receipt).records.map((r) => ({ ...r, signatureVerified: { ok: false, reason: "forged" } })) };
    const ignored = judge(receipt, { decisions: forged });
    expect(ignored.checks[6]).toMatchObject({ status: "unavailable", waitingOn: "approval" });
    expect(ignored.checks[6]!.explanation).toContain(`${APPROVER.id}'s rejection: its signature does not verify (forged)`);
  });

  it("one verified record among several for the same link is enough; forged duplicates do not undo it", () => {
    const { receipt } = reference("A");
    const good = verifiedDecisions(receipt);
    const forged = good.records.map((r) => ({ ...r, signatureVerified: { ok: false as const, reason: "forged" } }));
    expect(statusOf(judge(receipt, { decisions: { ...good, records: [...forged, ...good.records] } }), 7)).toBe("pass");
  });
});
