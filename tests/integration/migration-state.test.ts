// The read-only migration state (server/db/migration-state.ts) says what Prisma's schema engine says about
// the same history table, on both dialects, without the engine; and deployMigrations runs the engine only
// when something is pending, so it neither waits on nor breaks a database that a server holds open.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveDbTarget, type DbTarget } from "@/server/db/config";
import { deployMigrations, MigrationBlockedError, readMigrations, withEngine } from "@/server/db/migrate";
import { readMigrationState } from "@/server/db/migration-state";
import { migrationsOnDisk } from "@/server/db/migration-files";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../helpers/db";
import { PG_ADMIN_URL, testDatabaseName, withAdmin } from "../helpers/postgres";

/** What the schema engine's own diagnosis says (the way `prisma migrate status` reads it). */
async function engineView(target: DbTarget) {
  const out = await withEngine(target, (engine) =>
    engine.diagnoseMigrationHistory({ migrationsList: readMigrations(target.dialect), optInToShadowDatabase: false, filters: { externalTables: [], externalEnums: [] } }),
  );
  const h = out.history;
  return {
    pending: h && h.diagnostic !== "migrationsDirectoryIsBehind" ? h.unappliedMigrationNames : [],
    unknown: h && h.diagnostic !== "databaseIsBehind" ? h.unpersistedMigrationNames : [],
    failed: out.failedMigrationNames,
    edited: [...out.editedMigrationNames].sort(),
    upToDate: out.hasMigrationsTable && !h && out.failedMigrationNames.length === 0 && out.editedMigrationNames.length === 0,
  };
}

async function ourView(target: DbTarget) {
  const s = await readMigrationState(target);
  return { pending: s.pending, unknown: s.unknown, failed: s.failed, edited: [...s.edited].sort(), upToDate: s.upToDate };
}

const names = () => migrationsOnDisk("sqlite").map((m) => m.name);

describeEachDialect("migration state, read-only", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "migstate");
  });
  afterAll(() => database?.drop());

  it("a migrated database is up to date, as the engine says", async () => {
    const s = await readMigrationState(database.target);
    expect(s.onDisk).toEqual(migrationsOnDisk(dialect).map((m) => m.name));
    expect(s.applied).toEqual(s.onDisk);
    expect(s).toMatchObject({ pending: [], failed: [], edited: [], unknown: [], upToDate: true });
    expect(await ourView(database.target)).toEqual(await engineView(database.target));
  });

  it("names an edited file, a failed run, a row the disk does not have and a missing row like the engine", async () => {
    const [first, , third, fourth] = migrationsOnDisk(dialect).map((m) => m.name);
    const edits = [
      () => database.db.$executeRaw`UPDATE "_prisma_migrations" SET checksum = 'not-the-file' WHERE migration_name = ${first}`,
      () => database.db.$executeRaw`UPDATE "_prisma_migrations" SET finished_at = NULL WHERE migration_name = ${third}`,
      () => database.db.$executeRaw`UPDATE "_prisma_migrations" SET rolled_back_at = CURRENT_TIMESTAMP WHERE migration_name = ${fourth}`,
      () =>
        database.db.$executeRaw`INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
          VALUES ('from-newer-checkout', 'abc', CURRENT_TIMESTAMP, '29991231000000_from_newer_checkout', CURRENT_TIMESTAMP, 1)`,
    ];
    for (const edit of edits) {
      await edit();
      expect(await ourView(database.target)).toEqual(await engineView(database.target));
    }
    const s = await readMigrationState(database.target);
    expect(s).toMatchObject({ edited: [first], failed: [third], unknown: ["29991231000000_from_newer_checkout"], upToDate: false });
    expect(s.pending).toEqual([fourth]);
    expect(s.applied).not.toContain(third);

    await database.db.$executeRaw`DELETE FROM "_prisma_migrations" WHERE migration_name <> ${first}`;
    const behind = await readMigrationState(database.target);
    expect(behind.pending).toEqual(s.onDisk.slice(1));
    expect(await ourView(database.target)).toEqual(await engineView(database.target));
  });
});

describe("migration state of a database that has none yet", () => {
  it("SQLite: a missing file and an empty file have every migration pending", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lightgate-migstate-"));
    try {
      const target = resolveDbTarget(`file:${path.join(dir, "new.db")}`);
      expect(await readMigrationState(target)).toMatchObject({ applied: [], pending: names(), upToDate: false });
      expect(fs.existsSync(path.join(dir, "new.db"))).toBe(false); // reading does not create it
      new BetterSqlite3(path.join(dir, "new.db")).close();
      expect(await readMigrationState(target)).toMatchObject({ applied: [], pending: names(), upToDate: false });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeEachDialect("deployMigrations beside an open database", (dialect) => {
  it("returns at once when nothing is pending, without the engine", async () => {
    const database = await createTestDatabase(dialect, "deploy-held");
    // What the engine needs and cannot get while a server runs: the SQLite file to itself (a second
    // connection in WAL mode is enough to refuse it); on PostgreSQL, Prisma's migration advisory lock.
    const hold =
      dialect === "sqlite"
        ? (() => {
            const conn = new BetterSqlite3((database.target as { file: string }).file);
            conn.prepare("SELECT count(*) FROM sqlite_master").get();
            return { release: async () => conn.close() };
          })()
        : await (async () => {
            const client = new pg.Client({ connectionString: database.url });
            await client.connect();
            await client.query("SELECT pg_advisory_lock(72707369)");
            return { release: () => client.end() };
          })();
    try {
      const t0 = Date.now();
      expect(await deployMigrations(database.target)).toEqual([]);
      expect(Date.now() - t0).toBeLessThan(2_000);
    } finally {
      await hold.release();
      await database.drop();
    }
  });
});

describe("deployMigrations with a migration pending and the SQLite file held", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "lightgate-deploy-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("waits its bound, refuses in one line saying what to do, then applies once the file is free", { timeout: 60_000 }, async () => {
    const file = path.join(dir, "held.db");
    const target = resolveDbTarget(`file:${file}`);
    const holder = new BetterSqlite3(file);
    holder.pragma("journal_mode = WAL");
    holder.prepare("SELECT count(*) FROM sqlite_master").get();

    const t0 = Date.now();
    const refused = await deployMigrations(target, { waitMs: 1_000 }).catch((e: unknown) => e);
    const took = Date.now() - t0;
    expect(refused).toBeInstanceOf(MigrationBlockedError);
    const message = (refused as Error).message;
    expect(message).not.toContain("\n");
    expect(message).not.toMatch(/SocketTimeout|WASM/);
    expect(message).toContain(file);
    expect(message).toContain("npm run db:migrate");
    expect(message).toContain(`${names().length} migration(s) pending`);
    expect(took).toBeGreaterThanOrEqual(1_000);
    expect(took).toBeLessThan(4_000); // not the engine's 10 s busy timeout

    holder.close();
    expect(await deployMigrations(target)).toEqual(names());
    expect(await readMigrationState(target)).toMatchObject({ upToDate: true, pending: [] });
  });
});

describe("migration state on a PostgreSQL database that does not exist", () => {
  it("has every migration pending", async (ctx) => {
    const up = await withAdmin(async () => true).catch(() => false);
    if (!up) return ctx.skip();
    const u = new URL(PG_ADMIN_URL);
    u.pathname = `/${testDatabaseName("absent")}`;
    expect(await readMigrationState(resolveDbTarget(u.toString()))).toMatchObject({ applied: [], pending: migrationsOnDisk("postgresql").map((m) => m.name), upToDate: false });
  });
});
