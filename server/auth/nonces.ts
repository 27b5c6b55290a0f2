// Single-use server nonces with an expiry: WebAuthn challenges and payloads awaiting a signature.
// A nonce is spent by one conditional UPDATE (still unused), so of two racing uses exactly one wins.
import type { Db, Tx } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { newId } from "@/server/digest";

export type NoncePurpose = "passkey-registration" | "passkey-signature" | "bot-signature";
export const NONCE_TTL_MS = 5 * 60_000;

export type IssuedNonce = { id: string; expiresAt: Date };

export async function issueNonce(
  db: Db | Tx,
  input: { purpose: NoncePurpose; actor: { kind: string; id: string }; challenge: string; payload?: string; id?: string; now?: Date; ttlMs?: number },
): Promise<IssuedNonce> {
  const now = input.now ?? new Date();
  const row = await db.signingNonce.create({
    data: {
      id: input.id ?? newId("sn"),
      purpose: input.purpose,
      actorKind: input.actor.kind,
      actorId: input.actor.id,
      challenge: input.challenge,
      payload: input.payload ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + (input.ttlMs ?? NONCE_TTL_MS)),
    },
  });
  return { id: row.id, expiresAt: row.expiresAt };
}

/** Reads a nonce and says why it cannot be used (unknown, someone else's, spent, expired). */
export async function usableNonce(db: Db | Tx, id: string, purpose: NoncePurpose, actorId: string, now = new Date()) {
  const row = await db.signingNonce.findUnique({ where: { id } });
  if (!row || row.purpose !== purpose) throw new DomainError("BAD_REQUEST", "nonce: unknown nonce; start again", "nonce");
  if (row.actorId !== actorId) throw new DomainError("FORBIDDEN", "nonce: this nonce was issued to someone else", "nonce");
  if (row.usedAt) throw new DomainError("CONFLICT", "nonce: already used — a replayed signature is refused", "nonce");
  if (row.expiresAt.getTime() <= now.getTime()) throw new DomainError("PRECONDITION_FAILED", "nonce: expired; start again", "nonce");
  return row;
}

/** Spends a nonce; refuses when another request spent it first. */
export async function spendNonce(db: Db | Tx, id: string, now = new Date()): Promise<void> {
  const { count } = await db.signingNonce.updateMany({ where: { id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
  if (count !== 1) throw new DomainError("CONFLICT", "nonce: already used — a replayed signature is refused", "nonce");
}

/** Housekeeping: spent or expired nonces older than a day carry no information any more. */
export async function pruneNonces(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.signingNonce.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - 24 * 3600_000) } } });
  return count;
}
