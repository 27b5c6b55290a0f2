// The SQLite runner: a direct better-sqlite3 connection for the store's hot paths.
// Write programs run synchronously inside `BEGIN IMMEDIATE … COMMIT`, each in its own SAVEPOINT, so a
// program is atomic and nothing else in this process runs while it holds the write lock; programs that
// arrive in the same event-loop turn share one commit (group commit). Before writing it awaits
// `beforeWrite()` (the foundation's gate): an interactive Prisma transaction of this process may hold the
// lock, and a synchronous wait for it here would block the event loop it needs to finish. Checkpoints run
// on a worker thread (wal-checkpointer.ts).
import Database from "better-sqlite3";
import type { Statement } from "better-sqlite3";
import { SQLITE_PRAGMAS } from "../adapters";
import { SQLITE_DIALECT, type Program, type SqlDialect, type SqlOp, type SqlRunner, type WriteOptions } from "./program";
import { startWalCheckpointer, WRITER_FALLBACK_PAGES, type WalCheckpointer } from "./wal-checkpointer";

const MAX_CACHED_STATEMENTS = 512;
const BUSY_TIMEOUT_MS = 10_000;
const PAGE_CACHE_KIB = 64 * 1024;
/** Programs per group commit: bounds how long one batch holds the event loop. */
const MAX_BATCH = 64;

type Pending = { program: (d: SqlDialect) => Program<unknown>; resolve(value: unknown): void; reject(e: unknown): void; deadline: number };

export class SqliteRunner implements SqlRunner {
  readonly dialect: SqlDialect = SQLITE_DIALECT;
  #db: Database.Database;
  #statements = new Map<string, Statement>();
  #plucked = new Map<string, Statement>();
  #beforeWrite: () => Promise<void>;
  #checkpointer: WalCheckpointer;
  #queue: Pending[] = [];
  #scheduled = false;
  #flushing = false;
  #busyDelay = 0;
  #tx: Record<"begin" | "savepoint" | "release" | "rollbackTo" | "commit" | "rollback", Statement>;

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
    const prepare = (sql: string) => this.#db.prepare(sql);
    this.#tx = {
      begin: prepare("BEGIN IMMEDIATE"),
      savepoint: prepare("SAVEPOINT program"),
      release: prepare("RELEASE program"),
      rollbackTo: prepare("ROLLBACK TO program"),
      commit: prepare("COMMIT"),
      rollback: prepare("ROLLBACK"),
    };
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

  /**
   * Runs `program` in a transaction of its own making: all of it commits or none of it does. Writes that
   * arrive together are group-committed: each runs in a SAVEPOINT of one shared BEGIN IMMEDIATE … COMMIT,
   * so a failing program rolls back only itself, and the commit (WAL frames, b-tree parents) is paid once
   * per batch rather than once per request. A promise settles only after the batch's COMMIT.
   */
  /** `durable` changes nothing here: every commit is synchronous=NORMAL (WAL), as the store's are on PostgreSQL. */
  write<T>(program: (d: SqlDialect) => Program<T>, _opts?: WriteOptions): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ program, resolve: resolve as (v: unknown) => void, reject, deadline: Date.now() + BUSY_TIMEOUT_MS });
      this.#schedule(0);
    });
  }

  // The batch window is one event-loop turn: every request read in the same poll phase queues its write
  // before the check phase (setImmediate) runs them.
  #schedule(delay: number): void {
    if (this.#scheduled || this.#flushing) return;
    this.#scheduled = true;
    const run = () => {
      this.#scheduled = false;
      void this.#flush();
    };
    if (delay > 0) setTimeout(run, delay);
    else setImmediate(run);
  }

  async #flush(): Promise<void> {
    this.#flushing = true;
    let retryIn = 0;
    try {
      await this.#beforeWrite();
      const batch = this.#queue.splice(0, MAX_BATCH);
      if (batch.length === 0) return;
      try {
        this.#tx.begin.run();
      } catch (e) {
        const busy = ((e as { code?: string }).code ?? "").startsWith("SQLITE_BUSY");
        const now = Date.now();
        const waiting = batch.filter((p) => busy && p.deadline > now);
        for (const p of batch) if (!waiting.includes(p)) p.reject(e);
        this.#queue.unshift(...waiting); // another connection holds the write lock: retry them first
        this.#busyDelay = Math.min(this.#busyDelay * 2 || 1, 50);
        retryIn = this.#busyDelay;
        return;
      }
      this.#busyDelay = 0;
      const done: [Pending, unknown][] = [];
      for (let k = 0; k < batch.length; k++) {
        const p = batch[k]!;
        this.#tx.savepoint.run();
        try {
          const value = this.#drive(p.program(this.dialect));
          this.#tx.release.run();
          done.push([p, value]);
        } catch (e) {
          if (!this.#db.inTransaction) {
            // SQLite rolled the whole transaction back (I/O error, disk full): nothing of this batch stays.
            for (const [q] of done) q.reject(e);
            for (const q of batch.slice(k)) q.reject(e);
            return;
          }
          this.#tx.rollbackTo.run();
          this.#tx.release.run();
          p.reject(e);
        }
      }
      try {
        this.#tx.commit.run();
      } catch (e) {
        if (this.#db.inTransaction) this.#tx.rollback.run();
        for (const [p] of done) p.reject(e);
        return;
      }
      for (const [p, value] of done) p.resolve(value);
    } catch (e) {
      // beforeWrite failed, or the statements above did: fail what is queued rather than hang it.
      for (const p of this.#queue.splice(0)) p.reject(e);
    } finally {
      this.#flushing = false;
      if (this.#queue.length) this.#schedule(retryIn);
    }
  }

  async close(): Promise<void> {
    while (this.#queue.length || this.#flushing || this.#scheduled) await new Promise((r) => setTimeout(r, 5));
    this.#statements.clear();
    this.#plucked.clear();
    await this.#checkpointer.stop();
    if (this.#db.open) this.#db.close();
  }
}
