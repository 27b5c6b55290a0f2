// "Test my passkey": signs a sample payload through exactly the path an approval will take
// (beginSignature → browser → verifySignature), then re-checks the record offline.
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { Database } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import type { Actor } from "./actor";
import { beginSignature, verifySignature, type SignedPayload } from "./signing";
import { verifySignatureOffline } from "./verify-offline";

export const TEST_PURPOSE = "passkey-test";

export function beginTestSignature(database: Database, actor: Actor) {
  return beginSignature(database, actor, { purpose: TEST_PURPOSE, data: { statement: "I am checking that my passkey can sign Lightgate decisions.", email: actor.email ?? null } });
}

export async function finishTestSignature(database: Database, actor: Actor, input: { payload: SignedPayload; response: AuthenticationResponseJSON }) {
  if (input.payload.purpose !== TEST_PURPOSE) throw new DomainError("BAD_REQUEST", "payload: not a test payload", "payload");
  const record = await verifySignature(database.db, actor, input);
  const offline = await verifySignatureOffline(record, input.payload);
  const passkey = await database.db.passkey.findUniqueOrThrow({ where: { credentialId: record.credentialId }, select: { name: true, counter: true } });
  return { passkeyName: passkey.name, digest: record.payloadDigest, counter: Number(passkey.counter), verifiedOnline: true as const, verifiedOffline: offline.ok };
}
