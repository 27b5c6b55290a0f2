// What happens around better-auth's session creation: guesses are throttled per account (and per device
// cookie), deactivated people get no session, and every sign-in is recorded in the audit log.
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import type { Database } from "@/server/db/client";
import { appendAudit, AUDIT_LOCK } from "@/server/audit/audit-log";
import { refusalLog } from "@/server/audit/refusal-log";
import { CLIENT_ADDRESS_HEADER } from "./client-address";
import { DEVICE_COOKIE_MAX_AGE_S, deviceCookieKey, issueDeviceCookie, readDeviceCookie } from "./device-cookie";
import { loadGrants } from "./roles";
import { isRefusal, releaseAttempt, reserveAttempt, throttleBucket, type Reservation } from "./sign-in-throttle";

const SIGN_IN = "/sign-in/email";
/** How a locked attempt's answer begins (server/http/auth-endpoints.ts knows it is recorded here already). */
export const LOCKED_MESSAGE_START = "Too many failed sign-ins";

/**
 * better-auth's own limit is per client address (server/auth/client-address.ts), which alone cannot stop
 * guessing from many addresses. Before the password is checked, an attempt reserves a slot in the budget of
 * the account (or of the email, when it names none) — or, from a browser holding a valid device cookie for the
 * account, in that cookie's own budget — and is refused (429) when the budget is spent. A failed attempt
 * keeps its slot and is audited; any other outcome gives it back. A successful sign-in issues a fresh
 * device cookie, so the person can still get in while strangers have the account locked.
 */
export function signInGuards(database: Database, authSecret: string) {
  const key = deviceCookieKey(authSecret);
  // Per request (better-auth hands both hooks the same context object): the reservation to settle.
  const held = new WeakMap<object, { reservation: Reservation; userId: string | null; email: string }>();
  return {
    before: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== SIGN_IN) return;
      const email = emailOf(ctx.body);
      if (!email) return;
      // An unknown email is counted, locked and recorded exactly as an account is (and better-auth hashes the
      // password for it as it would check one), so neither the answer, its time nor the lock says which exist.
      const user = await database.db.user.findUnique({ where: { email }, select: { id: true } });
      const device = readDeviceCookie(key, ctx.getCookie(ctx.context.createAuthCookie("device").name));
      const reservation = await reserveAttempt(database, throttleBucket(user ? { userId: user.id } : { email }, device));
      if (isRefusal(reservation)) {
        const message = user && device?.userId === user.id
          ? `${LOCKED_MESSAGE_START} from this browser. Wait 15 minutes and try again.`
          : `${LOCKED_MESSAGE_START} for this account. Wait 15 minutes, or sign in from a browser you have signed in with before.`;
        // A locked attempt is a refused credential too: recorded through the refusal log, so a flood of them
        // costs a row per address and window (server/audit/refusal-log.ts), the same for any email.
        const address = ctx.request?.headers.get(CLIENT_ADDRESS_HEADER) ?? null;
        await refusalLog(database).record({
          caller: { actor: null, credential: "password", address: address ? address.slice(0, 64) : null },
          route: "auth /sign-in/email",
          method: "POST",
          status: 429,
          reason: "locked",
          message: `${message} (${email.slice(0, 200)})`,
        });
        throw new APIError("TOO_MANY_REQUESTS", { message }, { "Retry-After": String(reservation.retryAfterS) });
      }
      held.set(ctx.context, { reservation, userId: user?.id ?? null, email });
    }),
    after: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== SIGN_IN) return;
      const attempt = held.get(ctx.context);
      held.delete(ctx.context);
      const returned = ctx.context.returned;
      if (attempt && isAPIError(returned) && returned.statusCode === 401) {
        await recordFailedSignIn(database, attempt.email, attempt.userId, ctx.request?.headers.get("user-agent") ?? null);
      } else if (attempt) {
        await releaseAttempt(database, attempt.reservation);
      }
      const session = ctx.context.newSession;
      if (session && !isAPIError(returned)) {
        const cookie = ctx.context.createAuthCookie("device", { maxAge: DEVICE_COOKIE_MAX_AGE_S, path: "/api/auth", sameSite: "strict" });
        ctx.setCookie(cookie.name, issueDeviceCookie(key, session.user.id), cookie.attributes);
      }
    }),
  };
}

function emailOf(body: unknown): string | null {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" && email.length <= 200 ? email.trim().toLowerCase() : null;
}

/** Every failed sign-in, on an existing account (`userId`) or not (null): the same row, the same cost. */
async function recordFailedSignIn(database: Database, email: string, userId: string | null, userAgent: string | null) {
  await database.transaction(
    (tx) =>
      appendAudit(tx, {
        actor: { kind: "user", id: "anonymous", name: "Unauthenticated visitor", grants: [] },
        action: "auth.sign_in_failed",
        target: { type: "account", id: email },
        after: { userId, userAgent },
      }),
    { locks: [AUDIT_LOCK] },
  );
}

export async function refuseDisabledUser(database: Database, userId: string): Promise<void> {
  const user = await database.db.user.findUnique({ where: { id: userId }, select: { disabledAt: true } });
  if (!user || user.disabledAt) throw new APIError("FORBIDDEN", { message: "This account is deactivated. Ask an admin to reactivate it." });
}

/**
 * better-auth writes the session row itself, so the audit row follows in its own transaction. If that
 * fails the session is deleted again and the error stands: the cookie is never sent, the person is not
 * signed in, and no sign-in goes unrecorded.
 */
export async function recordSignIn(database: Database, session: { id: string; userId: string; ipAddress?: string | null; userAgent?: string | null }) {
  try {
    await database.transaction(
      async (tx) => {
        const user = await tx.user.findUniqueOrThrow({ where: { id: session.userId }, select: { id: true, name: true, email: true } });
        await appendAudit(tx, {
          actor: { kind: "user", id: user.id, name: user.name, grants: await loadGrants(tx, user.id) },
          action: "auth.sign_in",
          target: { type: "session", id: session.id },
          after: { email: user.email, ipAddress: session.ipAddress ?? null, userAgent: session.userAgent ?? null },
        });
      },
      { locks: [AUDIT_LOCK] },
    );
  } catch (e) {
    await database.db.authSession.delete({ where: { id: session.id } }).catch(() => undefined);
    throw e;
  }
}
