// Driver adapters for the two dialects. Both the runtime client and the migration engine use these.
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { DbTarget } from "./config";

// Applied at every connection: the adapter sets no PRAGMAs itself. WAL lets the web process and
// worker processes share one file; busy_timeout turns writer contention into waiting, not errors.
// journal_mode is persistent in the file and changing it needs exclusive access, so it is only set
// when the file is not in WAL yet (see openDatabase).
export const SQLITE_PRAGMAS = [
  "PRAGMA synchronous = NORMAL",
  "PRAGMA busy_timeout = 10000",
  "PRAGMA foreign_keys = ON",
];

export function sqliteAdapterFactory(target: Extract<DbTarget, { dialect: "sqlite" }>) {
  fs.mkdirSync(path.dirname(target.file), { recursive: true });
  return new PrismaBetterSqlite3({ url: target.file, timeout: 10_000 });
}

export function pgPoolConfig(target: Extract<DbTarget, { dialect: "postgresql" }>, database = target.database): pg.PoolConfig {
  // Fields rather than a connection string: the adapter ignores a `database` override otherwise.
  const u = new URL(target.url);
  return {
    host: target.host,
    port: target.port,
    user: decodeURIComponent(u.username) || process.env.PGUSER || "postgres",
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database,
    max: Number(u.searchParams.get("connection_limit") ?? 10),
    connectionTimeoutMillis: 5_000,
  };
}

export function pgAdapterFactory(target: Extract<DbTarget, { dialect: "postgresql" }>) {
  return new PrismaPg(pgPoolConfig(target));
}
