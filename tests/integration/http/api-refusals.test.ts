// Every HTTP API route names what is wrong in JSON even where Next.js or better-auth would not: a method a
// route does not serve (Next.js alone: an empty 405), a path no route serves (Next.js alone: its HTML 404
// page), a switched-off or unknown auth endpoint (better-auth alone: plain-text or empty 404). Found by the
// hostile-input suite (tests/hostile/, e2e/hostile.spec.ts), which checks the same on the real server.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleAuthRequest } from "@/server/http/auth-endpoints";
import { API_METHODS } from "@/server/http/api-route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? routeFiles(p) : e.name === "route.ts" ? [p] : [];
  });
}
const ROUTES = ["app/api", "app/v1"].flatMap((d) => routeFiles(path.resolve(d))).sort();
type RouteModule = Record<string, (request: Request, ctx: unknown) => Promise<Response> | Response>;

async function jsonOf(res: Response): Promise<{ message?: string }> {
  expect(res.headers.get("content-type")).toContain("application/json");
  return (await res.json()) as { message?: string };
}

describe("API refusals name the problem", () => {
  // The route files record their refusals in the process-wide database (server/http/api-route.ts).
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite", "api-refusals");
    process.env.DATABASE_URL = database.url;
  });
  afterAll(async () => {
    const global = globalThis as { lightgateDb?: Promise<{ close(): Promise<void> }> };
    if (global.lightgateDb) await (await global.lightgateDb).close();
    delete global.lightgateDb;
    await database?.drop();
  });

  it("finds the API routes", () => {
    expect(ROUTES.length).toBeGreaterThanOrEqual(10);
  });

  it.each(ROUTES.map((f) => path.relative(process.cwd(), f)))("%s exports a handler for every method", async (file) => {
    const mod = (await import(path.resolve(file))) as RouteModule;
    for (const m of API_METHODS) expect(typeof mod[m], `${file} has no ${m} handler: Next.js would answer an empty 405`).toBe("function");
  });

  it("a method a route does not serve is a JSON 405 naming the ones it does", async () => {
    const mod = (await import(path.resolve("app/v1/pointers/[agent]/[pointer]/route.ts"))) as RouteModule;
    for (const m of ["POST", "PUT", "PATCH", "DELETE"]) {
      const res = await mod[m]!(new Request("http://localhost/v1/pointers/support-desk/history", { method: m }), { params: Promise.resolve({ agent: "support-desk", pointer: "history" }) });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET");
      expect((await jsonOf(res)).message).toBe(`${m} is not allowed on /v1/pointers/support-desk/history: use GET`);
    }
  });

  it.each(["app/api/[...path]/route.ts", "app/v1/[...path]/route.ts"])("%s answers an unknown path with a JSON 404 naming it", async (file) => {
    const mod = (await import(path.resolve(file))) as RouteModule;
    const where = file.startsWith("app/api") ? "/api/health/x" : "/v1/pointers/support-desk/history/extra";
    for (const m of API_METHODS) {
      const res = await mod[m]!(new Request(`http://localhost${where}`, { method: m }), {});
      expect(res.status).toBe(404);
      const { message } = await jsonOf(res);
      expect(message).toContain(`no API endpoint at ${where}`);
      expect(message).toContain("/v1/pointers/<agent>");
    }
  });
});

describe("auth endpoints refuse in JSON", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite", "auth-http");
  });
  afterAll(() => database?.drop());

  it.each([
    ["GET", "/api/auth/no-such-endpoint"],
    ["POST", "/api/auth/sign-up/email"],
    ["POST", "/api/auth/change-password"],
    ["GET", "/api/auth/session"],
  ])("%s %s → 404 naming the endpoints served", async (method, p) => {
    const res = await handleAuthRequest(database, new Request(`http://localhost:3000${p}`, { method, headers: { "content-type": "application/json", origin: "http://localhost:3000" }, body: method === "POST" ? "{}" : undefined }));
    expect(res.status).toBe(404);
    const { message } = await jsonOf(res);
    expect(message).toBe(`no auth endpoint ${method} ${p}: this server serves POST /api/auth/sign-in/email, POST /api/auth/sign-out and GET /api/auth/get-session`);
  });

  it("leaves better-auth's own JSON answers as they are", async () => {
    const res = await handleAuthRequest(database, new Request("http://localhost:3000/api/auth/sign-in/email", { method: "POST", headers: { "content-type": "application/json", origin: "http://localhost:3000" }, body: '{"email":5}' }));
    expect(res.status).toBe(400);
    expect((await jsonOf(res)).message).toContain("email");
  });
});
