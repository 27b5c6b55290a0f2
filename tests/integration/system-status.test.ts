import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../helpers/db";
import { callerFor } from "../helpers/caller";

describeEachDialect("system.status", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "status");
  });
  afterAll(() => database?.drop());

  it("reports the database in use and that every migration is applied", async () => {
    const status = await callerFor(database, null).system.status();
    expect(status.database.dialect).toBe(dialect);
    expect(status.database.serverVersion).toMatch(dialect === "sqlite" ? /^SQLite 3\./ : /^PostgreSQL \d+/);
    expect(status.database.migrations.onDisk.length).toBeGreaterThan(0);
    expect(status.database.migrations.pending).toEqual([]);
    expect(status.database.migrations.applied).toEqual(status.database.migrations.onDisk);
    expect(status.ok).toBe(true);
  });

  it("redacts a password in the database URL it shows", async () => {
    const status = await callerFor(database, null).system.status();
    expect(status.database.url).not.toMatch(/:[^:@/*]+@/);
  });
});
