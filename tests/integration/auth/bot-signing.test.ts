// Release bots sign payloads with a registered Ed25519 key: same nonce, expiry and replay rules as people.
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeActor } from "@/server/auth/actor";
import { beginBotSignature, registerBotKey, revokeBotKey, verifyBotSignature } from "@/server/auth/bot-keys";
import type { SignedPayload } from "@/server/auth/signing";
import { verifySignatureOffline } from "@/server/auth/verify-offline";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { SYSTEM } from "../../helpers/auth";

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return { privateKey, pem: publicKey.export({ format: "pem", type: "spki" }).toString(), raw: publicKey.export({ format: "der", type: "spki" }).subarray(12).toString("base64") };
}
const signWith = (key: KeyObject, payload: SignedPayload, canonical: string) => sign(null, Buffer.from(canonical), key).toString("base64url");

describeEachDialect("release-bot signatures (Ed25519)", (dialect) => {
  let database: TestDatabase;
  const bot = makeActor("service", "svc-release-bot", "Release bot", ["release_bot"]);
  const otherBot = makeActor("service", "svc-other-bot", "Other bot", ["release_bot"]);
  const main = keyPair();
  let keyId: string;

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "botkeys");
    keyId = (await registerBotKey(database, SYSTEM, { botId: bot.id, name: "ci", publicKey: main.pem })).id;
  });
  afterAll(() => database?.drop());

  it("accepts a key as PEM or raw base64, refuses anything else, and audits registration", async () => {
    await expect(registerBotKey(database, SYSTEM, { botId: bot.id, name: "dup", publicKey: main.raw })).rejects.toMatchObject({ code: "CONFLICT", field: "publicKey" });
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ format: "pem", type: "spki" }).toString();
    await expect(registerBotKey(database, SYSTEM, { botId: bot.id, name: "rsa", publicKey: rsa })).rejects.toMatchObject({ code: "BAD_REQUEST", field: "publicKey" });
    await expect(registerBotKey(database, SYSTEM, { botId: bot.id, name: "short", publicKey: "AAAA" })).rejects.toMatchObject({ field: "publicKey" });
    expect(await database.db.auditEvent.count({ where: { action: "botkey.register" } })).toBe(1);
  });

  it("a correct signature is accepted once and verifies offline; a replay is refused", async () => {
    const { payload, signingInput } = await beginBotSignature(database, bot, { purpose: "approval", data: { receipt: "sha256:ab", decision: "canary" } });
    const signature = signWith(main.privateKey, payload, signingInput);
    const record = await verifyBotSignature(database.db, payload, { keyId, signature });
    expect(record).toMatchObject({ kind: "ed25519", keyId, signer: { id: bot.id } });
    expect(await verifySignatureOffline(record, payload)).toMatchObject({ ok: true });
    expect(await verifySignatureOffline(record, { ...payload, data: { receipt: "sha256:ab", decision: "default" } })).toMatchObject({ ok: false });
    await expect(verifyBotSignature(database.db, payload, { keyId, signature })).rejects.toMatchObject({ code: "CONFLICT", field: "nonce" });
  });

  it("refuses an altered payload, a wrong signature, an expired payload, another bot's key and a revoked key", async () => {
    const a = await beginBotSignature(database, bot, { purpose: "approval", data: { n: 1 } });
    const altered = { ...a.payload, data: { n: 2 } };
    await expect(verifyBotSignature(database.db, altered, { keyId, signature: signWith(main.privateKey, altered, JSON.stringify(altered)) })).rejects.toMatchObject({ field: "payload" });
    await expect(verifyBotSignature(database.db, a.payload, { keyId, signature: signWith(keyPair().privateKey, a.payload, a.signingInput) })).rejects.toMatchObject({ code: "BAD_REQUEST", field: "signature" });

    const old = await beginBotSignature(database, bot, { purpose: "approval", data: {} }, { now: new Date(Date.now() - 6 * 60_000) });
    await expect(verifyBotSignature(database.db, old.payload, { keyId, signature: signWith(main.privateKey, old.payload, old.signingInput) })).rejects.toMatchObject({ code: "PRECONDITION_FAILED" });

    const other = keyPair();
    const otherKey = await registerBotKey(database, SYSTEM, { botId: otherBot.id, name: "other", publicKey: other.pem });
    const b = await beginBotSignature(database, bot, { purpose: "approval", data: {} });
    await expect(verifyBotSignature(database.db, b.payload, { keyId: otherKey.id, signature: signWith(other.privateKey, b.payload, b.signingInput) })).rejects.toMatchObject({ code: "FORBIDDEN", field: "keyId" });

    await revokeBotKey(database, SYSTEM, keyId);
    await expect(verifyBotSignature(database.db, b.payload, { keyId, signature: signWith(main.privateKey, b.payload, b.signingInput) })).rejects.toMatchObject({ code: "FORBIDDEN", field: "keyId" });
  });

  it("people cannot start a bot signature", async () => {
    await expect(beginBotSignature(database, makeActor("user", "usr-x", "X", ["admin"]), { purpose: "approval", data: {} })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
