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

import type * as WasmEngine from "@prisma/schema-engine-wasm";

type WasmEngineModule = typeof WasmEngine;
type SchemaEngine = Awaited<ReturnType<WasmEngineModule["SchemaEngine"]["new"]>>;
type MigrationList = Parameters<SchemaEngine["applyMigrations"]>[0]["migrationsList"];

// Spelled out as path.join(process.cwd(), "prisma", ...) so Next's file tracer stays inside prisma/.
export function schemaDir(dialect: Dialect): string {
  return path.join(process.cwd(), "prisma", dialect === "sqlite" ? "schema" : "postgres/schema");
}
export function migrationsDir(dialect: Dialect): string {
  return path.join(process.cwd(), "prisma", "migrations", dialect);
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
  const dirs = fs.existsSync(baseDir)
    ? fs.readdirSync(baseDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()
    : [];
  return {
    baseDir,
    lockfile: { path: "migration_lock.toml", content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : lockfileFor(dialect) },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((name) => {
      const file = path.join(baseDir, name, "migration.sql");
      return {
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: fs.existsSync(file)
            ? { tag: "ok" as const, value: fs.readFileSync(file, "utf8") }
            : { tag: "error" as const, value: `${file} is missing` },
        },
      };
    }),
  };
}

/**
 * When replaying migrations into the SQLite shadow database the engine sends each migration file as one
 * raw query, which better-sqlite3 refuses once a file holds more than one statement ("contains more than
 * one statement"). Such scripts go through `executeScript` (better-sqlite3 `exec`) instead.
 */
function allowMultiStatementScripts(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const multi = (e: unknown) => /more than one statement/.test(String((e as { cause?: unknown })?.cause ?? "") + String((e as Error)?.message ?? "") + JSON.stringify(e));
  const executeRaw = adapter.executeRaw.bind(adapter);
  const queryRaw = adapter.queryRaw.bind(adapter);
  adapter.executeRaw = async (q) => {
    try {
      return await executeRaw(q);
    } catch (e) {
      if (q.args.length > 0 || !multi(e)) throw e;
      await adapter.executeScript(q.sql);
      return 0;
    }
  };
  adapter.queryRaw = async (q) => {
    try {
      return await queryRaw(q);
    } catch (e) {
      if (q.args.length > 0 || !multi(e)) throw e;
      await adapter.executeScript(q.sql);
      return { columnNames: [], columnTypes: [], rows: [] };
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
    const adapter = await p;
    opened.push(adapter);
    return adapter;
  };
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: () => track(inner.connect()),
    connectToShadowDb: () => track(inner.connectToShadowDb().then(target.dialect === "sqlite" ? allowMultiStatementScripts : (a) => a)),
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

/** Applies every pending migration; returns the names it applied. Safe to call on every start. */
export async function deployMigrations(target: DbTarget): Promise<string[]> {
  return withEngine(target, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList: readMigrations(target.dialect), filters: NO_FILTERS });
    return out.appliedMigrationNames;
  });
}

export type MigrationStatus = {
  dialect: Dialect;
  onDisk: string[];
  applied: string[];
  pending: string[];
  failed: string[];
  edited: string[];
  upToDate: boolean;
};

export async function migrationStatus(target: DbTarget): Promise<MigrationStatus> {
  return withEngine(target, async (engine) => {
    const list = readMigrations(target.dialect);
    const out = await engine.diagnoseMigrationHistory({ migrationsList: list, optInToShadowDatabase: false, filters: NO_FILTERS });
    const onDisk = list.migrationDirectories.map((d) => d.path);
    const history = out.history;
    const pending = history?.diagnostic === "databaseIsBehind" || history?.diagnostic === "historiesDiverge" ? history.unappliedMigrationNames : [];
    const unknown = history && history.diagnostic !== "databaseIsBehind" ? history.unpersistedMigrationNames : [];
    const applied = onDisk.filter((m) => !pending.includes(m)).concat(unknown);
    return {
      dialect: target.dialect,
      onDisk,
      applied: out.hasMigrationsTable ? applied : [],
      pending: out.hasMigrationsTable ? pending : onDisk,
      failed: out.failedMigrationNames,
      edited: out.editedMigrationNames,
      upToDate: out.hasMigrationsTable && !history && out.failedMigrationNames.length === 0 && out.editedMigrationNames.length === 0,
    };
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
