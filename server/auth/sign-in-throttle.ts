// Failed sign-ins per account, whatever the client address: the per-address limit alone cannot stop
// guessing from many addresses. Each attempt (on an existing account or not) reserves a slot in its bucket
// BEFORE the password is checked, inside one locked transaction, so parallel guesses cannot all pass a
// check made before any of them was counted; a sign-in that succeeds gives its slot back.
import type { Database } from "@/server/db/client";
import { hexId } from "@/server/digest";

export { DEVICE_COOKIE } from "./device-cookie";

export const FAILED_SIGN_IN_LIMIT = 10;
export const FAILED_SIGN_IN_WINDOW_MS = 15 * 60_000;
const PRUNE_MARGIN_MS = 60_000;

/**
 * Whose budget an attempt uses: the account's (unknown browsers), one device cookie's, or — for an email with
 * no account — that email's, counted and locked exactly like an account's so the lock reveals no existence.
 */
export function throttleBucket(account: { userId: string } | { email: string }, device: { userId: string; nonce: string } | null): string {
  if (!("userId" in account)) return `email:${hexId(32, account.email)}`;
  return device && device.userId === account.userId ? `device:${device.nonce}` : `account:${account.userId}`;
}

export type Reservation = { bucket: string; windowStart: Date };
export type Refusal = { retryAfterS: number };

export async function reserveAttempt(database: Database, bucket: string, now = new Date()): Promise<Reservation | Refusal> {
  return database.transaction(
    async (tx) => {
      const row = await tx.signInThrottle.findUnique({ where: { bucket } });
      const cutoff = new Date(now.getTime() - FAILED_SIGN_IN_WINDOW_MS);
      if (!row || row.windowStart <= cutoff) {
        // A new window. Buckets whose window ended a while ago are forgotten here, so the table stays
        // small; the margin keeps this clear of a bucket another transaction is just counting in.
        await tx.signInThrottle.deleteMany({ where: { windowStart: { lte: new Date(cutoff.getTime() - PRUNE_MARGIN_MS) } } });
        const fresh = { count: 1, windowStart: now };
        await tx.signInThrottle.upsert({ where: { bucket }, create: { bucket, ...fresh }, update: fresh });
        return { bucket, windowStart: now };
      }
      if (row.count >= FAILED_SIGN_IN_LIMIT) {
        return { retryAfterS: Math.max(1, Math.ceil((row.windowStart.getTime() + FAILED_SIGN_IN_WINDOW_MS - now.getTime()) / 1000)) };
      }
      await tx.signInThrottle.update({ where: { bucket }, data: { count: { increment: 1 } } });
      return { bucket, windowStart: row.windowStart };
    },
    { locks: [`sign-in:${bucket}`] },
  );
}

/** Gives a reservation back (the attempt was no failed guess). A window that has since restarted is left alone. */
export async function releaseAttempt(database: Database, reservation: Reservation): Promise<void> {
  const { bucket, windowStart } = reservation;
  await database.transaction(
    async (tx) => {
      const row = await tx.signInThrottle.findUnique({ where: { bucket } });
      if (!row || row.windowStart.getTime() !== windowStart.getTime()) return;
      if (row.count <= 1) await tx.signInThrottle.delete({ where: { bucket } });
      else await tx.signInThrottle.update({ where: { bucket }, data: { count: { decrement: 1 } } });
    },
    { locks: [`sign-in:${bucket}`] },
  );
}

export function isRefusal(r: Reservation | Refusal): r is Refusal {
  return "retryAfterS" in r;
}
