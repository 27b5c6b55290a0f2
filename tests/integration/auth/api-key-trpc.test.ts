// Service identities reach tRPC with their API key (a release bot approving over HTTP), judged by the
// same scope table as people; a presented key is the only credential considered.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/server/auth/api-keys";
import { appRouter } from "@/server/routers/_app";
import { createContext } from "@/server/trpc";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

describeEachDialect("tRPC with an API key", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "apikey-trpc");
  });
  afterAll(() => database.drop());

  async function call(path: string, headers: Record<string, string>, post?: unknown): Promise<{ status: number; body: string }> {
    const init = post === undefined ? { headers } : { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ json: post }) };
    const query = post === undefined ? `?input=${encodeURIComponent(JSON.stringify({ json: {} }))}` : "";
    const req = new Request(`http://localhost/api/trpc/${path}${query}`, init);
    const res = await fetchRequestHandler({ endpoint: "/api/trpc", req, router: appRouter, createContext: () => createContext({ headers: req.headers, database }) });
    return { status: res.status, body: await res.text() };
  }

  it("a release bot's key reads what its role allows and is refused the rest", async () => {
    const { token } = await createApiKey(database.db, { name: "release bot", role: "release_bot" });
    expect((await call("approvals.list", { authorization: `Bearer ${token}` })).status).toBe(200);
    const refused = await call("trainers.startRun", { "x-api-key": token }, {});
    expect(refused.status).toBe(403);
    expect(refused.body).toContain("training:run");
    const runner = await createApiKey(database.db, { name: "runner", role: "runner" });
    const denied = await call("approvals.list", { authorization: `Bearer ${runner.token}` });
    expect(denied.status).toBe(403);
    expect(denied.body).toContain("dashboard:read");
  });

  it("a bad or revoked key is refused outright, even beside a session cookie", async () => {
    const bad = await call("approvals.list", { authorization: "Bearer lg_not-a-key", cookie: "better-auth.session_token=x" });
    expect(bad.status).toBe(401);
    const { token, key } = await createApiKey(database.db, { name: "old bot", role: "release_bot" });
    await revokeApiKey(database.db, key.id);
    expect((await call("approvals.list", { authorization: `Bearer ${token}` })).status).toBe(401);
  });
});
