// What happens around better-auth's session creation: deactivated people get none, and every
// sign-in is recorded in the audit log.
import { APIError } from "better-auth/api";
import type { Database } from "@/server/db/client";
import { appendAudit, AUDIT_LOCK } from "@/server/audit/audit-log";
import { loadGrants } from "./roles";

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
