// The store's SQL runner: every write program is all-or-nothing on its own, also when SQLite group-commits
// programs that arrive together (each in a SAVEPOINT of one transaction), and a promise settles only once
// its writes are committed. A `last` statement (COMMIT sent with it on PostgreSQL, or no transaction when it is
// the only one) keeps all of that; runAll's writes land together or not at all.
import { afterAll, beforeAll, expect, it } from "vitest";
import { all, run, runAll, type Program } from "@/server/db/sql/program";
import { sqlRunnerFor } from "@/server/db/sql/runner";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../helpers/db";

describeEachDialect("SQL runner writes", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "sqlrun");
  });
  afterAll(() => database?.drop());

  const put = (key: string, value: string) =>
    function* (): Program<number> {
      return yield* run("INSERT INTO \"SystemSetting\" (key, value, \"updatedAt\") VALUES (?, ?, CURRENT_TIMESTAMP)", [key, value]);
    };
  const keys = async (prefix: string) =>
    (await sqlRunnerFor(database).read(() => all<{ key: string }>("SELECT key FROM \"SystemSetting\" WHERE key LIKE ? ORDER BY key", [`${prefix}%`]))).map((r) => r.key);

  it("concurrent writes: a failing program rolls back only itself, the others commit", async () => {
    const sql = sqlRunnerFor(database);
    await sql.write(put("gc-0", "already there"));
    const results = await Promise.allSettled([
      sql.write(put("gc-1", "a")),
      sql.write(function* () {
        yield* run("INSERT INTO \"SystemSetting\" (key, value, \"updatedAt\") VALUES (?, ?, CURRENT_TIMESTAMP)", ["gc-half", "written then undone"]);
        throw new Error("program failed half-way");
      }),
      sql.write(put("gc-2", "b")),
      sql.write(put("gc-0", "duplicate key")), // a constraint error from the database itself
      sql.write(put("gc-3", "c")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "rejected", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe("program failed half-way");
    expect(await keys("gc-")).toEqual(["gc-0", "gc-1", "gc-2", "gc-3"]);
  });

  it("a settled write is visible to every later read, and many concurrent writes all land", async () => {
    const sql = sqlRunnerFor(database);
    await sql.write(put("seen-0", "x"));
    expect(await keys("seen-")).toEqual(["seen-0"]);
    await Promise.all(Array.from({ length: 200 }, (_, i) => sql.write(put(`many-${String(i).padStart(3, "0")}`, "v"))));
    expect(await keys("many-")).toHaveLength(200);
  });

  const insert = (key: string, value: string) => ({ sql: 'INSERT INTO "SystemSetting" (key, value, "updatedAt") VALUES (?, ?, CURRENT_TIMESTAMP)', params: [key, value] });

  it("a last statement commits the program; when it fails, what came before it is rolled back", async () => {
    const sql = sqlRunnerFor(database);
    await sql.write(function* () {
      yield* run(insert("last-1", "a").sql, insert("last-1", "a").params);
      yield* run(insert("last-2", "b").sql, insert("last-2", "b").params, { last: true });
    });
    expect(await keys("last-")).toEqual(["last-1", "last-2"]);
    const failed = sql.write(function* () {
      yield* run(insert("last-3", "c").sql, insert("last-3", "c").params);
      yield* run(insert("last-1", "duplicate").sql, insert("last-1", "duplicate").params, { last: true });
    });
    await expect(failed).rejects.toThrow();
    expect(await keys("last-")).toEqual(["last-1", "last-2"]);
    // The only statement, last: atomic by itself.
    await expect(sql.write(() => run(insert("last-2", "again").sql, insert("last-2", "again").params, { last: true }))).rejects.toThrow();
    await sql.write(() => run(insert("last-4", "d").sql, insert("last-4", "d").params, { last: true }));
    expect(await keys("last-")).toEqual(["last-1", "last-2", "last-4"]);
    // The runner's connections stay usable after all of that (no transaction left open on one).
    await Promise.all(Array.from({ length: 30 }, (_, i) => sql.write(() => run(insert(`after-${i}`, "v").sql, insert(`after-${i}`, "v").params, { last: true }))));
    expect(await keys("after-")).toHaveLength(30);
  });

  it("a statement after the last one is a program error and nothing of it is written", async () => {
    const sql = sqlRunnerFor(database);
    const wrong = sql.write(function* () {
      yield* run(insert("late-1", "a").sql, insert("late-1", "a").params);
      yield* run(insert("late-2", "b").sql, insert("late-2", "b").params, { last: true });
      yield* run(insert("late-3", "c").sql, insert("late-3", "c").params);
    });
    if (dialect === "postgresql") {
      await expect(wrong).rejects.toThrow(/after its last one/);
      // COMMIT had gone out with the last statement: those two stand, the third never ran.
      expect(await keys("late-")).toEqual(["late-1", "late-2"]);
    } else {
      await wrong; // SQLite runs a program as one function call: `last` changes nothing there
      expect(await keys("late-")).toEqual(["late-1", "late-2", "late-3"]);
    }
  });

  it("runAll: several writes land together, or none does when one fails", async () => {
    const sql = sqlRunnerFor(database);
    await sql.write((d) => runAll(d, [insert("all-1", "a"), insert("all-2", "b"), insert("all-3", "c")], { last: true }));
    expect(await keys("all-")).toEqual(["all-1", "all-2", "all-3"]);
    await expect(sql.write((d) => runAll(d, [insert("all-4", "d"), insert("all-2", "duplicate"), insert("all-5", "e")], { last: true }))).rejects.toThrow();
    expect(await keys("all-")).toEqual(["all-1", "all-2", "all-3"]);
  });

  if (dialect === "postgresql") {
    it("the store's writes do not wait for the disk; durable ones (resource versions, retention holds) do", async () => {
      const sql = sqlRunnerFor(database);
      const setting = function* () {
        const [row] = yield* all<{ v: string }>("SELECT current_setting('synchronous_commit') AS v");
        yield* run("SELECT 1", [], { last: true });
        return row!.v;
      };
      expect(await sql.write(setting)).toBe("off");
      expect(await sql.write(setting, { durable: true })).toBe("on");
      // SET LOCAL ends with its transaction: the connection is back to the store's setting.
      expect(await sql.write(setting)).toBe("off");
      expect(await sql.write(() => run(insert("durable-1", "a").sql, insert("durable-1", "a").params, { last: true }), { durable: true })).toBe(1);
      expect(await keys("durable-")).toEqual(["durable-1"]);
    });
  }
}, { postgresql: "always" });
