// The PostgreSQL runner: a pg pool for the store's hot paths. A write program runs on one client between
// BEGIN and COMMIT (read committed); programs that claim queue rows use `FOR UPDATE SKIP LOCKED` and
// programs that change a rollout lock its row first (`SELECT … FOR UPDATE`), so several Lightgate
// processes can share one database.
import pg from "pg";
import { POSTGRES_DIALECT, type Program, type SqlDialect, type SqlOp, type SqlRunner, type WriteOptions } from "./program";

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

/** The connection's socket (node-postgres keeps it as `connection.stream`), to send several queries in one write. */
function socketOf(client: pg.PoolClient): { cork(): void; uncork(): void } | null {
  const stream = (client as unknown as { connection?: { stream?: { cork?: () => void; uncork?: () => void } } }).connection?.stream;
  return stream?.cork && stream.uncork ? (stream as { cork(): void; uncork(): void }) : null;
}

export class PostgresRunner implements SqlRunner {
  readonly dialect: SqlDialect = POSTGRES_DIALECT;
  #pool: pg.Pool;

  constructor(config: pg.PoolConfig) {
    // Pipeline mode: a query is written as soon as it is issued, not after the previous one's answer, so
    // BEGIN travels with a program's first statement and COMMIT with its last (server/db/sql/program.ts).
    // synchronous_commit off for the session: see SqlRunner.write (durable writes turn it on for their transaction).
    this.#pool = new pg.Pool({ ...config, pipeline: true, options: "-c synchronous_commit=off" } as pg.PoolConfig);
    // An idle client that loses its connection must not crash the process.
    this.#pool.on("error", () => {});
  }

  #exec(client: pg.PoolClient, op: SqlOp): Promise<unknown> {
    const text = toPgPlaceholders(op.sql);
    const values = op.params.map((p) => (p === undefined ? null : p));
    // The callback form, not the promise node-postgres makes itself: with that one a server answering 1,000-span
    // pages kept ~10 MB of row texts alive through each young-generation GC (promoted, then a mark-compact every
    // ~0.5 s: the page's p99 at 40 ms); with a callback the texts die young (docs/benchmarks.md).
    return new Promise((resolve, reject) => {
      // A Query made from the text, named after: given a config object, node-postgres copies it through
      // property descriptors on every call (a slow path of V8's runtime, a few µs a statement).
      const query = new pg.Query(text, values, (err: Error | undefined, res: pg.ResultBuilder) => {
        if (err) return reject(err);
        if (op.kind === "column") {
          const name = res.fields[0]!.name;
          return resolve(res.rows.map((row: Record<string, unknown>) => row[name]));
        }
        resolve(op.kind === "all" ? res.rows : (res.rowCount ?? 0));
      });
      (query as unknown as { name?: string }).name = statementName(text);
      client.query(query);
    });
  }

  async read<T>(program: (d: SqlDialect) => Program<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      const gen = program(this.dialect);
      let step = gen.next();
      while (!step.done) {
        let result: unknown;
        try {
          result = await this.#exec(client, step.value);
        } catch (e) {
          step = gen.throw(e);
          continue;
        }
        step = gen.next(result);
      }
      return step.value;
    } finally {
      client.release();
    }
  }

  /** One transaction; retried (fresh program, up to 3 times) when PostgreSQL reports a deadlock or serialization failure. */
  async write<T>(program: (d: SqlDialect) => Program<T>, opts?: WriteOptions): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#writeOnce(program, opts?.durable === true);
      } catch (e) {
        const code = (e as { code?: string }).code;
        if ((code !== "40P01" && code !== "40001") || attempt >= 3) throw e;
      }
    }
  }

  /**
   * Round trips: a program of one `last` statement is one (atomic by itself, no transaction); otherwise BEGIN
   * goes out with the first statement and COMMIT with the `last` one (or on its own after the program).
   * A failed statement aborts the transaction, so a COMMIT already on its way rolls back instead.
   */
  async #writeOnce<T>(program: (d: SqlDialect) => Program<T>, durable: boolean): Promise<T> {
    const client = await this.#pool.connect();
    let open = false; // a transaction is open on this client (BEGIN sent, neither COMMIT nor ROLLBACK yet)
    let broken = false;
    const gen = program(this.dialect);
    try {
      let step = gen.next();
      let ended = false; // COMMIT was sent behind a `last` statement
      while (!step.done) {
        if (ended) throw new Error("a SQL program yielded a statement after its last one");
        const op = step.value;
        const alone = !open && op.last === true && !durable; // a durable write needs its transaction's SET LOCAL
        // BEGIN, the statement and COMMIT in one socket write (node-postgres writes each query on its own): one
        // system call and one wake-up of the database backend instead of two or three.
        const socket = socketOf(client);
        socket?.cork();
        const begin = !open && !alone ? client.query(durable ? "BEGIN; SET LOCAL synchronous_commit = on" : "BEGIN") : null;
        if (begin) open = true;
        const result = this.#exec(client, op);
        const commit = open && op.last ? client.query("COMMIT") : null;
        socket?.uncork();
        if (commit) open = false;
        if (op.last) ended = true;
        // Every answer is awaited (an unawaited rejection would crash the process); the statement's decides.
        const [b, r, c] = await Promise.allSettled([begin, result, commit]);
        if (b.status === "rejected") throw b.reason;
        if (c.status === "rejected") broken = true; // COMMIT itself failed: the connection's state is unknown
        if (r.status === "rejected") {
          step = gen.throw(r.reason);
          continue;
        }
        if (c.status === "rejected") throw c.reason;
        step = gen.next(r.value);
      }
      if (open) {
        open = false;
        await client.query("COMMIT");
      }
      return step.value;
    } catch (e) {
      if (open) await client.query("ROLLBACK").catch(() => (broken = true));
      throw e;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
