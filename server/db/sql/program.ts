// SQL programs: one body of data logic, run by both dialects.
//
// A program is a generator that yields SQL operations and receives their results. The SQLite runner
// drives it *synchronously* inside one better-sqlite3 transaction, so no other JavaScript can run while
// it holds the write lock (nothing can join or interleave with it); the PostgreSQL runner drives it
// asynchronously on one pooled client between BEGIN and COMMIT. Programs use portable SQL with `?`
// placeholders and ask `Dialect` for the few spellings that differ.
import type { Dialect } from "../config";

export type SqlOp = { kind: "all" | "run"; sql: string; params: readonly unknown[] };
export type Program<T> = Generator<SqlOp, T, unknown>;
export type Row = Record<string, unknown>;

/** Rows of a SELECT (or of a statement with RETURNING). */
export function* all<T = Row>(sql: string, params: readonly unknown[] = []): Program<T[]> {
  return (yield { kind: "all", sql, params }) as T[];
}

/** First row or null. */
export function* one<T = Row>(sql: string, params: readonly unknown[] = []): Program<T | null> {
  const rows = (yield { kind: "all", sql, params }) as T[];
  return rows[0] ?? null;
}

/** Runs a statement; returns the number of rows it changed. */
export function* run(sql: string, params: readonly unknown[] = []): Program<number> {
  return (yield { kind: "run", sql, params }) as number;
}

/** `?, ?, ?` for n values. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => "?").join(", ");
}

/** Spellings that differ between the dialects. */
export type SqlDialect = {
  name: Dialect;
  /** Appended to a SELECT that claims rows: skips rows another transaction holds (PostgreSQL only). */
  skipLocked: string;
  /** Appended to a SELECT whose rows the program will change (PostgreSQL row locks; SQLite holds the file). */
  forUpdate: string;
  greatest(a: string, b: string): string;
};

export const SQLITE_DIALECT: SqlDialect = { name: "sqlite", skipLocked: "", forUpdate: "", greatest: (a, b) => `MAX(${a}, ${b})` };
export const POSTGRES_DIALECT: SqlDialect = {
  name: "postgresql",
  skipLocked: " FOR UPDATE SKIP LOCKED",
  forUpdate: " FOR UPDATE",
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
};

/** What runs programs against one database. */
export interface SqlRunner {
  readonly dialect: SqlDialect;
  /** Runs a read-only program (no transaction on SQLite; one client on PostgreSQL). */
  read<T>(program: (d: SqlDialect) => Program<T>): Promise<T>;
  /** Runs a program in one transaction: all of it commits or none of it does. */
  write<T>(program: (d: SqlDialect) => Program<T>): Promise<T>;
  close(): Promise<void>;
}
