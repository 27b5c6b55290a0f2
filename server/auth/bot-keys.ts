// Release bots sign with their own registered Ed25519 key, under the same rules as passkeys: a server
// payload with a single-use nonce, expiry, replay refused. The bot signs the payload's RFC 8785 bytes.
import { createPublicKey, verify as verifyWithKey, type KeyObject } from "node:crypto";
import { appendAudit, AUDIT_LOCK, type AuditActor } from "@/server/audit/audit-log";
import type { Database, Db, Tx } from "@/server/db/client";
import { badInput, DomainError } from "@/server/errors";
import type { Actor } from "./actor";
import { canonicalJson, newId } from "@/server/digest";
import { spendNonce } from "./nonces";
import { checkPresentedPayload, digestLabel, issuePayload, type SignedPayload } from "./signing";

// DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 raw key bytes follow it.
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

export type BotSignatureRecord = {
  v: 1;
  kind: "ed25519";
  payloadDigest: string;
  signer: SignedPayload["signer"];
  keyId: string;
  publicKey: string; // raw 32 bytes, base64url
  signature: string; // 64 bytes, base64url
};

export function ed25519KeyFromRaw(raw: Uint8Array): KeyObject {
  if (raw.length !== 32) throw new Error("an Ed25519 public key is 32 bytes");
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: "der", type: "spki" });
}

/** Accepts a PEM SubjectPublicKeyInfo or 32 raw bytes in base64url/base64; returns the raw key, base64url. */
export function parseEd25519PublicKey(text: string): string {
  const trimmed = text.trim();
  try {
    if (trimmed.startsWith("-----BEGIN")) {
      const key = createPublicKey(trimmed);
      if (key.asymmetricKeyType !== "ed25519") throw new Error("not ed25519");
      const der = key.export({ format: "der", type: "spki" });
      return der.subarray(ED25519_SPKI_PREFIX.length).toString("base64url");
    }
    const raw = Buffer.from(trimmed.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""), "base64url");
    ed25519KeyFromRaw(raw);
    return raw.toString("base64url");
  } catch {
    throw badInput("publicKey", "must be an Ed25519 public key: PEM (BEGIN PUBLIC KEY) or its 32 bytes in base64");
  }
}

export async function registerBotKey(database: Database, by: AuditActor, input: { botId: string; name: string; publicKey: string }) {
  const botId = input.botId.trim();
  const name = input.name.trim();
  if (!botId) throw badInput("botId", "name the release bot's service identity");
  if (!name || name.length > 64) throw badInput("name", "1–64 characters");
  const publicKey = parseEd25519PublicKey(input.publicKey);
  return database.transaction(
    async (tx) => {
      if (await tx.botKey.findUnique({ where: { publicKey } })) throw new DomainError("CONFLICT", "publicKey: this key is already registered", "publicKey");
      const row = await tx.botKey.create({ data: { id: newId("bk"), botId, name, publicKey, createdBy: by.id } });
      await appendAudit(tx, { actor: by, action: "botkey.register", target: { type: "bot_key", id: row.id }, after: { botId, name, publicKey } });
      return row;
    },
    { locks: [AUDIT_LOCK, `botkeys:${botId}`] },
  );
}

export async function revokeBotKey(database: Database, by: AuditActor, keyId: string) {
  await database.transaction(
    async (tx) => {
      const row = await tx.botKey.findUnique({ where: { id: keyId } });
      if (!row) throw new DomainError("NOT_FOUND", "keyId: no such bot key", "keyId");
      if (row.revokedAt) return;
      await tx.botKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
      await appendAudit(tx, { actor: by, action: "botkey.revoke", target: { type: "bot_key", id: keyId }, before: { botId: row.botId, name: row.name } });
    },
    { locks: [AUDIT_LOCK, `botkeys:${keyId}`] },
  );
}

export function listBotKeys(db: Db) {
  return db.botKey.findMany({ orderBy: { createdAt: "asc" } });
}

/** Step 1 for a bot: the payload (with nonce and expiry) it must sign. */
export async function beginBotSignature<T>(database: Database, bot: Actor, body: { purpose: string; data: T }, opts: { now?: Date; ttlMs?: number } = {}) {
  if (bot.kind !== "service") throw new DomainError("FORBIDDEN", "only service identities sign with a bot key");
  const { payload, digest } = await issuePayload(database.db, "bot-signature", bot, body, opts.now ?? new Date(), opts.ttlMs);
  return { payload, digest: digestLabel(digest), signingInput: canonicalJson(payload) };
}

/**
 * Step 2: checks the signature with one of the bot's registered, unrevoked keys, the payload exactly as
 * issued, expiry and single use. Pass the decision's transaction so the nonce is spent only with it.
 */
export async function verifyBotSignature(
  db: Db | Tx,
  payload: SignedPayload,
  sig: { keyId: string; signature: string },
  opts: { now?: Date } = {},
): Promise<BotSignatureRecord> {
  const now = opts.now ?? new Date();
  const botId = payload?.signer?.id;
  if (payload?.signer?.kind !== "service" || !botId) throw new DomainError("BAD_REQUEST", "payload: not issued to a release bot", "payload");
  const { digest } = await checkPresentedPayload(db, "bot-signature", botId, payload, now);
  const key = await db.botKey.findUnique({ where: { id: sig.keyId } });
  if (!key || key.botId !== botId) throw new DomainError("FORBIDDEN", "keyId: not a key registered for this bot", "keyId");
  if (key.revokedAt) throw new DomainError("FORBIDDEN", "keyId: this key was revoked", "keyId");
  if (!ed25519Verifies(key.publicKey, canonicalJson(payload), sig.signature)) {
    throw new DomainError("BAD_REQUEST", "signature: does not verify against the payload with this key", "signature");
  }
  await spendNonce(db, payload.nonce, now);
  return { v: 1, kind: "ed25519", payloadDigest: digestLabel(digest), signer: payload.signer, keyId: key.id, publicKey: key.publicKey, signature: sig.signature };
}

export function ed25519Verifies(publicKey: string, message: string, signature: string): boolean {
  try {
    const sigBytes = Buffer.from(signature, "base64url");
    if (sigBytes.length !== 64) return false;
    return verifyWithKey(null, Buffer.from(message, "utf8"), ed25519KeyFromRaw(Buffer.from(publicKey, "base64url")), sigBytes);
  } catch {
    return false;
  }
}
