// Signing a payload with a passkey. The server issues the payload (with a single-use nonce, issue and
// expiry times and the signer); the WebAuthn challenge is the SHA-256 digest of its RFC 8785 form, so
// the passkey's assertion signs exactly that payload. The returned record verifies offline, later,
// with nothing but itself and the payload (verify-offline.ts).
import { generateAuthenticationOptions, verifyAuthenticationResponse, type AuthenticationResponseJSON, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { decodeClientDataJSON, isoBase64URL } from "@simplewebauthn/server/helpers";
import type { Database, Db, Tx } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import type { Actor } from "./actor";
import { canonicalJson, newId, sha256Bytes } from "@/server/digest";
import { issueNonce, NONCE_TTL_MS, spendNonce, usableNonce, type NoncePurpose } from "./nonces";
import { publicOrigin } from "./origin";

/** What gets signed. `data` is the caller's (e.g. an approval: receipt digest, verdict, decision). */
export type SignedPayload<T = unknown> = {
  v: 1;
  purpose: string;
  data: T;
  nonce: string;
  issuedAt: string;
  expiresAt: string;
  signer: { kind: "user" | "service"; id: string; name: string };
};

/** Everything needed to check a passkey signature again, offline, years later. */
export type PasskeySignatureRecord = {
  v: 1;
  kind: "webauthn";
  payloadDigest: string; // sha256:<hex> of the canonical payload
  signer: SignedPayload["signer"];
  credentialId: string;
  publicKey: string; // COSE public key, base64url
  rpId: string;
  origin: string;
  authenticatorData: string; // base64url
  clientDataJSON: string; // base64url
  signature: string; // base64url (DER for ECDSA)
  userHandle: string | null;
};

export function payloadDigest(payload: SignedPayload): Uint8Array {
  return sha256Bytes(canonicalJson(payload));
}

export function digestLabel(digest: Uint8Array): string {
  return `sha256:${Buffer.from(digest).toString("hex")}`;
}

/** A payload with its nonce and times, stored until it is signed once or expires. */
export async function issuePayload<T>(db: Db | Tx, purpose: NoncePurpose, signer: Actor, body: { purpose: string; data: T }, now: Date, ttlMs = NONCE_TTL_MS) {
  if (!body.purpose || body.purpose.length > 100) throw new DomainError("BAD_REQUEST", "purpose: name what is being signed (1–100 characters)", "purpose");
  const nonce = newId("sn");
  const payload: SignedPayload<T> = {
    v: 1,
    purpose: body.purpose,
    data: body.data,
    nonce,
    issuedAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + ttlMs).toISOString(),
    signer: { kind: signer.kind, id: signer.id, name: signer.name },
  };
  const canonical = canonicalJson(payload);
  const digest = sha256Bytes(canonical);
  await issueNonce(db, { id: nonce, purpose, actor: signer, challenge: isoBase64URL.fromBuffer(digest), payload: canonical, now, ttlMs });
  return { payload, digest };
}

/** Step 1: the payload to sign and the WebAuthn request options whose challenge is its digest. */
export async function beginSignature<T>(
  database: Database,
  actor: Actor,
  body: { purpose: string; data: T },
  opts: { now?: Date; ttlMs?: number } = {},
): Promise<{ payload: SignedPayload<T>; digest: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  if (actor.kind !== "user") throw new DomainError("FORBIDDEN", "passkey signatures are for people; release bots sign with their Ed25519 key");
  const origin = publicOrigin();
  if (origin.webauthnProblems.length) throw new DomainError("PRECONDITION_FAILED", origin.webauthnProblems.join(" "));
  const passkeys = await database.db.passkey.findMany({ where: { userId: actor.id }, select: { credentialId: true, transports: true } });
  if (passkeys.length === 0) throw new DomainError("PRECONDITION_FAILED", "register a passkey first (Settings → Security)");
  const ttlMs = opts.ttlMs ?? NONCE_TTL_MS;
  const { payload, digest } = await issuePayload(database.db, "passkey-signature", actor, body, opts.now ?? new Date(), ttlMs);
  const options = await generateAuthenticationOptions({
    rpID: origin.rpId,
    challenge: digest, // bytes, so base64url(challenge) is exactly base64url(digest)
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports ? p.transports.split(",") : undefined })),
    userVerification: "required",
    timeout: ttlMs,
  });
  return { payload, digest: digestLabel(digest), options };
}

