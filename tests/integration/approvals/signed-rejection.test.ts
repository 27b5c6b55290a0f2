// Rejections are signed like approvals and rollbacks, on both dialects: the server issues the payload (the
// receipt head, the link decided on, the verdict, the comment), the rejecter's passkey signs its digest, and
// one transaction verifies the signature, spends the nonce, re-checks the receipt, seals the reject link and
// stores the decision with its payload, signature and DSSE statement — which `npm run verify-receipt` checks
// offline, as a second process.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { beginApproval, finishApproval } from "@/server/approvals/approve";
import { beginRejection, finishRejection } from "@/server/approvals/reject";
import { verifyDecisionStatement } from "@/server/approvals/statement";
import type { Actor } from "@/server/auth/actor";
import { verifySignatureOffline, type SignatureRecord } from "@/server/auth/verify-offline";
import type { SignedPayload } from "@/server/auth/signing";
import { signEnvelope } from "@/server/gate/export/dsse";
import { IN_TOTO_PAYLOAD_TYPE } from "@/server/gate/export/statement";
import { canonicalJson } from "@/server/digest";
import { receiptSigningKey } from "@/server/keys/signing-key";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { AGENT, personWithPasskey, REFERENCE_NOW, referenceWorld, pointersBackToParent, type ReferenceWorld } from "../../helpers/approvals";
import { startScript } from "../../helpers/script-process";
import type { SoftAuthenticator } from "@/server/auth/soft-authenticator";

const now = REFERENCE_NOW;

