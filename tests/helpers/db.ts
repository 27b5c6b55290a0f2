// Real databases for tests: a fresh migrated SQLite file, or a fresh migrated PostgreSQL database.
// Never a mock of our own store.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, inject } from "vitest";
import { openDatabase, type Database } from "@/server/db/client";
import { resolveDbTarget, type Dialect } from "@/server/db/config";
import { deployMigrations } from "@/server/db/migrate";
import { PG_ADMIN_URL, testDatabaseName, withAdmin } from "./postgres";

export type TestDatabase = Database & { url: string; drop(): Promise<void> };

export async function createTestDatabase(dialect: Dialect, label = "t"): Promise<TestDatabase> {
  if (dialect === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lightgate-test-"));
    const target = resolveDbTarget(`file:${path.join(dir, "test.db")}`);
    await deployMigrations(target);
    const database = await openDatabase(target);
    return {
      ...database,
      url: target.url,
      async drop() {
        await database.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = testDatabaseName(label);
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  const target = resolveDbTarget(u.toString());
  await deployMigrations(target);
  const database = await openDatabase(target);
  return {
    ...database,
    url: target.url,
    async drop() {
      await database.close();
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/**
 * Declares a suite once per dialect: always on SQLite, and on PostgreSQL when a server answers.
 * A skipped PostgreSQL suite is reported by name with its reason (the global setup prints why).
 */
export function describeEachDialect(name: string, fn: (dialect: Dialect) => void) {
  describe(`${name} [sqlite]`, () => fn("sqlite"));
  const pg = inject("postgres");
  if (pg.ok) describe(`${name} [postgresql]`, () => fn("postgresql"));
  else describe.skip(`${name} [postgresql] — skipped: ${pg.reason}`, () => fn("postgresql"));
}
