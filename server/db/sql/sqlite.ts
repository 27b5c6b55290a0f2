// The SQLite runner: a direct better-sqlite3 connection for the store's hot paths.
// Programs run synchronously inside `BEGIN IMMEDIATE … COMMIT`, so a program is atomic and nothing else in
// this process runs while it holds the write lock. Before writing it awaits `beforeWrite()` (the
// foundation's gate): an interactive Prisma transaction of this process may hold the lock, and a
// synchronous wait for it here would block the event loop it needs to finish.
import Database from "better-sqlite3";
import type { Statement } from "better-sqlite3";
import { SQLITE_PRAGMAS } from "../adapters";
import { SQLITE_DIALECT, type Program, type SqlDialect, type SqlOp, type SqlRunner } from "./program";
import { startWalCheckpointer, WRITER_FALLBACK_PAGES, type WalCheckpointer } from "./wal-checkpointer";

const MAX_CACHED_STATEMENTS = 512;
const BUSY_TIMEOUT_MS = 10_000;
const PAGE_CACHE_KIB = 64 * 1024;

export class SqliteRunner implements SqlRunner {
  readonly dialect: SqlDialect = SQLITE_DIALECT;
  #db: Database.Database;
  #statements = new Map<string, Statement>();
  #plucked = new Map<string, Statement>();
  #beforeWrite: () => Promise<void>;
  #checkpointer: WalCheckpointer;

  constructor(file: string, beforeWrite: () => Promise<void>) {
    this.#db = new Database(file, { timeout: 0 });
    for (const pragma of SQLITE_PRAGMAS) this.#db.exec(pragma);
    // Never wait synchronously for the lock: the holder may be another connection of this very process
    // (Prisma's adapter commits after an await), which a blocked event loop could never let finish.
    // write() retries asynchronously instead.
    this.#db.pragma("busy_timeout = 0");
    if (this.#db.pragma("journal_mode", { simple: true }) !== "wal") this.#db.pragma("journal_mode = WAL");
    // Checkpoints happen on a worker thread (wal-checkpointer.ts); this connection only checkpoints
    // itself if the WAL ever grows past the fallback.
    this.#db.pragma(`wal_autocheckpoint = ${WRITER_FALLBACK_PAGES}`);
    // A 64 MB page cache (bounded, per connection): with the 2 MB default, a 1,000-span page (1.5 MB of
    // rows) no longer fit beside the indexes and every query re-read it from the OS, at twice the cost.
    this.#db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    this.#checkpointer = startWalCheckpointer(file);
    this.#beforeWrite = beforeWrite;
  }

  #statement(sql: string, pluck: boolean): Statement {
    const cache = pluck ? this.#plucked : this.#statements;
    let stmt = cache.get(sql);
    if (!stmt) {
      if (cache.size >= MAX_CACHED_STATEMENTS) cache.clear();
      stmt = this.#db.prepare(sql);
      if (pluck) stmt.pluck();
      cache.set(sql, stmt);
    }
    return stmt;
  }

  #exec(op: SqlOp): unknown {
    const stmt = this.#statement(op.sql, op.kind === "column");
    // better-sqlite3 refuses `undefined`; programs may pass it for an absent optional value.
    const params = op.params.includes(undefined) ? op.params.map((p) => (p === undefined ? null : p)) : op.params;
    if (op.kind !== "run") return stmt.all(params);
    return stmt.run(params).changes;
  }

  #drive<T>(program: Program<T>): T {
    let step = program.next();
    while (!step.done) {
      let result: unknown;
      try {
        result = this.#exec(step.value);
      } catch (e) {
        step = program.throw(e);
        continue;
      }
      step = program.next(result);
    }
    return step.value;
  }

  async read<T>(program: (d: SqlDialect) => Program<T>): Promise<T> {
    return this.#drive(program(this.dialect));
  }

  async write<T>(program: (d: SqlDialect) => Program<T>): Promise<T> {
    const deadline = Date.now() + BUSY_TIMEOUT_MS;
    for (let delay = 1; ; delay = Math.min(delay * 2, 50)) {
      await this.#beforeWrite();
      try {
        // better-sqlite3's transaction(): BEGIN IMMEDIATE, COMMIT, or ROLLBACK when the function throws.
        return this.#db.transaction(() => this.#drive(program(this.dialect))).immediate();
      } catch (e) {
        const code = (e as { code?: string }).code ?? "";
        if (!code.startsWith("SQLITE_BUSY") || Date.now() > deadline) throw e;
      }
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  async close(): Promise<void> {
    this.#statements.clear();
    this.#plucked.clear();
    await this.#checkpointer.stop();
    if (this.#db.open) this.#db.close();
  }
}
