// First start: a fresh instance has nobody, and /setup creates the first admin — once. Afterwards
// (or once demo people were seeded) setup is gone for good, even if every person is later removed.
import type { Database, Db } from "@/server/db/client";
import { AUDIT_LOCK } from "@/server/audit/audit-log";
import { DomainError } from "@/server/errors";
import { insertUser, prepareUser } from "./users";

const SETUP_DONE = "setup.completedAt";

export async function setupNeeded(db: Db): Promise<boolean> {
  const [done, people] = await Promise.all([db.systemSetting.findUnique({ where: { key: SETUP_DONE } }), db.user.count()]);
  return !done && people === 0;
}

export async function createFirstAdmin(database: Database, input: { name: string; email: string; password: string }) {
  const prepared = await prepareUser({ ...input, grants: [{ role: "admin", agent: null }] });
  return database.transaction(
    async (tx) => {
      const done = await tx.systemSetting.findUnique({ where: { key: SETUP_DONE } });
      if (done || (await tx.user.count()) > 0) throw new DomainError("CONFLICT", "this instance is already set up; sign in instead");
      await tx.systemSetting.create({ data: { key: SETUP_DONE, value: new Date().toISOString() } });
      // The first admin is their own creator: there is nobody else to hold responsible.
      return insertUser(tx, { kind: "user", id: prepared.id, name: prepared.name, grants: [] }, prepared, "setup.first_admin");
    },
    { locks: [AUDIT_LOCK, "setup"] },
  );
}

/** Marks setup as done without a setup page (the demo seeder). Call inside a transaction. */
export async function markSetupDone(tx: Pick<Db, "systemSetting">) {
  const done = await tx.systemSetting.findUnique({ where: { key: SETUP_DONE } });
  if (!done) await tx.systemSetting.create({ data: { key: SETUP_DONE, value: new Date().toISOString() } });
}