describeEachDialect("signed rejections", (dialect) => {
  let database: TestDatabase;
  let world: ReferenceWorld;
  let carl: { actor: Actor; key: SoftAuthenticator };
  let rosa: { actor: Actor; key: SoftAuthenticator };
  const opts = () => ({ source: world.source, now });

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "rejections");
    carl = await personWithPasskey(database, [{ role: "canary_approver", agent: AGENT }], "Carl Canary");
    rosa = await personWithPasskey(database, [{ role: "release_approver", agent: null }], "Rosa Approver");
  }, 60_000);
  afterAll(() => database?.drop());
  beforeEach(async () => {
    world = referenceWorld();
    await pointersBackToParent(database);
  });

  it("the payload names what the rejecter saw; the decision stores it with the passkey's signature, which verifies offline", async () => {
    const id = world.add("A");
    const stage3 = world.chain(id).at(-1)!;
    const begun = await beginRejection(database, carl.actor, { agent: AGENT, candidateId: id, comment: "  Refund replies are too terse.  " }, opts());
    expect(begun.payload).toMatchObject({ purpose: "lightgate.rejection/v1", signer: { id: carl.actor.id, kind: "user" } });
    expect(begun.data).toMatchObject({ kind: "rejection", candidateId: id, step: "canary", decision: "reject", receiptDigest: stage3.digest, approves: stage3.digest, verdict: "READY FOR APPROVAL", comment: "Refund replies are too terse." });
    // the WebAuthn challenge is the payload's digest, as for approvals
    expect(Buffer.from(begun.options!.challenge, "base64url").toString("hex")).toBe(begun.digest.slice("sha256:".length));

    const done = await finishRejection(database, carl.actor, { agent: AGENT, payload: begun.payload, response: carl.key.assert(begun.options!) }, opts());
    const link = world.chain(id).at(-1)!;
    expect(link).toMatchObject({ kind: "approval", digest: done.linkDigest, content: { decision: "reject", step: "canary", approves: stage3.digest, comment: "Refund replies are too terse." } });
    const row = await database.db.approvalDecision.findUniqueOrThrow({ where: { id: done.decisionId } });
    expect(row).toMatchObject({ action: "reject", linkDigest: link.digest, actorId: carl.actor.id });
    const payload = JSON.parse(row.payload!) as SignedPayload;
    const signature = JSON.parse(row.signature!) as SignatureRecord;
    expect(signature.kind).toBe("webauthn");
    expect(await verifySignatureOffline(signature, payload)).toMatchObject({ ok: true });
    const key = await receiptSigningKey(database.db);
    const verified = await verifyDecisionStatement(JSON.parse(row.envelope!), [key.publicKey]);
    expect(verified.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verified.ok).toBe(true);
    expect(verified.statement!.predicate.action).toBe("rejection");
    const audit = await database.db.auditEvent.findFirstOrThrow({ where: { action: "approval.canary.reject", targetId: id } });
    expect(JSON.parse(audit.after!)).toMatchObject({ decisionId: row.id, linkDigest: link.digest, signature: signature.payloadDigest });
  });

  it("a payload signed before the receipt moved is refused at commit, and nothing is sealed", async () => {
    const id = world.add("A");
    const rejection = await beginRejection(database, carl.actor, { agent: AGENT, candidateId: id, comment: "too wide a boundary" }, opts());
    // meanwhile a release approver approves: the receipt's head moves
    const approval = await beginApproval(database, rosa.actor, { agent: AGENT, candidateId: id, step: "canary" }, opts());
    await finishApproval(database, rosa.actor, { payload: approval.payload, response: rosa.key.assert(approval.options!) }, opts());
    const head = world.chain(id).at(-1)!.digest;
    await expect(finishRejection(database, carl.actor, { payload: rejection.payload, response: carl.key.assert(rejection.options!) }, opts())).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/receipt changed since it was loaded/) });
    expect(world.chain(id).at(-1)!.digest).toBe(head);
    expect(await database.db.approvalDecision.count({ where: { action: "reject", payload: { contains: rejection.payload.nonce } } })).toBe(0);
  });

  it("a payload changed after it was issued (another comment) is refused, whatever signed it", async () => {
    const id = world.add("A");
    const begun = await beginRejection(database, carl.actor, { agent: AGENT, candidateId: id, comment: "what I meant" }, opts());
    const edited = { ...begun.payload, data: { ...(begun.payload.data as object), comment: "what I did not say" } };
    await expect(finishRejection(database, carl.actor, { payload: edited, response: carl.key.assert(begun.options!) }, opts())).rejects.toMatchObject({ code: "BAD_REQUEST", field: "payload" });
    expect(world.chain(id).at(-1)!.kind).toBe("stage3");
  });

  it("npm run verify-receipt verifies a signed rejection offline, and refuses one whose signed comment was changed", async () => {
    const id = world.add("A");
    const begun = await beginRejection(database, carl.actor, { agent: AGENT, candidateId: id, comment: "Escalations skip the human queue." }, opts());
    const done = await finishRejection(database, carl.actor, { payload: begun.payload, response: carl.key.assert(begun.options!) }, opts());
    const row = await database.db.approvalDecision.findUniqueOrThrow({ where: { id: done.decisionId } });
    const key = await receiptSigningKey(database.db);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lightgate-rejection-"));
    try {
      fs.writeFileSync(path.join(dir, "rejection.json"), row.envelope!);
      fs.writeFileSync(path.join(dir, "key.pem"), key.publicPem);
      // The same statement with another comment, re-signed by the server key: only the rejecter's signature can tell.
      const statement = JSON.parse(Buffer.from((JSON.parse(row.envelope!) as { payload: string }).payload, "base64").toString("utf8")) as { predicate: { payload: { data: { comment: string } } } };
      statement.predicate.payload.data.comment = "Fine by me.";
      fs.writeFileSync(path.join(dir, "edited.json"), JSON.stringify(signEnvelope(Buffer.from(canonicalJson(statement)), IN_TOTO_PAYLOAD_TYPE, key.privateKey, key.keyid)));
      const run = async (file: string) => {
        const p = startScript("scripts/verify-receipt.ts", [path.join(dir, file), "--key", path.join(dir, "key.pem")], { ...process.env });
        return { code: await p.exited, out: p.output() };
      };
      const ok = await run("rejection.json");
      expect(ok.out).toContain("rejection signed by Carl Canary");
      expect(ok.out).toMatch(/✓ decision link: canary step rejected by/);
      expect(ok.out).toMatch(/✓ approver signature: webauthn signature over sha256:/);
      expect(ok.out.trim().split("\n").at(-1)).toBe("VERIFIED");
      expect(ok.code).toBe(0);
      const edited = await run("edited.json");
      expect(edited.out).toMatch(/✗ approver signature: the payload's digest differs/);
      expect(edited.out.trim().split("\n").at(-1)).toBe("NOT VERIFIED");
      expect(edited.code).toBe(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
