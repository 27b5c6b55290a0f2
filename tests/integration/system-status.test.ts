// system.status: anyone may ask whether the instance is healthy, but only signed-in people with a role see
// which database it uses, where, its version, its migrations and the serving process. Over real HTTP through
// the tRPC endpoint, as the browser asks.
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeTrpcClient } from "@/components/trpc/client";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../helpers/db";
import { makePerson, signIn } from "../helpers/auth";
import { serveTrpc, type TrpcServer } from "../helpers/trpc-server";

describeEachDialect("system.status", (dialect) => {
  let database: TestDatabase;
  let web: TrpcServer;
  let cookie = "";
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "status");
    web = await serveTrpc(database);
    const viewer = await makePerson(database, [{ role: "viewer", agent: "desk" }]);
    cookie = await signIn(database, viewer.email, viewer.password);
  });
  afterAll(async () => {
    await web?.close();
    await database?.drop();
  });

  it("anonymous callers learn only whether the instance is healthy", async () => {
    const res = await fetch(`${web.url}/system.status`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const data = (JSON.parse(text) as { result: { data: { json: Record<string, unknown> } } }).result.data.json;
    expect(Object.keys(data).sort()).toEqual(["checkedAt", "ok"]);
    expect(data.ok).toBe(true);
    const { hostname, pathname } = new URL(database.url.replace(/^file:/, "file://"));
    for (const leak of [dialect, "SQLite", "PostgreSQL", "migration", hostname, pathname.split("/").pop()!, String(process.pid)]) {
      if (leak) expect(text, leak).not.toContain(leak);
    }
  });

  it("a signed-in person with any role sees the database in use and that every migration is applied", async () => {
    const status = await makeTrpcClient(web.url, () => ({ cookie })).system.status.query();
    if (!("database" in status)) throw new Error("no details for a signed-in viewer");
    expect(status.database.dialect).toBe(dialect);
    expect(status.database.serverVersion).toMatch(dialect === "sqlite" ? /^SQLite 3\./ : /^PostgreSQL \d+/);
    expect(status.database.migrations.onDisk.length).toBeGreaterThan(0);
    expect(status.database.migrations.pending).toEqual([]);
    expect(status.database.migrations.applied).toEqual(status.database.migrations.onDisk);
    expect(status.ok).toBe(true);
    // A password in the database URL is never shown, not even to them.
    expect(status.database.url).not.toMatch(/:[^:@/*]+@/);
  });
});
