// Migrations for both dialects through Prisma's WebAssembly schema engine and our driver adapters.
// Why not the prisma CLI: it insists on downloading a native engine that offline machines cannot fetch.
// The files stay in Prisma's standard layout (prisma/migrations/<dialect>/<ts>_<name>/migration.sql,
// migration_lock.toml, the _prisma_migrations table), so the usual tooling can read them.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import pg from "pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { DbTarget, Dialect } from "./config";
import { pgAdapterFactory, pgPoolConfig, sqliteAdapterFactory } from "./adapters";
import { migrationsDir, migrationsOnDisk } from "./migration-files";
import { isSqliteBusy, probeSoleAccess, readMigrationState, type MigrationStatus } from "./migration-state";

import type * as WasmEngine from "@prisma/schema-engine-wasm";

type WasmEngineModule = typeof WasmEngine;
type SchemaEngine = Awaited<ReturnType<WasmEngineModule["SchemaEngine"]["new"]>>;
type MigrationList = Parameters<SchemaEngine["applyMigrations"]>[0]["migrationsList"];

// Spelled out as path.join(process.cwd(), "prisma", ...) so Next's file tracer stays inside prisma/.
export function schemaDir(dialect: Dialect): string {
  return path.join(process.cwd(), "prisma", dialect === "sqlite" ? "schema" : "postgres/schema");
}
const NO_FILTERS = { externalTables: [], externalEnums: [] };

let wasmModule: Promise<WasmEngineModule> | undefined;

/** Instantiates the wasm module once per process; its JS glue expects a bundler, so wire it by hand. */
function loadWasm(): Promise<WasmEngineModule> {
  wasmModule ??= (async () => {
    // Resolved from the project root at run time (the package is external to the Next.js bundle).
    const require = createRequire(path.join(process.cwd(), "package.json"));
    const dir = path.dirname(require.resolve("@prisma/schema-engine-wasm"));
    const glue = (await import("@prisma/schema-engine-wasm/schema_engine_bg")) as unknown as WasmEngineModule & {
      __wbg_set_wasm(exports: WebAssembly.Exports): void;
    };
    const bytes = fs.readFileSync(path.join(dir, "schema_engine_bg.wasm"));
    const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": glue as never });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })();
  return wasmModule;
}

// pg's internal "char" type (OID 18) appears in catalog queries and is unknown to adapter-pg; it is text.
let pgCharPatched = false;
function patchPgCharType() {
  if (pgCharPatched) return;
  pgCharPatched = true;
  const proto = (pg as unknown as { Result: { prototype: { addFields(f: { dataTypeID: number }[]): void } } }).Result.prototype;
  const addFields = proto.addFields;
  proto.addFields = function (fields) {
    for (const f of fields) if (f.dataTypeID === 18) f.dataTypeID = 25;
    return addFields.call(this, fields);
  };
}

/**
 * adapter-pg's `executeScript` splits a migration on every ";", which breaks dollar-quoted bodies such
 * as the audit log's trigger function; pg's simple query protocol runs a whole script as it is.
 */
function runPgScriptsWhole(adapter: SqlDriverAdapter): SqlDriverAdapter {
  adapter.executeScript = async (script) => {
    await adapter.executeRaw({ sql: script, args: [], argTypes: [] });
  };
  return adapter;
}

/** For Postgres, a shadow database we create and drop ourselves (the adapter drops it before closing its pool). */
function pgMigrationFactory(target: Extract<DbTarget, { dialect: "postgresql" }>): SqlMigrationAwareDriverAdapterFactory {
  const main = pgAdapterFactory(target);
  return {
    provider: "postgres",
    adapterName: main.adapterName,
    connect: () => main.connect(),
    async connectToShadowDb() {
      const name = `lightgate_shadow_${process.pid}_${Date.now()}`;
      const admin = new pg.Client(pgPoolConfig(target));
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      const shadow = await pgAdapterFactory({ ...target, database: name }).connect();
      const dispose = shadow.dispose.bind(shadow);
      shadow.dispose = async () => {
        await dispose();
        const cleanup = new pg.Client(pgPoolConfig(target));
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await cleanup.end();
      };
      return shadow;
    },
  };
}

export function readSchemaFiles(dialect: Dialect): { path: string; content: string }[] {
  const dir = schemaDir(dialect);
  if (!fs.existsSync(dir)) throw new Error(`${dir} is missing; run npm run db:generate`);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".prisma"))
    .sort()
    .map((f) => ({ path: path.join(dir, f), content: fs.readFileSync(path.join(dir, f), "utf8") }));
}

function lockfileFor(dialect: Dialect): string {
  return `# Written by scripts/db/migrate.ts; do not edit.\nprovider = "${dialect}"\n`;
}

export function readMigrations(dialect: Dialect): MigrationList {
  const baseDir = migrationsDir(dialect);
  const lockPath = path.join(baseDir, "migration_lock.toml");
  return {
    baseDir,
    lockfile: { path: "migration_lock.toml", content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : lockfileFor(dialect) },
    shadowDbInitScript: "",
    migrationDirectories: migrationsOnDisk(dialect).map((m) => ({
      path: m.name,
      migrationFile: {
        path: "migration.sql",
        content: m.sql !== null ? { tag: "ok" as const, value: m.sql } : { tag: "error" as const, value: `${m.file} is missing` },
      },
    })),
  };
}

