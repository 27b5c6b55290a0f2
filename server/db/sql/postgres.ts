// The PostgreSQL runner: a pg pool for the store's hot paths. A write program runs on one client between
// BEGIN and COMMIT (read committed); programs that claim queue rows use `FOR UPDATE SKIP LOCKED` and
// programs that change a rollout lock its row first (`SELECT … FOR UPDATE`), so several Lightgate
// processes can share one database.
import pg from "pg";
import { POSTGRES_DIALECT, type Program, type SqlDialect, type SqlOp, type SqlRunner } from "./program";

// COUNT(*) and SUM() come back as int8/numeric; the store's counts fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));

const converted = new Map<string, string>();

/** `?` placeholders → `$1, $2, …` (programs never put `?` inside string literals). */
export function toPgPlaceholders(sql: string): string {
  let out = converted.get(sql);
  if (out === undefined) {
    let i = 0;
    out = sql.replace(/\?/g, () => `$${++i}`);
    if (converted.size > 2048) converted.clear();
    converted.set(sql, out);
  }
  return out;
}

/**
 * Named (prepared) statements: PostgreSQL parses and plans each text once per connection instead of per call
 * (the store's hot statements run thousands of times a second; parse + plan was a third of the database's CPU
 * per dequeue + complete cycle). Capped, since texts with IN lists differ by length; past the cap, unnamed.
 */
const statementNames = new Map<string, string>();
const MAX_NAMED = 2_000;
function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED) statementNames.set(text, (name = `lg${statementNames.size}`));
  return name;
}

export class PostgresRunner implements SqlRunner {
  readonly dialect: SqlDialect = POSTGRES_DIALECT;
  #pool: pg.Pool;

  constructor(config: pg.PoolConfig) {
    this.#pool = new pg.Pool(config);
    // An idle client that loses its connection must not crash the process.
    this.#pool.on("error", () => {});
  }

  async #exec(client: pg.PoolClient, op: SqlOp): Promise<unknown> {
    const text = toPgPlaceholders(op.sql);
    const res = await client.query({ name: statementName(text), text, values: op.params.map((p) => (p === undefined ? null : p)) });
    if (op.kind === "column") return res.rows.map((row: Record<string, unknown>) => row[res.fields[0]!.name]);
    return op.kind === "all" ? res.rows : (res.rowCount ?? 0);
  }

  async #drive<T>(client: pg.PoolClient, program: Program<T>): Promise<T> {
    let step = program.next();
    while (!step.done) {
      let result: unknown;
      try {
        result = await this.#exec(client, step.value);
      } catch (e) {
        step = program.throw(e);
        continue;
      }
      step = program.next(result);
    }
    return step.value;
  }

  async read<T>(program: (d: SqlDialect) => Program<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      return await this.#drive(client, program(this.dialect));
    } finally {
      client.release();
    }
  }

  /** One transaction; retried (fresh program, up to 3 times) when PostgreSQL reports a deadlock or serialization failure. */
  async write<T>(program: (d: SqlDialect) => Program<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#writeOnce(program);
      } catch (e) {
        const code = (e as { code?: string }).code;
        if ((code !== "40P01" && code !== "40001") || attempt >= 3) throw e;
      }
    }
  }

  async #writeOnce<T>(program: (d: SqlDialect) => Program<T>): Promise<T> {
    const client = await this.#pool.connect();
    let broken = false;
    try {
      await client.query("BEGIN");
      const out = await this.#drive(client, program(this.dialect));
      await client.query("COMMIT");
      return out;
    } catch (e) {
      await client.query("ROLLBACK").catch(() => (broken = true));
      throw e;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
