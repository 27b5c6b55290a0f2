// Real signatures for the gate's unit tests, without a database: each approval link of a receipt signed with an
// Ed25519 key over a payload naming exactly that decision, as a signature record `verifySignatureOffline`
// checks (server/auth/verify-offline.ts). What the edge adds — key registered, roles at the time — is stated.
import { generateKeyPairSync, sign } from "node:crypto";
import type { SignedPayload } from "@/server/auth/signing";
import { canonicalJson, sha256Digest } from "@/server/digest";
import type { DecisionRecord, SignedDecisions } from "@/server/gate/receipt/signed-decisions";
import type { Receipt } from "@/server/gate/receipt/view";

const { privateKey, publicKey } = generateKeyPairSync("ed25519");
const rawPublicKey = publicKey.export({ format: "der", type: "spki" }).subarray(12).toString("base64url");

export function signedDecisions(receipt: Receipt): SignedDecisions {
  const records: DecisionRecord[] = receipt.approvals.map((a, i) => {
    const signer = { kind: a.actor.kind, id: a.actor.id, name: a.actor.id };
    const data = { kind: a.decision === "approve" ? "approval" : "rejection", step: a.step, decision: a.decision, approves: a.approves, comment: a.comment };
    const payload: SignedPayload = { v: 1, purpose: `lightgate.${data.kind}/v1`, data, nonce: `sn-test-${i}`, issuedAt: a.at, expiresAt: a.at, signer };
    const bytes = canonicalJson(payload);
    const signature = { v: 1, kind: "ed25519", payloadDigest: sha256Digest(bytes), signer, keyId: "bk-test", publicKey: rawPublicKey, signature: sign(null, Buffer.from(bytes), privateKey).toString("base64url") };
    return { link: a.link, payload, signature, signatureVerified: { ok: true }, keyRegistered: { ok: true }, rolesAtTheTime: a.actor.roles } as DecisionRecord;
  });
  return { records, excluded: [] };
}
