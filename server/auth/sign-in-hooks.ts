// What happens around better-auth's session creation: deactivated people get none, and every
// sign-in is recorded in the audit log.
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import type { Database, Db } from "@/server/db/client";
import { appendAudit, AUDIT_LOCK } from "@/server/audit/audit-log";
import { loadGrants } from "./roles";

export const FAILED_SIGN_IN_LIMIT = 10;
export const FAILED_SIGN_IN_WINDOW_MS = 15 * 60_000;

/**
 * Failed sign-ins per account. better-auth's limit is per client address, and X-Forwarded-For — which
 * Next.js passes through when a client sends it — names that address, so it alone cannot stop guessing.
 * This counts failures per existing account (recorded in the audit log) whatever the address.
 */
export function signInGuards(database: Database) {
  return {
    before: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== "/sign-in/email") return;
      const email = emailOf(ctx.body);
      if (email && (await recentFailures(database.db, email)) >= FAILED_SIGN_IN_LIMIT) {
        throw new APIError("TOO_MANY_REQUESTS", { message: "Too many failed sign-ins for this account. Wait 15 minutes and try again." });
      }
    }),
    after: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== "/sign-in/email") return;
      const returned = ctx.context.returned;
      const email = emailOf(ctx.body);
      if (email && isAPIError(returned) && returned.statusCode === 401) {
        await recordFailedSignIn(database, email, ctx.request?.headers.get("user-agent") ?? null);
      }
    }),
  };
}

function emailOf(body: unknown): string | null {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" && email.length <= 200 ? email.trim().toLowerCase() : null;
}

async function recentFailures(db: Db, email: string, now = Date.now()): Promise<number> {
  return db.auditEvent.count({ where: { action: "auth.sign_in_failed", targetType: "account", targetId: email, at: { gt: new Date(now - FAILED_SIGN_IN_WINDOW_MS) } } });
}

/** Only attempts on accounts that exist are recorded: guesses at unknown emails protect nothing. */
async function recordFailedSignIn(database: Database, email: string, userAgent: string | null) {
  const user = await database.db.user.findUnique({ where: { email }, select: { id: true } });
  if (!user) return;
  await database.transaction(
    (tx) =>
      appendAudit(tx, {
        actor: { kind: "user", id: "anonymous", name: "Unauthenticated visitor", grants: [] },
        action: "auth.sign_in_failed",
        target: { type: "account", id: email },
        after: { userId: user.id, userAgent },
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
