// One SqlRunner per open Database, created on first use and closed with it.
import type { Database } from "../client";
import { pgPoolConfig } from "../adapters";
import type { SqlRunner } from "./program";
import { SqliteRunner } from "./sqlite";
import { PostgresRunner } from "./postgres";

const runners = new WeakMap<Database, SqlRunner>();

export function sqlRunnerFor(database: Database): SqlRunner {
  let runner = runners.get(database);
  if (!runner) {
    const target = database.target;
    runner = target.dialect === "sqlite" ? new SqliteRunner(target.file, () => database.beforeWrite()) : new PostgresRunner(pgPoolConfig(target));
    runners.set(database, runner);
  }
  return runner;
}

export async function closeSqlRunner(database: Database): Promise<void> {
  const runner = runners.get(database);
  runners.delete(database);
  await runner?.close();
}
