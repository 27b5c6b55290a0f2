// Issuing a decision's payload to sign: people get WebAuthn request options whose challenge is its digest,
// release bots the canonical bytes to sign with their Ed25519 key. Approvals, rejections and rollbacks alike.
import type { Actor } from "@/server/auth/actor";
import { beginBotSignature } from "@/server/auth/bot-keys";
import { beginSignature } from "@/server/auth/signing";
import type { Database } from "@/server/db/client";

export async function issueDecisionPayload<T>(database: Database, actor: Actor, body: { purpose: string; data: T }, now: Date) {
  if (actor.kind === "service") {
    const { payload, digest, signingInput } = await beginBotSignature(database, actor, body, { now });
    return { payload, digest, options: null, signingInput, data: body.data };
  }
  const { payload, digest, options } = await beginSignature(database, actor, body, { now });
  return { payload, digest, options, signingInput: null, data: body.data };
}
