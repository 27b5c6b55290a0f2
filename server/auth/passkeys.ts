// Registering and removing a person's passkeys (WebAuthn credentials), with @simplewebauthn/server.
import { generateRegistrationOptions, verifyRegistrationResponse, type RegistrationResponseJSON } from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { appendAudit, AUDIT_LOCK } from "@/server/audit/audit-log";
import type { Database, Db } from "@/server/db/client";
import { badInput, DomainError } from "@/server/errors";
import type { Actor } from "./actor";
import { newId } from "@/server/digest";
import { issueNonce, spendNonce, usableNonce } from "./nonces";
import { publicOrigin } from "./origin";

export type PasskeySummary = { id: string; name: string; createdAt: Date; lastUsedAt: Date | null; deviceType: string; backedUp: boolean };

function requirePerson(actor: Actor) {
  if (actor.kind !== "user") throw new DomainError("FORBIDDEN", "only people register passkeys; release bots register an Ed25519 key");
}

function requireWebAuthnOrigin() {
  const origin = publicOrigin();
  if (origin.webauthnProblems.length) throw new DomainError("PRECONDITION_FAILED", origin.webauthnProblems.join(" "));
  return origin;
}

export async function listPasskeys(db: Db, userId: string): Promise<PasskeySummary[]> {
  return db.passkey.findMany({
    where: { userId },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, createdAt: true, lastUsedAt: true, deviceType: true, backedUp: true },
  });
}

/** The security page's view: my passkeys, and whether this origin can use passkeys at all. */
export async function myPasskeys(db: Db, actor: Actor) {
  const { rpId, webauthnProblems } = publicOrigin();
  return { passkeys: await listPasskeys(db, actor.id), originProblems: webauthnProblems, rpId };
}

export async function beginPasskeyRegistration(database: Database, actor: Actor, now = new Date()) {
  requirePerson(actor);
  const { rpId } = requireWebAuthnOrigin();
  const existing = await database.db.passkey.findMany({ where: { userId: actor.id }, select: { credentialId: true, transports: true } });
  const options = await generateRegistrationOptions({
    rpName: "Lightgate",
    rpID: rpId,
    userName: actor.email ?? actor.id,
    userDisplayName: actor.name,
    userID: new TextEncoder().encode(actor.id),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports ? p.transports.split(",") : undefined })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  const nonce = await issueNonce(database.db, { purpose: "passkey-registration", actor, challenge: options.challenge, now });
  return { nonce: nonce.id, expiresAt: nonce.expiresAt, options };
}

export async function finishPasskeyRegistration(
  database: Database,
  actor: Actor,
  input: { nonce: string; name: string; response: RegistrationResponseJSON },
  now = new Date(),
): Promise<PasskeySummary> {
  requirePerson(actor);
  const { origin, rpId } = requireWebAuthnOrigin();
  const name = input.name.trim();
  if (!name || name.length > 64) throw badInput("name", "give the passkey a name of 1–64 characters");
  const challenge = await usableNonce(database.db, input.nonce, "passkey-registration", actor.id, now);
  const verification = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge: challenge.challenge,
    expectedOrigin: origin,
    expectedRPID: rpId,
    requireUserVerification: false,
  }).catch((e: Error) => ({ verified: false as const, error: e.message }));
  // A failed answer spends the challenge: every retry starts a new ceremony.
  const refuse = async (error: DomainError) => {
    await spendNonce(database.db, input.nonce, now).catch(() => undefined);
    return error;
  };
  if (!verification.verified) {
    throw await refuse(new DomainError("BAD_REQUEST", `response: the authenticator's answer did not verify${"error" in verification ? ` (${verification.error})` : ""}`, "response"));
  }
  const { credential, credentialDeviceType, credentialBackedUp, aaguid } = verification.registrationInfo;
  if (await database.db.passkey.findUnique({ where: { credentialId: credential.id }, select: { id: true } })) {
    throw await refuse(new DomainError("CONFLICT", "response: this passkey is already registered", "response"));
  }
  return database.transaction(
    async (tx) => {
      await spendNonce(tx, input.nonce, now);
      if (await tx.passkey.findUnique({ where: { credentialId: credential.id }, select: { id: true } })) {
        throw new DomainError("CONFLICT", "response: this passkey is already registered", "response");
      }
      const row = await tx.passkey.create({
        data: {
          id: newId("pk"),
          userId: actor.id,
          name,
          credentialId: credential.id,
          publicKey: isoBase64URL.fromBuffer(credential.publicKey),
          counter: BigInt(credential.counter),
          transports: (credential.transports ?? []).join(","),
          deviceType: credentialDeviceType,
          backedUp: credentialBackedUp,
          aaguid,
          createdAt: now,
        },
      });
      await appendAudit(tx, {
        actor,
        action: "passkey.register",
        target: { type: "passkey", id: row.id },
        // The public key too: a decision signed with this passkey still verifies against its registration after it is removed.
        after: { userId: actor.id, name, credentialId: credential.id, publicKey: row.publicKey, deviceType: credentialDeviceType, backedUp: credentialBackedUp, aaguid },
      });
      return { id: row.id, name: row.name, createdAt: row.createdAt, lastUsedAt: null, deviceType: row.deviceType, backedUp: row.backedUp };
    },
    { locks: [AUDIT_LOCK, `passkeys:${actor.id}`] },
  );
}

export async function removePasskey(database: Database, actor: Actor, passkeyId: string): Promise<void> {
  await database.transaction(
    async (tx) => {
      const row = await tx.passkey.findUnique({ where: { id: passkeyId } });
      if (!row || row.userId !== actor.id) throw new DomainError("NOT_FOUND", "passkeyId: you have no such passkey", "passkeyId");
      await tx.passkey.delete({ where: { id: passkeyId } });
      await appendAudit(tx, { actor, action: "passkey.remove", target: { type: "passkey", id: passkeyId }, before: { userId: actor.id, name: row.name, credentialId: row.credentialId } });
    },
    { locks: [AUDIT_LOCK, `passkeys:${actor.id}`] },
  );
}