/** The stored payload for a nonce must be exactly the one presented: any change is refused. */
export async function checkPresentedPayload(db: Db | Tx, purpose: NoncePurpose, signerId: string, payload: SignedPayload, now: Date) {
  if (!payload || typeof payload.nonce !== "string") throw new DomainError("BAD_REQUEST", "payload: missing or malformed", "payload");
  const row = await usableNonce(db, payload.nonce, purpose, signerId, now);
  const canonical = canonicalJson(payload);
  if (row.payload !== canonical) throw new DomainError("BAD_REQUEST", "payload: differs from the payload that was issued for signing", "payload");
  if (payload.signer?.id !== signerId) throw new DomainError("FORBIDDEN", "payload: issued to another signer", "payload");
  return { digest: sha256Bytes(canonical), row };
}

/**
 * Step 2: checks the assertion against the stored passkey, that its challenge is the payload's digest,
 * the signature counter, expiry and single use; spends the nonce and advances the counter. Pass the
 * transaction of the decision being signed (`tx`), so the nonce is spent only if the decision commits.
 */
export async function verifySignature(
  db: Db | Tx,
  actor: Actor,
  input: { payload: SignedPayload; response: AuthenticationResponseJSON },
  opts: { now?: Date } = {},
): Promise<PasskeySignatureRecord> {
  const now = opts.now ?? new Date();
  const { origin, rpId } = publicOrigin();
  const { digest } = await checkPresentedPayload(db, "passkey-signature", actor.id, input.payload, now);
  const challenge = isoBase64URL.fromBuffer(digest);
  const clientData = safeClientData(input.response);
  if (clientData.challenge !== challenge) throw new DomainError("BAD_REQUEST", "response: the passkey signed a different challenge than this payload's digest", "response");
  const passkey = await db.passkey.findUnique({ where: { credentialId: input.response.id } });
  if (!passkey || passkey.userId !== actor.id) throw new DomainError("FORBIDDEN", "response: not one of your registered passkeys", "response");
  const publicKey = isoBase64URL.toBuffer(passkey.publicKey);
  const result = await verifyAuthenticationResponse({
    response: input.response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpId,
    credential: { id: passkey.credentialId, publicKey, counter: Number(passkey.counter) },
    requireUserVerification: true,
  }).catch((e: Error) => {
    throw new DomainError("BAD_REQUEST", `response: the signature did not verify (${e.message})`, "response");
  });
  if (!result.verified) throw new DomainError("BAD_REQUEST", "response: the signature did not verify", "response");
  await spendNonce(db, input.payload.nonce, now);
  // Conditional on the counter we checked against: two assertions racing cannot both advance it.
  const { count } = await db.passkey.updateMany({
    where: { id: passkey.id, counter: passkey.counter },
    data: { counter: BigInt(result.authenticationInfo.newCounter), lastUsedAt: now },
  });
  if (count !== 1) throw new DomainError("CONFLICT", "response: the passkey was used concurrently; sign again");
  return {
    v: 1,
    kind: "webauthn",
    payloadDigest: digestLabel(digest),
    signer: input.payload.signer,
    credentialId: passkey.credentialId,
    publicKey: passkey.publicKey,
    rpId,
    origin,
    authenticatorData: input.response.response.authenticatorData,
    clientDataJSON: input.response.response.clientDataJSON,
    signature: input.response.response.signature,
    userHandle: input.response.response.userHandle ?? null,
  };
}

function safeClientData(response: AuthenticationResponseJSON) {
  try {
    return decodeClientDataJSON(response.response.clientDataJSON);
  } catch {
    throw new DomainError("BAD_REQUEST", "response: clientDataJSON is not readable", "response");
  }
}
