// A receipt's admitted rollouts are its evidence: checks 2 and 3 read them, and late-evidence compares them with
// the store. Retention (server/store/retention.ts) never deletes a rollout under a hold, so every stage 2 holds
// the rollouts it admits under `receipt:<candidate id>` — as they are read and again in the transaction that
// seals the link — whichever path sealed it (a gate run on a declared or a registered candidate, the reference).
import type { Db, Tx } from "@/server/db/client";

export const receiptHoldReason = (candidateId: string) => `receipt:${candidateId}`;

/** Holds `rolloutIds` for the candidate's receipt on the caller's client (inside the seal's transaction). */
export async function holdAdmittedIn(db: Db | Tx, candidateId: string, rolloutIds: readonly string[]): Promise<void> {
  const reason = receiptHoldReason(candidateId);
  for (let i = 0; i < rolloutIds.length; i += 500) {
    const ids = rolloutIds.slice(i, i + 500);
    // createMany's skipDuplicates is not on SQLite: the seal holds the receipt lock, so read-then-insert is safe.
    const held = new Set((await db.retentionHold.findMany({ where: { reason, rolloutId: { in: ids } }, select: { rolloutId: true } })).map((h) => h.rolloutId));
    const missing = [...new Set(ids)].filter((id) => !held.has(id));
    if (missing.length) await db.retentionHold.createMany({ data: missing.map((rolloutId) => ({ rolloutId, reason })) });
  }
}
