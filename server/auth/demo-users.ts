// Demo mode only (LIGHTGATE_DEMO): one person per human role, all with the same published password,
// so anyone trying Lightgate can sign in as each role. Idempotent: an existing demo person is left as is.
import { HUMAN_ROLES, ROLE_LABELS, type HumanRole } from "@/lib/auth/scopes";
import { DEMO_NAMES, DEMO_PASSWORD, demoEmail } from "@/lib/auth/demo-accounts";
import { AUDIT_LOCK } from "@/server/audit/audit-log";
import type { Database } from "@/server/db/client";
import { markSetupDone } from "./setup";
import { insertUser, prepareUser } from "./users";

export { DEMO_PASSWORD, demoEmail };

export type DemoAccount = { role: HumanRole; label: string; name: string; email: string; password: string; created: boolean };

export async function seedDemoUsers(database: Database): Promise<DemoAccount[]> {
  const accounts: DemoAccount[] = [];
  for (const role of HUMAN_ROLES) {
    const email = demoEmail(role);
    const base = { role, label: ROLE_LABELS[role], name: DEMO_NAMES[role], email, password: DEMO_PASSWORD };
    if (await database.db.user.findUnique({ where: { email }, select: { id: true } })) {
      accounts.push({ ...base, created: false });
      continue;
    }
    const prepared = await prepareUser({ name: base.name, email, password: DEMO_PASSWORD, grants: [{ role, agent: null }] });
    await database.transaction(
      async (tx) => {
        if (await tx.user.findUnique({ where: { email }, select: { id: true } })) return; // another process won
        await markSetupDone(tx);
        await insertUser(tx, { kind: "system", id: "demo-seed", name: "Demo seeding", grants: [] }, prepared, "user.create_demo");
      },
      { locks: [AUDIT_LOCK, `user:${email}`, "setup"] },
    );
    accounts.push({ ...base, created: true });
  }
  return accounts;
}

/** Demo people are seeded when LIGHTGATE_DEMO_USERS is on (default: LIGHTGATE_DEMO). */
export function demoUsersEnabled(source: Record<string, string | undefined> = process.env): boolean {
  const flag = (v: string | undefined) => (v === undefined || v === "" ? undefined : ["1", "true", "yes"].includes(v.toLowerCase()));
  return flag(source.LIGHTGATE_DEMO_USERS) ?? flag(source.LIGHTGATE_DEMO) ?? false;
}

/** The sign-in page lists the demo people (the passwords are public anyway) — only in demo mode. */
export function demoAccountsShown(): { email: string; label: string; password: string }[] {
  if (!demoUsersEnabled()) return [];
  return HUMAN_ROLES.map((role) => ({ email: demoEmail(role), label: ROLE_LABELS[role], password: DEMO_PASSWORD }));
}

/** What the start script prints, so a person knows how to get in. */
export function demoSignInBanner(accounts: DemoAccount[], origin: string): string {
  const width = Math.max(...accounts.map((a) => a.email.length));
  const lines = accounts.map((a) => `    ${a.email.padEnd(width)}  ${a.label}`);
  return [
    `  Demo mode: sign in at ${origin}/sign-in as any of these, password "${DEMO_PASSWORD}":`,
    ...lines,
    `  (These passwords are public: never run demo mode where others can reach it.)`,
  ].join("\n");
}
