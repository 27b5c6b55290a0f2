// Checking a signature record long after the fact, with no database: the record and the payload are
// enough. Used by `npm run verify-receipt` (later) and by the "test my passkey" action right away.
import { verifyAuthenticationResponse } from "@simplewebauthn/server";
import { decodeClientDataJSON, isoBase64URL } from "@simplewebauthn/server/helpers";
import { canonicalJson, sha256Bytes } from "@/server/digest";
import { ed25519Verifies, type BotSignatureRecord } from "./bot-keys";
import { digestLabel, type PasskeySignatureRecord, type SignedPayload } from "./signing";

export type SignatureRecord = PasskeySignatureRecord | BotSignatureRecord;
export type OfflineVerdict = { ok: true; signer: SignedPayload["signer"]; digest: string } | { ok: false; reason: string };

/**
 * Does `record` sign exactly `payload`? Checks the digest, the signer, and the signature itself —
 * for passkeys also that the challenge inside clientDataJSON is the payload's digest (the signature
 * alone binds only clientDataJSON), the origin and RP id, and user verification.
 * Expiry and single use were the online check's job; a record verified then stays valid.
 */
export async function verifySignatureOffline(record: SignatureRecord, payload: SignedPayload, expected: { rpId?: string; origin?: string } = {}): Promise<OfflineVerdict> {
  const canonical = canonicalJson(payload);
  const digest = sha256Bytes(canonical);
  if (record.payloadDigest !== digestLabel(digest)) return { ok: false, reason: "the payload's digest differs from the signed digest" };
  if (record.signer.id !== payload.signer.id || record.signer.kind !== payload.signer.kind) return { ok: false, reason: "the payload names another signer" };
  if (record.kind === "ed25519") {
    return ed25519Verifies(record.publicKey, canonical, record.signature) ? { ok: true, signer: record.signer, digest: record.payloadDigest } : { ok: false, reason: "the Ed25519 signature does not verify" };
  }
  const challenge = isoBase64URL.fromBuffer(digest);
  try {
    if (decodeClientDataJSON(record.clientDataJSON).challenge !== challenge) return { ok: false, reason: "the passkey signed a different challenge" };
  } catch {
    return { ok: false, reason: "clientDataJSON is not readable" };
  }
  if (expected.rpId && expected.rpId !== record.rpId) return { ok: false, reason: `signed for ${record.rpId}, expected ${expected.rpId}` };
  if (expected.origin && expected.origin !== record.origin) return { ok: false, reason: `signed on ${record.origin}, expected ${expected.origin}` };
  try {
    const result = await verifyAuthenticationResponse({
      response: {
        id: record.credentialId,
        rawId: record.credentialId,
        type: "public-key",
        clientExtensionResults: {},
        response: { authenticatorData: record.authenticatorData, clientDataJSON: record.clientDataJSON, signature: record.signature, userHandle: record.userHandle ?? undefined },
      },
      expectedChallenge: challenge,
      expectedOrigin: record.origin,
      expectedRPID: record.rpId,
      // Counter monotonicity is an online property; offline there is no earlier counter to compare.
      credential: { id: record.credentialId, publicKey: isoBase64URL.toBuffer(record.publicKey), counter: 0 },
      requireUserVerification: true,
    });
    return result.verified ? { ok: true, signer: record.signer, digest: record.payloadDigest } : { ok: false, reason: "the passkey signature does not verify" };
  } catch (e) {
    return { ok: false, reason: `the passkey signature does not verify (${(e as Error).message})` };
  }
}

/** The same for a record and payload read back from a file or a database row (any shape): never throws. */
export async function verifyStoredSignature(record: unknown, payload: unknown): Promise<OfflineVerdict> {
  if (!record || typeof record !== "object" || !payload || typeof payload !== "object") return { ok: false, reason: "no signature record and payload to check" };
  try {
    return await verifySignatureOffline(record as SignatureRecord, payload as SignedPayload);
  } catch (e) {
    return { ok: false, reason: `unreadable signature record (${(e as Error).message})` };
  }
}
