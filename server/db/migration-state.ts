// Which migrations a database has, read with a plain read-only query of `_prisma_migrations` — never
// through the schema engine, which on SQLite takes `locking_mode=EXCLUSIVE` and so cannot even look
// while a server has the file open. Scripts call this before deciding whether the engine must run.
import fs from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { pgPoolConfig } from "./adapters";
import type { DbTarget, Dialect } from "./config";
import { migrationsOnDisk, sqlMatchesChecksum } from "./migration-files";

export type MigrationStatus = {
  dialect: Dialect;
  onDisk: string[];
  /** Finished and not rolled back, in disk order; then any the database has that the disk does not. */
  applied: string[];
  /** On disk and never run (or rolled back). */
  pending: string[];
  /** Started and never finished nor rolled back: the engine refuses to go on until someone resolves them. */
  failed: string[];
  /** Applied, but the file on disk no longer has the checksum recorded when it ran. */
  edited: string[];
  /** Applied in the database but missing on disk (a newer checkout ran, or a directory was deleted). */
  unknown: string[];
  upToDate: boolean;
};

type HistoryRow = { migration_name: string; checksum: string; finished_at: unknown; rolled_back_at: unknown };
const HISTORY_SQL = `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at`;

/** SQLite's lock answers: the file is in use by another connection right now. */
export function isSqliteBusy(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED" || (typeof code === "string" && code.startsWith("SQLITE_BUSY_"));
}

/** Null when there is no history table yet (a new database). Throws SQLITE_BUSY only after `busyMs`. */
function readSqliteHistory(file: string, busyMs: number): HistoryRow[] | null {
  if (!fs.existsSync(file)) return null;
  const conn = new BetterSqlite3(file, { readonly: true, fileMustExist: true, timeout: busyMs });
  try {
    const table = conn.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`).get();
    return table ? (conn.prepare(HISTORY_SQL).all() as HistoryRow[]) : null;
  } finally {
    conn.close();
  }
}

async function readPgHistory(target: Extract<DbTarget, { dialect: "postgresql" }>): Promise<HistoryRow[] | null> {
  const client = new pg.Client({ ...pgPoolConfig(target), statement_timeout: 10_000 });
  try {
    await client.connect();
  } catch (e) {
    // 3D000: the database does not exist yet; everything is pending and the engine decides what to do.
    if ((e as { code?: string }).code === "3D000") return null;
    throw e;
  }
  try {
    await client.query("BEGIN READ ONLY");
    const { rows: found } = await client.query<{ t: string | null }>(`SELECT to_regclass('"_prisma_migrations"')::text AS t`);
    const rows = found[0]?.t ? (await client.query<HistoryRow>(HISTORY_SQL)).rows : null;
    await client.query("COMMIT");
    return rows;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Compares the disk with the history table the way Prisma's `migrate deploy` / `migrate status` do. */
function compareHistory(dialect: Dialect, history: HistoryRow[] | null): MigrationStatus {
  const disk = migrationsOnDisk(dialect);
  const onDisk = disk.map((m) => m.name);
  // A rolled-back row is as good as none; a failed one (never finished) still counts as tried, and the
  // engine refuses to go on until it is resolved.
  const tried = (history ?? []).filter((r) => r.rolled_back_at == null);
  const triedNames = new Set(tried.map((r) => r.migration_name));
  const done = tried.filter((r) => r.finished_at != null);
  const doneByName = new Map(done.map((r) => [r.migration_name, r]));
  const failed = [...new Set(tried.filter((r) => r.finished_at == null).map((r) => r.migration_name))];
  const unknown = [...triedNames].filter((n) => !onDisk.includes(n));
  const pending = onDisk.filter((n) => !triedNames.has(n));
  const edited = disk.filter((m) => {
    const row = doneByName.get(m.name);
    return row !== undefined && (m.sql === null || !sqlMatchesChecksum(m.sql, row.checksum));
  });
  return {
    dialect,
    onDisk,
    applied: onDisk.filter((n) => doneByName.has(n)).concat(unknown.filter((n) => doneByName.has(n))),
    pending,
    failed,
    edited: edited.map((m) => m.name),
    unknown,
    upToDate: history !== null && pending.length + failed.length + edited.length + unknown.length === 0,
  };
}

/**
 * The migration state of `target`, read-only. On SQLite it waits up to `busyMs` for a lock (a reader
 * only waits while another connection holds the file exclusively, e.g. a schema engine mid-migration).
 */
export async function readMigrationState(target: DbTarget, opts: { busyMs?: number } = {}): Promise<MigrationStatus> {
  const history = target.dialect === "sqlite" ? readSqliteHistory(target.file, opts.busyMs ?? 2_000) : await readPgHistory(target);
  return compareHistory(target.dialect, history);
}

/**
 * Throws SQLITE_BUSY when another connection has `file` open: what the schema engine needs (it sets
 * `locking_mode=EXCLUSIVE`, so in WAL mode any other open connection makes it fail after its timeout).
 */
export function probeSoleAccess(file: string, busyMs = 100): void {
  if (!fs.existsSync(file)) return;
  const conn = new BetterSqlite3(file, { fileMustExist: true, timeout: busyMs });
  try {
    conn.pragma("locking_mode = EXCLUSIVE");
    conn.prepare("SELECT count(*) FROM sqlite_master").get();
    conn.exec("BEGIN IMMEDIATE; ROLLBACK");
  } finally {
    conn.close();
  }
}
