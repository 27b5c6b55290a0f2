// Demo mode only (LIGHTGATE_DEMO): one person per human role, all with the same published password,
// so anyone trying Lightgate can sign in as each role. Idempotent: an existing demo person is left as is.
import { HUMAN_ROLES, ROLE_LABELS, type HumanRole } from "@/lib/auth/scopes";
import { AUDIT_LOCK } from "@/server/audit/audit-log";
import type { Database } from "@/server/db/client";
import { markSetupDone } from "./setup";
import { insertUser, prepareUser } from "./users";

export const DEMO_PASSWORD = "try-lightgate-demo";

const DEMO_NAMES: Record<HumanRole, string> = {
  viewer: "Vivian Park",
  trainer: "Theo Brandt",
  policy_owner: "Priya Nair",
  canary_approver: "Carlos Mendes",
  release_approver: "Rosa Albers",
  admin: "Ada Quinn",
};

export function demoEmail(role: HumanRole): string {
  return `${role.replace(/_/g, "-")}@lightgate.example`;
}

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

/** What the start script prints, so a person knows how to get in. */
export function demoSignInBanner(accounts: DemoAccount[], origin: string): string {
  const width = Math.max(...accounts.map((a) => a.email.length));
  const lines = accounts.map((a) => `    ${a.email.padEnd(width)}  ${a.label}`);
  return [
    `  Demo mode: sign in at ${origin}/sign-in as any of these, password "${DEMO_PASSWORD}":`,
    ...lines,
    `  (These passwords are public. Set LIGHTGATE_DEMO=0 for a real instance.)`,
  ].join("\n");
}
