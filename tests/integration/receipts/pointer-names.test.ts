// Names a caller puts in a pointer or receipt path answer 4xx with a message, never 500: inherited object
// names as pointer kinds, a bad percent-encoding, an agent name that only decodes once (`100%25` → `100%`), and
// NUL (PostgreSQL text cannot hold it). Called the way Next.js calls them: the proxy in front, then the
// route modules' GET with the params Next.js hands over (already decoded).
import { NextRequest } from "next/server";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

/** A route module's GET as Next.js calls it: the request, and the params it decoded. */
type RouteGet = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

describeEachDialect("pointer and receipt names from the path", (dialect) => {
  let database: TestDatabase;
  let token: string;
  let pointers: { GET: RouteGet };
  let receipts: { GET: RouteGet };

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "ptr-names");
    token = (await createApiKey(database.db, { name: "prod consumer", role: "runner" })).token;
    // The route modules open the database named by DATABASE_URL (server/db/client.ts getDatabase).
    expect((globalThis as { lightgateDb?: unknown }).lightgateDb).toBeUndefined();
    process.env.DATABASE_URL = database.url;
    pointers = (await import("@/app/v1/pointers/[agent]/[pointer]/route")) as unknown as { GET: RouteGet };
    receipts = (await import("@/app/v1/receipts/[candidateId]/route")) as unknown as { GET: RouteGet };
  }, 60_000);
  afterAll(async () => {
    // Let the next suite's DATABASE_URL take effect.
    const global = globalThis as { lightgateDb?: Promise<{ close(): Promise<void> }> };
    if (global.lightgateDb) await (await global.lightgateDb).close();
    delete global.lightgateDb;
    await database?.drop();
  });

  const request = (path: string) => new Request(`http://lightgate.test${path}`, { headers: { authorization: `Bearer ${token}` } });
  /** Next.js decodes dynamic segments before handing them over (or fails to, for a bad encoding). */
  const decoded = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  async function getPointer(agent: string, pointer: string) {
    const res = await pointers.GET(request(`/v1/pointers/${agent}/${pointer}`), { params: Promise.resolve({ agent: decoded(agent), pointer: decoded(pointer) }) });
    return { status: res.status, body: (await res.json()) as { message?: string; field?: string } };
  }

  it("answers 404 naming the pointer for inherited object names", async () => {
    for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf", "__defineGetter__"]) {
      const r = await getPointer("support-desk", name);
      expect(r.status, name).toBe(404);
      expect(r.body.message, name).toContain(`unknown pointer "${name}"`);
    }
  });

  it("decodes the agent once: 100%25 is the agent 100%", async () => {
    const r = await getPointer("100%25", "approved-default");
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/^100% has no approved default yet/);
  });

  it("answers 400 for a NUL in a name, naming the field", async () => {
    // The route's guard answers before any name is read (server/http/api-route.ts), naming where the NUL is.
    const agent = await getPointer("a%00b", "latest-candidate");
    expect([agent.status, agent.body.field]).toEqual([400, "path"]);
    expect(agent.body.message).toMatch(/must not contain NUL/);
    const res = await receipts.GET(request("/v1/receipts/cand%00x"), { params: Promise.resolve({ candidateId: "cand\u0000x" }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { field: string }).field).toBe("path");
  });

  it("answers 400 with a message for a bad percent-encoding, in front of Next.js and in the routes", async () => {
    const { config, proxy } = await import("@/proxy");
    for (const path of ["/v1/pointers/%E0%A4%A/approved-default", "/v1/receipts/%E0%A4%A", "/candidates/%E0%A4%A", "/api/auth/%E0%A4%A"]) {
      const url = `http://lightgate.test${path}`;
      expect(unstable_doesMiddlewareMatch({ config, url }), path).toBe(true);
      const res = proxy(new NextRequest(url));
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { message: string }).message, path).toMatch(/not valid percent-encoding/);
    }
    const direct = await getPointer("%E0%A4%A", "approved-default");
    expect(direct.status).toBe(400);
    expect(direct.body.message).toMatch(/not valid percent-encoding/);
    const receipt = await receipts.GET(request("/v1/receipts/%E0%A4%A"), { params: Promise.resolve({ candidateId: "%E0%A4%A" }) });
    expect(receipt.status).toBe(400);
    // A good path still reaches the route, and a page still gets the sign-in gate.
    expect(proxy(new NextRequest("http://lightgate.test/v1/pointers/support-desk/approved-default")).headers.get("x-middleware-next")).toBe("1");
    expect(proxy(new NextRequest("http://lightgate.test/candidates/x")).status).toBe(307);
    // Routes that take bodies never pass the proxy (Next.js would cut their bodies at 64 KiB).
    for (const path of ["/api/trpc/store.listRollouts", "/v1/agl/rollouts", "/v1/gate/datasets"]) {
      expect(unstable_doesMiddlewareMatch({ config, url: `http://lightgate.test${path}` }), path).toBe(false);
    }
  });
});
