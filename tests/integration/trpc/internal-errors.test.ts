// What a failing call tells its caller: an internal error's text (a Prisma or SQL message naming tables,
// columns, values) stays in the server log; the caller reads that the call failed, over real HTTP. And a
// batch of more calls than the dashboard ever sends is refused as a whole, before any procedure runs.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createContext } from "@/server/trpc";
import type { Database } from "@/server/db/client";
import { TRPC_MAX_BATCH } from "@/server/trpc-http";
import { makePerson, signIn } from "../../helpers/auth";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { serveTrpc, type TrpcServer } from "../../helpers/trpc-server";

const SECRET = "no such table: secret_internal_table (column api_key_hash)";

/** A database that fails every query with an internal message, once the caller has been identified. */
function failing(real: Database): Database {
  const db = new Proxy({} as Database["db"], {
    get(_t, prop) {
      if (prop === "then") return undefined;
      return new Proxy(() => undefined, { get: () => () => Promise.reject(new Error(SECRET)), apply: () => Promise.reject(new Error(SECRET)) });
    },
  });
  return { ...real, db };
}

describe("tRPC internal errors and batch size", () => {
  let database: TestDatabase;
  let web: TrpcServer;
  let cookie: string;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite", "trpc-internal");
    web = await serveTrpc(database, async (headers) => {
      const ctx = await createContext({ headers, database });
      const broken = failing(database);
      return { ...ctx, db: broken.db, database: broken };
    });
    const person = await makePerson(database, [{ role: "viewer", agent: null }]);
    cookie = await signIn(database, person.email, person.password);
  });
  afterAll(async () => {
    await web?.close();
    await database?.drop();
  });

  it("a 500 says the call failed, never the database's own words", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await fetch(`${web.url}/candidates.list?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`, { headers: { cookie } });
    const text = await res.text();
    log.mockRestore();
    expect(res.status).toBe(500);
    expect(text).not.toContain("secret_internal_table");
    expect(text).toContain("internal error");
  });

  it(`a batch over ${TRPC_MAX_BATCH} calls is refused with a 400 naming the limit`, async () => {
    const paths = Array(TRPC_MAX_BATCH + 1).fill("auth.me").join(",");
    const input = Object.fromEntries(Array.from({ length: TRPC_MAX_BATCH + 1 }, (_, i) => [i, { json: null }]));
    const res = await fetch(`${web.url}/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { cookie } });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/batch/i);
  });
});
