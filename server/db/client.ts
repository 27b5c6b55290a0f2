// One typed database interface over two generated Prisma clients. The SQLite client's type is the
// interface: the PostgreSQL client is generated from the same models, so its surface is the same
// apart from a few dialect-only options (isolation levels, `mode: "insensitive"`, JSON path filters),
// which domain code must not use. Raw SQL that a hot path needs lives in server/db/sql/<dialect>.ts.
import { PrismaClient as SqliteClient, type Prisma } from "./generated/sqlite/client";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";
import { pgAdapterFactory, sqliteAdapterFactory, SQLITE_PRAGMAS } from "./adapters";
import { resolveDbTarget, type DbTarget } from "./config";

export type Db = SqliteClient;
export type Tx = Prisma.TransactionClient;
export type { DbTarget };
export * from "./generated/sqlite/client";

export type Database = {
  db: Db;
  target: DbTarget;
  /**
   * Runs `fn` in one interactive transaction: all of it commits or none of it does.
   * Use this (never `db.$transaction(async …)`) for read-then-write sections such as moving a pointer
   * together with its audit row. `locks` names what the section reads and then changes: on PostgreSQL
   * each becomes a transaction-scoped advisory lock, so two sections on the same name never interleave
   * (read committed would otherwise lose updates); on SQLite a transaction already holds the write lock.
   * `timeoutMs` (default 15 s) bounds it; raise it only for sections that write a bounded bulk (a dataset).
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>, opts?: { locks?: string[]; timeoutMs?: number }): Promise<T>;
  /** Raw SQLite writers on their own connection await this first (see WriteGate); no-op on Postgres. */
  beforeWrite(): Promise<void>;
  close(): Promise<void>;
};

async function openSqliteClient(target: Extract<DbTarget, { dialect: "sqlite" }>): Promise<SqliteClient> {
  const db = new SqliteClient({ adapter: sqliteAdapterFactory(target) });
  for (const pragma of SQLITE_PRAGMAS) await db.$queryRawUnsafe(pragma);
  const [mode] = await db.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
  if (mode?.journal_mode !== "wal") await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  return db;
}

/**
 * In-process gate for SQLite writes. A transaction holds the database write lock across awaits; a
 * write from another connection of this same process would then busy-wait *synchronously*
 * (better-sqlite3 blocks the event loop), so the transaction could never finish. Writes therefore wait
 * here, asynchronously, while a transaction of this process is open. Other processes simply wait on
 * SQLite's own lock (busy_timeout), which is safe because their waiting does not block us.
 */
class WriteGate {
  #tail: Promise<void> = Promise.resolve();
  #open = 0;
  /** Resolves when no transaction of this process is open. */
  async idle(): Promise<void> {
    while (this.#open > 0) await this.#tail;
  }
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const prev = this.#tail;
    let done!: () => void;
    this.#tail = new Promise((r) => (done = r));
    this.#open++;
    try {
      await prev;
      return await fn();
    } finally {
      this.#open--;
      done();
    }
  }
}

const READ_OPERATIONS = new Set(["findUnique", "findUniqueOrThrow", "findFirst", "findFirstOrThrow", "findMany", "count", "aggregate", "groupBy"]);

export async function openDatabase(target: DbTarget): Promise<Database> {
  if (target.dialect === "sqlite") {
    const gate = new WriteGate();
    const base = await openSqliteClient(target);
    const db = base.$extends({
      query: {
        async $allOperations({ operation, args, query }) {
          if (!READ_OPERATIONS.has(operation)) await gate.idle();
          return query(args);
        },
      },
    }) as unknown as Db;
    clientTargets.set(db, target);
    // The SQLite adapter runs every query of a client on one connection, so a write issued by anyone
    // while an interactive transaction is open would silently join it (and roll back with it).
    // Interactive transactions therefore get their own connection.
    let txClient: Promise<SqliteClient> | undefined;
    return {
      db,
      target,
      beforeWrite: () => gate.idle(),
      transaction(fn, opts) {
        return gate.exclusive(async () => {
          txClient ??= openSqliteClient(target);
          const client = await txClient;
          return client.$transaction(
            async (tx) => {
              // BEGIN is deferred: take the write lock now, so another process cannot invalidate this
              // transaction's snapshot halfway (SQLITE_BUSY_SNAPSHOT); waiting is bounded by busy_timeout.
              await tx.$executeRawUnsafe(`DELETE FROM "SystemSetting" WHERE 0`);
              return track(tx, opts?.locks, fn, target);
            },
            { timeout: opts?.timeoutMs ?? 15_000, maxWait: 15_000 },
          );
        });
      },
      async close() {
        await base.$disconnect();
        if (txClient) await (await txClient).$disconnect();
      },
    };
  }
  const db = new PostgresClient({ adapter: pgAdapterFactory(target) }) as unknown as Db;
  await db.$queryRawUnsafe("SELECT 1");
  clientTargets.set(db, target);
  return {
    db,
    target,
    beforeWrite: () => Promise.resolve(),
    transaction: (fn, opts) =>
      db.$transaction(
        async (tx) => {
          for (const name of [...new Set(opts?.locks ?? [])].sort()) {
            await tx.$executeRawUnsafe("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", name);
          }
          return track(tx, opts?.locks, fn, target);
        },
        { timeout: opts?.timeoutMs ?? 15_000, maxWait: 15_000 },
      ),
    close: () => db.$disconnect(),
  };
}

// Which interactive transaction a client is, and the locks it was opened with. Code that must run
// inside one (the audit log's appendAudit) asks here instead of trusting its caller.
// On globalThis: Next.js may bundle this module into several chunks of one process, and a transaction
// opened through one copy must be recognised by another (appendAudit checks it).
const openTransactions: WeakMap<object, { locks: readonly string[] }> = ((globalThis as { lightgateOpenTransactions?: WeakMap<object, { locks: readonly string[] }> }).lightgateOpenTransactions ??= new WeakMap());

// Which database a client talks to, so what lives beside the data (the receipt key file, the exported audit
// heads: server/keys/signing-key.ts) is found from the client alone. On globalThis for the same reason.
const clientTargets: WeakMap<object, DbTarget> = ((globalThis as { lightgateClientTargets?: WeakMap<object, DbTarget> }).lightgateClientTargets ??= new WeakMap());

function track<T>(tx: Tx, locks: readonly string[] | undefined, fn: (tx: Tx) => Promise<T>, target: DbTarget): Promise<T> {
  openTransactions.set(tx, { locks: [...new Set(locks ?? [])] });
  clientTargets.set(tx, target);
  return fn(tx);
}

/** The database a client opened by openDatabase (or one of its transactions) talks to; null for any other. */
export function targetOf(client: Db | Tx): DbTarget | null {
  return clientTargets.get(client) ?? null;
}

/** The locks of the `database.transaction` this client belongs to, or null outside one. */
export function transactionLocks(client: Db | Tx): readonly string[] | null {
  return openTransactions.get(client)?.locks ?? null;
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
