// Check 7 through the database, on both dialects: an approval link counts only with a verified signed decision
// stored beside it — a link sealed straight into the chain (as the old reference fixture did) does not, nor one
// whose stored signature verifies over its payload but with a key never registered to the signer. A real signed
// approval counts, and keeps counting after the approver's role is revoked or the passkey removed: the role was
// held, and the key registered, when it was signed.
import { generateKeyPairSync, sign } from "node:crypto";
import { afterEach, beforeEach, expect, it } from "vitest";
import { beginApproval, finishApproval } from "@/server/approvals/approve";
import { receiptSource } from "@/server/approvals/db-source";
import { recordDecision } from "@/server/candidates/decision-record";
import { makeActor } from "@/server/auth/actor";
import { removePasskey } from "@/server/auth/passkeys";
import type { SignedPayload } from "@/server/auth/signing";
import { revokeRole } from "@/server/auth/users";
import { appendAudit, AUDIT_LOCK } from "@/server/audit/audit-log";
import { canonicalJson, sha256Digest } from "@/server/digest";
import { approvalTarget } from "@/server/gate/receipt/seal";
import { AGENT } from "@/server/gate/reference/common";
import { REFERENCE_APPROVAL_COMMENT } from "@/server/gate/reference/four-candidates";
import { loadChain, sealLink } from "@/server/receipts/links";
import { seedReferenceDemo } from "@/server/reference/reference-demo";
import { gateReport } from "@/server/receipts/report";
import { SYSTEM } from "../../helpers/auth";
import { personWithPasskey } from "../../helpers/approvals";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

describeEachDialect("check 7 rests on signed decisions in the database", (dialect) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(dialect, "decisions");
  }, 60_000);
  afterEach(() => database?.drop());

  /** Reference candidate A in this test's database, its verdict waiting for the canary approval. */
  async function candidateA(): Promise<string> {
    const [a] = await seedReferenceDemo(database, { only: ["A"], withoutApproval: ["A"], now: new Date() });
    return a!.candidateId;
  }

  it("an approval link sealed straight into the chain, naming a real canary approver, does not count", async () => {
    const alice = await personWithPasskey(database, [{ role: "canary_approver", agent: AGENT }], `Alice ${dialect}`);
    const id = await candidateA();
    const at = new Date().toISOString();
    const approves = approvalTarget(await loadChain(database.db, id), "canary")!;
    await sealLink(database, id, "approval", { step: "canary", decision: "approve", actor: { id: alice.actor.id, kind: "user", roles: ["canary_approver"] }, approves, at, comment: REFERENCE_APPROVAL_COMMENT });
    const { report } = await gateReport(database, id);
    expect(report!.verdict).toBe("READY FOR APPROVAL");
    expect(report!.checks[6]).toMatchObject({ status: "unavailable", waitingOn: "approval" });
    expect(report!.checks[6]!.explanation).toContain(`${alice.actor.id}'s approval: no signed decision is stored for it`);

    // A decision row beside it whose signature verifies over its payload — but with a key never registered to her.
    const link = (await loadChain(database.db, id)).at(-1)!;
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const signer = { kind: "user" as const, id: alice.actor.id, name: alice.actor.name };
    const payload: SignedPayload = { v: 1, purpose: "lightgate.approval/v1", data: { kind: "approval", step: "canary", decision: "approve", approves, comment: REFERENCE_APPROVAL_COMMENT }, nonce: "sn-forged", issuedAt: at, expiresAt: at, signer };
    const bytes = canonicalJson(payload);
    const raw = publicKey.export({ format: "der", type: "spki" }).subarray(12).toString("base64url");
    const signature = { v: 1, kind: "ed25519", payloadDigest: sha256Digest(bytes), signer, keyId: "bk-forged", publicKey: raw, signature: sign(null, Buffer.from(bytes), privateKey).toString("base64url") };
    await database.transaction(
      async (tx) => {
        const row = await recordDecision(tx, alice.actor, new Date(), { action: "approve", agent: AGENT, candidateId: id, step: "canary", linkDigest: link.digest, payload, signature });
        await appendAudit(tx, { actor: alice.actor, action: "approval.canary.approve", target: { type: "candidate", id }, after: { decisionId: row.id } });
      },
      { locks: [AUDIT_LOCK] },
    );
    const forged = await gateReport(database, id);
    expect(forged.decisions.records).toHaveLength(1);
    expect(forged.decisions.records[0]).toMatchObject({ signatureVerified: { ok: true }, keyRegistered: { ok: false }, rolesAtTheTime: ["canary_approver"] });
    expect(forged.report!.verdict).toBe("READY FOR APPROVAL");
    expect(forged.report!.checks[6]!.explanation).toContain(`signed with a key not registered to ${alice.actor.id}`);
  });

  it("a real signed approval counts — and still counts after the role is revoked and the passkey removed", async () => {
    const carol = await personWithPasskey(database, [{ role: "canary_approver", agent: AGENT }], `Carol ${dialect}`);
    const id = await candidateA();
    const opts = { source: receiptSource };
    const begun = await beginApproval(database, carol.actor, { agent: AGENT, candidateId: id, step: "canary" }, opts);
    await finishApproval(database, carol.actor, { agent: AGENT, payload: begun.payload, response: carol.key.assert(begun.options!) }, opts);
    const signed = await gateReport(database, id);
    expect(signed.report!.verdict).toBe("PROMOTE TO BOUNDED CANARY");
    expect(signed.decisions.records[0]).toMatchObject({ signatureVerified: { ok: true }, keyRegistered: { ok: true }, rolesAtTheTime: ["canary_approver"] });
    expect(signed.report!.checks[6]!.evidence).toMatchObject({ decision: { actor: carol.actor.id, signed: true, roles: ["canary_approver"] } });

    await revokeRole(database, SYSTEM, carol.actor.id, { role: "canary_approver", agent: AGENT });
    const passkey = await database.db.passkey.findFirstOrThrow({ where: { userId: carol.actor.id } });
    await removePasskey(database, makeActor("user", carol.actor.id, carol.actor.name, []), passkey.id);
    const later = await gateReport(database, id);
    expect(later.decisions.records[0]).toMatchObject({ signatureVerified: { ok: true }, keyRegistered: { ok: true }, rolesAtTheTime: ["canary_approver"] });
    expect(later.report!.verdict).toBe("PROMOTE TO BOUNDED CANARY");
  });
});
