// The store's SQL runner: every write program is all-or-nothing on its own, also when SQLite group-commits
// programs that arrive together (each in a SAVEPOINT of one transaction), and a promise settles only once
// its writes are committed.
import { afterAll, beforeAll, expect, it } from "vitest";
import { all, run, type Program } from "@/server/db/sql/program";
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
});