/**
 * The engine replays each migration file on the SQLite shadow database through `executeRaw`, which
 * better-sqlite3 refuses for more than one statement; such a file is a script, so run it as one.
 */
function runScriptsWhole(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (e) {
      if (!(e instanceof RangeError && /more than one statement/.test(e.message)) || query.args.length > 0) throw e;
      await adapter.executeScript(query.sql);
      return 0;
    }
  };
  return adapter;
}

export async function withEngine<T>(target: DbTarget, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const wasm = await loadWasm();
  if (target.dialect === "postgresql") patchPgCharType();
  const inner = target.dialect === "sqlite" ? sqliteAdapterFactory(target) : pgMigrationFactory(target);
  // The engine does not close the connections it opens; track them so the file lock (SQLite) or
  // the pool (Postgres) is released as soon as the command ends.
  const opened: SqlDriverAdapter[] = [];
  const track = async (p: Promise<SqlDriverAdapter>) => {
    const adapter = target.dialect === "postgresql" ? runPgScriptsWhole(await p) : await p;
    opened.push(adapter);
    return adapter;
  };
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: () => track(inner.connect()),
    connectToShadowDb: () => track(inner.connectToShadowDb().then((a) => (target.dialect === "sqlite" ? runScriptsWhole(a) : a))),
  };
  const files = readSchemaFiles(target.dialect);
  const engine = await wasm.SchemaEngine.new(
    { datamodels: files.map((f) => [f.path, f.content] as [string, string]) },
    () => {},
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  try {
    return await fn(engine);
  } finally {
    engine.free();
    await Promise.all(opened.map((a) => a.dispose().catch(() => {})));
  }
}

/** A migration that cannot run now, said in one line with what to do. */
export class MigrationBlockedError extends Error {
  override name = "MigrationBlockedError";
}

function blockedBy(target: Extract<DbTarget, { dialect: "sqlite" }>, pending: string[]): MigrationBlockedError {
  const what = pending.length ? `${pending.length} migration(s) pending (${pending.slice(0, 2).join(", ")}${pending.length > 2 ? ", …" : ""})` : "a migration must run";
  return new MigrationBlockedError(
    `${what} but ${target.file} is open in another process: stop the server (or worker) using it, run \`npm run db:migrate\`, then start it again`,
  );
}

/**
 * Applies every pending migration; returns the names it applied. Safe to call on every start, and
 * while a server has the database open: the state is read first (read-only) and the schema engine —
 * which needs the SQLite file to itself — runs only when something is pending. Then it waits up to
 * `waitMs` for other connections to close and otherwise throws a MigrationBlockedError.
 */
export async function deployMigrations(target: DbTarget, opts: { waitMs?: number } = {}): Promise<string[]> {
  const deadline = Date.now() + (opts.waitMs ?? 3_000);
  let state: MigrationStatus | undefined;
  for (;;) {
    try {
      state = await readMigrationState(target, { busyMs: 250 });
      if (state.pending.length === 0 && state.failed.length === 0) return [];
      if (target.dialect === "sqlite") probeSoleAccess(target.file);
      break;
    } catch (e) {
      if (target.dialect !== "sqlite" || !isSqliteBusy(e)) throw e;
      if (Date.now() >= deadline) throw blockedBy(target, state?.pending ?? []);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await applyWithEngine(target);
  } catch (e) {
    // Someone opened the file between the probe and the engine: the engine's own busy error is unreadable.
    if (target.dialect === "sqlite" && /SocketTimeout|database is locked|SQLITE_BUSY/.test(String((e as Error).message))) {
      throw blockedBy(target, state.pending);
    }
    throw e;
  }
}

async function applyWithEngine(target: DbTarget): Promise<string[]> {
  return withEngine(target, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList: readMigrations(target.dialect), filters: NO_FILTERS });
    return out.appliedMigrationNames;
  });
}

/**
 * The SQL that would bring the migrations in `dialect` up to its current schema ("" when in sync).
 * Replays the migrations on a shadow database (SQLite: in memory; Postgres: a temporary database).
 */
export async function pendingSchemaChange(target: DbTarget): Promise<string> {
  return withEngine(target, async (engine) => {
    const out = await engine.diff({
      from: { tag: "migrations", ...readMigrations(target.dialect) },
      to: { tag: "schemaDatamodel", files: readSchemaFiles(target.dialect) },
      script: true,
      exitCode: true,
      filters: NO_FILTERS,
    });
    return out.exitCode === 2 ? (out.stdout ?? "") : "";
  });
}

/** Writes prisma/migrations/<dialect>/<timestamp>_<name>/migration.sql for the pending schema change. */
export async function createMigration(target: DbTarget, name: string, timestamp: string): Promise<string | null> {
  const sql = await pendingSchemaChange(target);
  if (!sql.trim() || /^-- This is an empty migration/m.test(sql)) return null;
  const baseDir = migrationsDir(target.dialect);
  const dirName = `${timestamp}_${name}`;
  fs.mkdirSync(path.join(baseDir, dirName), { recursive: true });
  fs.writeFileSync(path.join(baseDir, dirName, "migration.sql"), sql);
  const lock = path.join(baseDir, "migration_lock.toml");
  if (!fs.existsSync(lock)) fs.writeFileSync(lock, lockfileFor(target.dialect));
  return path.join(baseDir, dirName);
}
