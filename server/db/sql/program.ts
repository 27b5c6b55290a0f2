// SQL programs: one body of data logic, run by both dialects.
//
// A program is a generator that yields SQL operations and receives their results. The SQLite runner
// drives it *synchronously* inside one better-sqlite3 transaction, so no other JavaScript can run while
// it holds the write lock (nothing can join or interleave with it); the PostgreSQL runner drives it
// asynchronously on one pooled client between BEGIN and COMMIT. Programs use portable SQL with `?`
// placeholders and ask `Dialect` for the few spellings that differ.
import type { Dialect } from "../config";

/**
 * `last`: the program yields nothing after this statement and does not catch its error, so the PostgreSQL
 * runner sends COMMIT right behind it (one round trip fewer) — or, when it is the program's only statement
 * (atomic by itself), runs it with no transaction at all.
 */
export type SqlOp = { kind: "all" | "column" | "run"; sql: string; params: readonly unknown[]; last?: boolean };
export type OpOptions = { last?: boolean };
export type Program<T> = Generator<SqlOp, T, unknown>;
export type Row = Record<string, unknown>;

/** Rows of a SELECT (or of a statement with RETURNING). */
export function* all<T = Row>(sql: string, params: readonly unknown[] = [], o?: OpOptions): Program<T[]> {
  return (yield { kind: "all", sql, params, last: o?.last }) as T[];
}

/** The first column of every row (SQLite hands it over without building a row object per row). */
export function* column<T = unknown>(sql: string, params: readonly unknown[] = []): Program<T[]> {
  return (yield { kind: "column", sql, params }) as T[];
}

/** First row or null. */
export function* one<T = Row>(sql: string, params: readonly unknown[] = [], o?: OpOptions): Program<T | null> {
  const rows = (yield { kind: "all", sql, params, last: o?.last }) as T[];
  return rows[0] ?? null;
}

/** Runs a statement; returns the number of rows it changed. */
export function* run(sql: string, params: readonly unknown[] = [], o?: OpOptions): Program<number> {
  return (yield { kind: "run", sql, params, last: o?.last }) as number;
}

/** A write whose statements touch different rows; what it changed is not reported. */
export type Write = { sql: string; params: readonly unknown[] };

/**
 * Several writes to different rows, in order. On PostgreSQL one statement (each write a data-modifying WITH
 * clause: all of them run, on one snapshot, in one round trip) — so they must not touch the same row or read
 * each other's changes; on SQLite one after another (a statement there is a function call, not a round trip).
 */
export function* runAll(d: SqlDialect, writes: readonly Write[], o?: OpOptions): Program<void> {
  if (writes.length === 0) return;
  if (d.name === "sqlite" || writes.length === 1) {
    for (const [i, w] of writes.entries()) yield* run(w.sql, w.params, { last: o?.last && i === writes.length - 1 });
    return;
  }
  const head = writes.slice(0, -1).map((w, i) => `w${i} AS (${w.sql})`).join(", ");
  yield* run(`WITH ${head} ${writes[writes.length - 1]!.sql}`, writes.flatMap((w) => w.params), o);
}

const placeholderCache: string[] = [];
/** `?, ?, ?` for n values (cached: hot statements are built per call). */
export function placeholders(n: number): string {
  let text = placeholderCache[n];
  if (text === undefined) {
    text = Array.from({ length: n }, () => "?").join(", ");
    if (n <= 4096) placeholderCache[n] = text;
  }
  return text;
}

const valuesCache = new Map<string, Map<string, string[]>>();
/**
 * `${head} VALUES (?, …), (?, …)${tail}` for `rows` rows of `width` values. The same string object comes
 * back for the same arguments, so the runner's statement cache finds it without rebuilding and rehashing
 * a multi-kilobyte key on every call (that had cost a tenth of a bulk insert). `head` and `tail` should be
 * constants.
 */
export function valuesSql(head: string, width: number, rows: number, tail = ""): string {
  let byTail = valuesCache.get(head);
  if (!byTail) valuesCache.set(head, (byTail = new Map()));
  let byRows = byTail.get(tail);
  if (!byRows) byTail.set(tail, (byRows = []));
  let text = byRows[rows];
  if (text === undefined) {
    const row = `(${placeholders(width)})`;
    text = `${head} VALUES ${Array.from({ length: rows }, () => row).join(", ")}${tail}`;
    byRows[rows] = text;
  }
  return text;
}

/** Spellings that differ between the dialects. */
export type SqlDialect = {
  name: Dialect;
  /** Appended to a SELECT that claims rows: skips rows another transaction holds (PostgreSQL only). */
  skipLocked: string;
  /** Appended to a SELECT whose rows the program will change (PostgreSQL row locks; SQLite holds the file). */
  forUpdate: string;
  /** `forUpdate` for a join: locks only the rows of the table with this alias. */
  forUpdateOf(alias: string): string;
  greatest(a: string, b: string): string;
};

export const SQLITE_DIALECT: SqlDialect = { name: "sqlite", skipLocked: "", forUpdate: "", forUpdateOf: () => "", greatest: (a, b) => `MAX(${a}, ${b})` };
export const POSTGRES_DIALECT: SqlDialect = {
  name: "postgresql",
  skipLocked: " FOR UPDATE SKIP LOCKED",
  forUpdate: " FOR UPDATE",
  forUpdateOf: (alias) => ` FOR UPDATE OF ${alias}`,
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
};

export type WriteOptions = { durable?: boolean };

/** What runs programs against one database. */
export interface SqlRunner {
  readonly dialect: SqlDialect;
  /** Runs a read-only program (no transaction on SQLite; one client on PostgreSQL). */
  read<T>(program: (d: SqlDialect) => Program<T>): Promise<T>;
  /**
   * Runs a program in one transaction: all of it commits or none of it does. The store's own traffic (queue,
   * attempts, spans, workers) commits as SQLite's synchronous=NORMAL does — durable once the database has it, not
   * waiting for the disk on each commit (PostgreSQL: synchronous_commit off; a database-server crash may lose
   * the last fraction of a second, never corrupt). `durable` waits for the disk: what receipts rely on (resource
   * versions, retention holds).
   */
  write<T>(program: (d: SqlDialect) => Program<T>, opts?: WriteOptions): Promise<T>;
  close(): Promise<void>;
}
