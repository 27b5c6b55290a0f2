// The reference fixture's canary approver: a real person (a User with the canary_approver role for the
// reference agent and an unpublished random password), a passkey registered through the real ceremony, and
// signed approvals through the same begin/finish path the dashboard uses — so check 7 passes on a verified
// signed decision, never on a link that merely names someone. The passkey is a software authenticator whose
// private key lives only in this process: later seeds register a new one.
import { randomBytes } from "node:crypto";
import { beginApproval, finishApproval } from "@/server/approvals/approve";
import { receiptSource } from "@/server/approvals/db-source";
import { makeActor, type Actor } from "@/server/auth/actor";
import { publicOrigin } from "@/server/auth/origin";
import { beginPasskeyRegistration, finishPasskeyRegistration } from "@/server/auth/passkeys";
import { loadGrants } from "@/server/auth/roles";
import { SoftAuthenticator } from "@/server/auth/soft-authenticator";
import { createUser } from "@/server/auth/users";
import type { AuditActor } from "@/server/audit/audit-log";
import type { Database } from "@/server/db/client";
import { newId } from "@/server/digest";
import { AGENT } from "@/server/gate/reference/common";

export const REFERENCE_APPROVER = { name: "Alice Reference", email: "alice@example.com" } as const;

export type ReferenceSigner = { actor: Actor; key: SoftAuthenticator };

/** The approver, created once (with the canary_approver role for the agent), holding a fresh passkey. */
export async function referenceApprover(database: Database, by: AuditActor): Promise<ReferenceSigner | null> {
  // Passkeys need a domain origin (https or localhost): elsewhere the fixture signs nothing and A stays READY FOR APPROVAL.
  if (publicOrigin().webauthnProblems.length) return null;
  let user = await database.db.user.findUnique({ where: { email: REFERENCE_APPROVER.email }, select: { id: true, name: true, email: true } });
  if (!user) {
    const password = randomBytes(24).toString("base64url");
    user = await createUser(database, by, { ...REFERENCE_APPROVER, password, grants: [{ role: "canary_approver", agent: AGENT }] });
  }
  const actor = makeActor("user", user.id, user.name, await loadGrants(database.db, user.id), { email: user.email });
  const key = new SoftAuthenticator(publicOrigin().origin);
  const { nonce, options } = await beginPasskeyRegistration(database, actor);
  await finishPasskeyRegistration(database, actor, { nonce, name: `Reference fixture key ${newId("k").slice(-6)}`, response: key.register(options) });
  return { actor, key };
}

/** Signs the canary step of a candidate whose verdict waits for it, at `now`, as `signer`. */
export async function signCanaryApproval(database: Database, signer: ReferenceSigner, candidateId: string, comment: string, now: Date) {
  const opts = { source: receiptSource, now };
  const begun = await beginApproval(database, signer.actor, { agent: AGENT, candidateId, step: "canary", comment }, opts);
  return finishApproval(database, signer.actor, { agent: AGENT, payload: begun.payload, response: signer.key.assert(begun.options!) }, opts);
}
