// One typed database interface over two generated Prisma clients. The SQLite client's type is the
// interface: the PostgreSQL client is generated from the same models, so its surface is the same
// apart from a few dialect-only options (isolation levels, `mode: "insensitive"`, JSON path filters),
// which domain code must not use. Raw SQL that a hot path needs lives in server/db/sql/<dialect>.ts.
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";
import { pgAdapterFactory, sqliteAdapterFactory, SQLITE_PRAGMAS } from "./adapters";
import { resolveDbTarget, type DbTarget } from "./config";

export type Db = SqliteClient;
export type { DbTarget };
export * from "./generated/sqlite/client";

export type Database = { db: Db; target: DbTarget; close(): Promise<void> };

export async function openDatabase(target: DbTarget): Promise<Database> {
  if (target.dialect === "sqlite") {
    const db = new SqliteClient({ adapter: sqliteAdapterFactory(target) });
    for (const pragma of SQLITE_PRAGMAS) await db.$queryRawUnsafe(pragma);
    const [mode] = await db.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
    if (mode?.journal_mode !== "wal") await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    return { db, target, close: () => db.$disconnect() };
  }
  const db = new PostgresClient({ adapter: pgAdapterFactory(target) }) as unknown as Db;
  await db.$queryRawUnsafe("SELECT 1");
  return { db, target, close: () => db.$disconnect() };
}

// The process-wide database, opened on first use from DATABASE_URL. Kept on globalThis so
// Next.js dev reloads and route bundles share one connection instead of opening one each.
const globalForDb = globalThis as unknown as { lightgateDb?: Promise<Database> };

export function getDatabase(): Promise<Database> {
  globalForDb.lightgateDb ??= openDatabase(resolveDbTarget(process.env.DATABASE_URL));
  return globalForDb.lightgateDb;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}
