// Database.transaction is all-or-nothing, and on SQLite a write made outside a transaction while it is
// open is never swept into it (the adapter shares one connection per client; see server/db/client.ts).
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../helpers/db";

describeEachDialect("Database.transaction", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "tx");
  });
  afterAll(() => database?.drop());

  it("commits everything or nothing", async () => {
    await expect(
      database.transaction(async (tx) => {
        await tx.systemSetting.create({ data: { key: "a", value: "1" } });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await database.db.systemSetting.findUnique({ where: { key: "a" } })).toBeNull();
    await database.transaction((tx) => tx.systemSetting.create({ data: { key: "a", value: "1" } }));
    expect((await database.db.systemSetting.findUnique({ where: { key: "a" } }))?.value).toBe("1");
  });

  it("keeps a concurrent outside write when the transaction rolls back", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const tx = database.transaction(async (t) => {
      await t.systemSetting.create({ data: { key: "inside", value: "x" } });
      await gate;
      throw new Error("rollback");
    });
    const outside = database.db.systemSetting.create({ data: { key: "outside", value: "y" } });
    setTimeout(release, 50);
    await expect(tx).rejects.toThrow("rollback");
    await outside;
    expect(await database.db.systemSetting.findUnique({ where: { key: "inside" } })).toBeNull();
    expect((await database.db.systemSetting.findUnique({ where: { key: "outside" } }))?.value).toBe("y");
  });
});

describeEachDialect("Database.transaction under contention", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "txc");
  });
  afterAll(() => database?.drop());

  it("an outside write issued while a transaction holds the lock waits for it and both land", async () => {
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const tx = database.transaction(async (t) => {
      await t.systemSetting.create({ data: { key: "held", value: "1" } });
      entered();
      await new Promise((r) => setTimeout(r, 200)); // yields while holding the write lock
      await t.systemSetting.update({ where: { key: "held" }, data: { value: "2" } });
    });
    await inside;
    const t0 = Date.now();
    await database.db.systemSetting.create({ data: { key: "later", value: "y" } });
    expect(Date.now() - t0).toBeLessThan(5_000);
    await tx;
    expect((await database.db.systemSetting.findUnique({ where: { key: "held" } }))?.value).toBe("2");
    expect((await database.db.systemSetting.findUnique({ where: { key: "later" } }))?.value).toBe("y");
  });

  it("runs 20 concurrent read-modify-write transactions without losing an update", async () => {
    await database.db.systemSetting.create({ data: { key: "counter", value: "0" } });
    await Promise.all(
      Array.from({ length: 20 }, () =>
        database.transaction(async (t) => {
          const row = await t.systemSetting.findUniqueOrThrow({ where: { key: "counter" } });
          await t.systemSetting.update({ where: { key: "counter" }, data: { value: String(Number(row.value) + 1) } });
        }, { locks: ["counter"] }),
      ),
    );
    const final = await database.db.systemSetting.findUniqueOrThrow({ where: { key: "counter" } });
    expect(final.value).toBe("20");
  });
});
