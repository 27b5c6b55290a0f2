// Real databases for tests: a fresh migrated SQLite file, or a fresh migrated PostgreSQL database.
// Never a mock of our own store.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, inject } from "vitest";
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
 * Declares a suite once per dialect: always on SQLite, and on PostgreSQL when a server answers — in every run
 * for the suites POSTGRES_EVERY_RUN names (or marked "always"), in the full run for the others. A skipped
 * PostgreSQL suite is reported by name with its reason.
 */
/** `sqlite: "never"`: what is tested exists on PostgreSQL only (a statement SQLite has no use for). */
export function describeEachDialect(name: string, fn: (dialect: Dialect) => void, opts: { postgresql?: "always" | "full-run"; sqlite?: "never" } = {}) {
  if (opts.sqlite === "never") describe.skip(`${name} [sqlite] — PostgreSQL only`, () => fn("sqlite"));
  else describe(`${name} [sqlite]`, () => fn("sqlite"));
  const pg = inject("postgres");
  const file = expect.getState().testPath ?? "";
  const postgresql = opts.postgresql ?? (POSTGRES_EVERY_RUN.some((p) => file.includes(p)) ? "always" : "full-run");
  if (!pg.ok) describe.skip(`${name} [postgresql] — skipped: ${pg.reason}`, () => fn("postgresql"));
  else if (postgresql === "full-run" && !FULL_RUN) describe.skip(`${name} [postgresql] — in the full run only (${FULL_RUN_HINT})`, () => fn("postgresql"));
  else describe(`${name} [postgresql]`, () => fn("postgresql"));
}

/**
 * Where the dialect is the point, the PostgreSQL half runs in every run: the store's SQL and its concurrency,
 * what the database itself enforces (append-only triggers on the audit log and approvals, the trigger keeping an
 * exact parent loadable, NUL and bounds in text), migrations and the schema, leases, pointer moves under locks,
 * null ordering, the hand-written SQL of external trainings. Elsewhere — gates, training, registries, sign-in,
 * sessions, signed approvals and audit checkpoints driven through the product's interfaces — PostgreSQL changes
 * only the adapter underneath: `npm run test:full` runs those too (CI's 30 minutes on two cores do not hold both).
 */
const POSTGRES_EVERY_RUN = [
  "tests/integration/store/",
  "tests/integration/audit/audit-log",
  "tests/integration/approvals/append-only",
  "tests/integration/approvals/parent-loadable",
  "tests/integration/http/nul-text",
  "tests/integration/http/postgres-bounds",
  "tests/integration/db-",
  "tests/integration/migration",
  "tests/integration/schema",
  "tests/integration/gate-api/hostile",
  "tests/integration/receipts/default-pointer",
  "tests/integration/receipts/pointer-http",
  "tests/integration/receipts/gate-run-lease",
  "tests/integration/training/worker-resume",
  "tests/integration/training/runs-list-sort",
];

/**
 * `npm run test:full` (LIGHTGATE_TEST_FULL=1): also the PostgreSQL half of the suites below POSTGRES_EVERY_RUN's
 * reach (and of those marked "full-run"), which `npm test` runs on SQLite alone to stay inside CI's time on two
 * cores. They drive whole gate runs or training
 * through runner processes, or time a hundred scrypt-bound sign-ins, where the dialect changes nothing but the
 * adapter; what PostgreSQL changes — locks,
 * several processes, concurrent writers — has its own suites on both dialects in every run (the promotion and
 * run-lifecycle model tests, the store, multi-process and audit suites).
 */
export const FULL_RUN = process.env.LIGHTGATE_TEST_FULL === "1";
const FULL_RUN_HINT = "npm run test:full";
