// Passkeys and payload signing through real WebAuthn ceremonies (a software authenticator), on both
// dialects: registration, signatures bound to the payload digest, replay, expiry, tampering, counters.
import { afterAll, beforeAll, expect, it } from "vitest";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { makeActor, type Actor } from "@/server/auth/actor";
import { canonicalJson, sha256Bytes } from "@/server/digest";
import { beginPasskeyRegistration, finishPasskeyRegistration, listPasskeys, removePasskey } from "@/server/auth/passkeys";
import { publicOrigin } from "@/server/auth/origin";
import { beginSignature, verifySignature, type SignedPayload } from "@/server/auth/signing";
import { verifySignatureOffline } from "@/server/auth/verify-offline";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { makePerson } from "../../helpers/auth";
import { SoftAuthenticator } from "@/server/auth/soft-authenticator";

const FIVE_MINUTES = 5 * 60_000;

describeEachDialect("passkeys and payload signing", (dialect) => {
  let database: TestDatabase;
  let rosa: Actor;
  let key: SoftAuthenticator;
  const { origin } = publicOrigin();

  async function register(actor: Actor, authenticator: SoftAuthenticator, name = "Laptop") {
    const { nonce, options } = await beginPasskeyRegistration(database, actor);
    return finishPasskeyRegistration(database, actor, { nonce, name, response: authenticator.register(options) });
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "passkeys");
    const person = await makePerson(database, [{ role: "release_approver", agent: null }], "Rosa Albers");
    rosa = makeActor("user", person.id, person.name, ["release_approver"], { email: person.email });
    key = new SoftAuthenticator(origin);
    await register(rosa, key);
  });
  afterAll(() => database?.drop());

  it("registers one or more passkeys per person, each recorded in the audit log", async () => {
    const second = new SoftAuthenticator(origin);
    await register(rosa, second, "Phone");
    expect((await listPasskeys(database.db, rosa.id)).map((p) => p.name)).toEqual(["Laptop", "Phone"]);
    const audit = await database.db.auditEvent.findMany({ where: { action: "passkey.register", actorId: rosa.id } });
    expect(audit).toHaveLength(2);
    // the same credential twice is refused, and so is an answer to a spent challenge
    const { nonce, options } = await beginPasskeyRegistration(database, rosa);
    const again = second.register(options);
    await expect(finishPasskeyRegistration(database, rosa, { nonce, name: "dup", response: again })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(finishPasskeyRegistration(database, rosa, { nonce, name: "dup", response: again })).rejects.toMatchObject({ code: "CONFLICT", field: "nonce" });
    const phone = (await listPasskeys(database.db, rosa.id)).find((p) => p.name === "Phone")!;
    await removePasskey(database, rosa, phone.id);
    expect(await listPasskeys(database.db, rosa.id)).toHaveLength(1);
  });

  it("refuses a registration that answers another challenge", async () => {
    const { nonce, options } = await beginPasskeyRegistration(database, rosa);
    const response = new SoftAuthenticator(origin).register({ ...options, challenge: isoBase64URL.fromBuffer(sha256Bytes("something else")) });
    await expect(finishPasskeyRegistration(database, rosa, { nonce, name: "Evil", response })).rejects.toMatchObject({ code: "BAD_REQUEST", field: "response" });
    expect(await listPasskeys(database.db, rosa.id)).toHaveLength(1);
  });

  it("the challenge is the SHA-256 of the canonical payload, and the signature verifies online and offline", async () => {
    const { payload, digest, options } = await beginSignature(database, rosa, { purpose: "passkey-test", data: { message: "hello", n: 1 } });
    expect(payload).toMatchObject({ v: 1, purpose: "passkey-test", signer: { kind: "user", id: rosa.id } });
    expect(new Date(payload.expiresAt).getTime() - new Date(payload.issuedAt).getTime()).toBe(FIVE_MINUTES);
    expect(options.challenge).toBe(isoBase64URL.fromBuffer(sha256Bytes(canonicalJson(payload))));
    expect(digest).toBe(`sha256:${Buffer.from(sha256Bytes(canonicalJson(payload))).toString("hex")}`);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([key.id]);
    const response = key.assert(options);
    const record = await verifySignature(database.db, rosa, { payload, response });
    expect(record).toMatchObject({ kind: "webauthn", payloadDigest: digest, credentialId: key.id, rpId: "localhost", origin });
    expect(await verifySignatureOffline(record, payload)).toMatchObject({ ok: true, signer: { id: rosa.id } });
    const stored = await database.db.passkey.findUniqueOrThrow({ where: { credentialId: key.id } });
    expect(Number(stored.counter)).toBe(key.counter);
    expect(stored.lastUsedAt).not.toBeNull();

    // replaying the very same signed answer is refused
    await expect(verifySignature(database.db, rosa, { payload, response })).rejects.toMatchObject({ code: "CONFLICT", field: "nonce" });

    // offline: an altered payload, a flipped signature byte, or the wrong relying party all fail
    const altered: SignedPayload = { ...payload, data: { message: "hello", n: 2 } };
    expect(await verifySignatureOffline(record, altered)).toMatchObject({ ok: false });
    const sig = isoBase64URL.toBuffer(record.signature);
    sig[sig.length - 1] = sig.at(-1)! ^ 1;
    expect(await verifySignatureOffline({ ...record, signature: isoBase64URL.fromBuffer(sig) }, payload)).toMatchObject({ ok: false });
    expect(await verifySignatureOffline(record, payload, { rpId: "lightgate.example.org" })).toMatchObject({ ok: false });
  });

  it("an altered payload is refused online, whether presented altered or signed with another challenge", async () => {
    const { payload, options } = await beginSignature(database, rosa, { purpose: "passkey-test", data: { amount: 1 } });
    const altered: SignedPayload = { ...payload, data: { amount: 1000 } };
    await expect(verifySignature(database.db, rosa, { payload: altered, response: key.assert(options) })).rejects.toMatchObject({ code: "BAD_REQUEST", field: "payload" });
    const otherDigest = isoBase64URL.fromBuffer(sha256Bytes(canonicalJson(altered)));
    await expect(verifySignature(database.db, rosa, { payload, response: key.assert(options, { challenge: otherDigest }) })).rejects.toMatchObject({ code: "BAD_REQUEST", field: "response" });
  });

  it("an expired payload is refused, a fresh one still works", async () => {
    const t0 = new Date(Date.now() - FIVE_MINUTES - 1_000);
    const stale = await beginSignature(database, rosa, { purpose: "passkey-test", data: {} }, { now: t0 });
    await expect(verifySignature(database.db, rosa, { payload: stale.payload, response: key.assert(stale.options) })).rejects.toMatchObject({ code: "PRECONDITION_FAILED", field: "nonce" });
    const edge = await beginSignature(database, rosa, { purpose: "passkey-test", data: {} }, { now: t0 });
    const justInTime = new Date(t0.getTime() + FIVE_MINUTES - 1);
    await expect(verifySignature(database.db, rosa, { payload: edge.payload, response: key.assert(edge.options) }, { now: justInTime })).resolves.toMatchObject({ kind: "webauthn" });
  });

  it("a counter that goes backwards (a cloned authenticator) is refused", async () => {
    const { payload, options } = await beginSignature(database, rosa, { purpose: "passkey-test", data: {} });
    key.counter -= 2;
    await expect(verifySignature(database.db, rosa, { payload, response: key.assert(options) })).rejects.toMatchObject({ code: "BAD_REQUEST", field: "response" });
    key.counter += 5;
  });

  it("refuses a signature without user verification, another person's passkey, or another person's nonce", async () => {
    const { payload, options } = await beginSignature(database, rosa, { purpose: "passkey-test", data: {} });
    key.userVerified = false;
    await expect(verifySignature(database.db, rosa, { payload, response: key.assert(options) })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    key.userVerified = true;

    const theo = await makePerson(database, [{ role: "trainer", agent: null }], "Theo Brandt");
    const theoActor = makeActor("user", theo.id, theo.name, ["trainer"], { email: theo.email });
    const theoKey = new SoftAuthenticator(origin);
    await register(theoActor, theoKey);
    const mine = await beginSignature(database, rosa, { purpose: "passkey-test", data: {} });
    await expect(verifySignature(database.db, rosa, { payload: mine.payload, response: theoKey.assert(mine.options) })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(verifySignature(database.db, theoActor, { payload: mine.payload, response: theoKey.assert(mine.options) })).rejects.toMatchObject({ code: "FORBIDDEN", field: "nonce" });
  });

  it("a person without a passkey is told to register one; services cannot use passkeys", async () => {
    const nobody = await makePerson(database, [{ role: "viewer", agent: null }]);
    await expect(beginSignature(database, makeActor("user", nobody.id, nobody.name, ["viewer"]), { purpose: "x", data: {} })).rejects.toMatchObject({ code: "PRECONDITION_FAILED" });
    await expect(beginSignature(database, makeActor("service", "bot-1", "Bot", ["release_bot"]), { purpose: "x", data: {} })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
