// Every refused decision is recorded, also those stopped before the domain (issue 23: 18 of 69 refused attacks
// left no audit row): over real HTTP on both databases — tRPC (cross-site with a valid session, a form post, a
// wrong method, an invalid key beside a valid cookie, a mutation without the scope), the gate API (cross-site,
// content type, a bad key), writes to /v1/pointers through its route file, sign-in refusals, and store writes
// refused for a bad key or the scope. A flood is bounded: repeats of one (caller, route, reason) inside the coalescing window
// are counted into one row written when the window closes, and the counts add up to every refusal.
import { afterAll, beforeAll, expect, it } from "vitest";
import { REFUSAL_WINDOW_MS, RefusalLog, refusalLog } from "@/server/audit/refusal-log";
import { CLIENT_ADDRESS_HEADER, withClientAddress } from "@/server/auth/client-address";
import { handleAuthRequest } from "@/server/http/auth-endpoints";
import { publicOrigin } from "@/server/auth/origin";
import { getDatabase } from "@/server/db/client";
import { serveGateApi } from "@/server/gate-api/http";
import { describeEachDialect } from "../../helpers/db";
import { makePerson, signIn } from "../../helpers/auth";
import { serveFetch, type Served } from "../../helpers/auth-server";
import { nextLike, type RouteModule } from "../../helpers/next-like";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";
import { serveTrpc, type TrpcServer } from "../../helpers/trpc-server";
import http from "node:http";
import type { AddressInfo } from "node:net";

type Row = { action: string; actorId: string; targetId: string; after: Record<string, unknown> };

describeEachDialect("refusals at the edge are recorded", (dialect) => {
  let srv: StoreServer;
  let trpc: TrpcServer;
  let gate: Served;
  let pointers: { url: string; close(): Promise<void> };
  let cookie = "";
  let viewerId = "";
  const origin = publicOrigin().origin;

  beforeAll(async () => {
    srv = await startStoreServer(dialect, "edge-refusals");
    trpc = await serveTrpc(srv.database);
    gate = await serveFetch((request) => serveGateApi(srv.database, request));
    // The pointer route file opens the process-wide database (server/db/client.ts getDatabase).
    process.env.DATABASE_URL = srv.database.url;
    const mod = (await import("@/app/v1/pointers/[agent]/[pointer]/route")) as unknown as RouteModule;
    const server = http.createServer(nextLike([{ pattern: /^\/v1\/pointers\/([^/]+)\/([^/]+)$/, module: mod, params: (m) => ({ agent: m[1]!, pointer: m[2]! }) }]));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    pointers = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
    const viewer = await makePerson(srv.database, [{ role: "viewer", agent: null }]);
    viewerId = viewer.id;
    cookie = await signIn(srv.database, viewer.email, viewer.password);
  }, 90_000);
  afterAll(async () => {
    await pointers?.close();
    await gate?.close();
    await trpc?.close();
    const global = globalThis as { lightgateDb?: Promise<{ close(): Promise<void> }> };
    if (global.lightgateDb) await (await global.lightgateDb).close();
    delete global.lightgateDb;
    await srv?.close();
  });

  /** The refusal rows written since `seq`, after every pending window is closed. */
  async function rowsSince(seq: number): Promise<Row[]> {
    await flushAll();
    const rows = await srv.database.db.auditEvent.findMany({ where: { seq: { gt: seq }, action: { startsWith: "request.refused" } }, orderBy: { seq: "asc" } });
    return rows.map((r) => ({ action: r.action, actorId: r.actorId, targetId: r.targetId, after: JSON.parse(r.after ?? "{}") as Record<string, unknown> }));
  }
  // The route files record in the process-wide database (the same one, opened from DATABASE_URL).
  const flushAll = async () => {
    await refusalLog(srv.database).flush();
    await refusalLog(await getDatabase()).flush();
  };
  const head = async () => (await srv.database.db.auditEvent.findFirst({ orderBy: { seq: "desc" }, select: { seq: true } }))?.seq ?? 0;
  const from = (address: string) => ({ [CLIENT_ADDRESS_HEADER]: address });

  it("tRPC: cross-site and form posts with a valid session, a wrong method, a bad key beside a cookie, a missing scope", async () => {
    await flushAll();
    const seq = await head();
    const post = (path: string, headers: Record<string, string>, body = "{}") => fetch(`${trpc.url}/${path}`, { method: "POST", headers, body });
    const answers = [
      await post("people.create", { "content-type": "application/json", cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" }),
      await post("people.create", { "content-type": "application/x-www-form-urlencoded", cookie, origin }, "name=x"),
      await fetch(`${trpc.url}/people.create`, { headers: { cookie, origin } }),
      await post("people.create", { "content-type": "application/json", cookie, origin, authorization: "Bearer lgk_0000000000000000_not-a-real-key-aaaaaaaaaaaaaaaaaaaaaaaaaaaaa" }),
      await post("people.create", { "content-type": "application/json", cookie, origin }, JSON.stringify({ json: { name: "X", email: "x@example.org", password: "a-long-enough-password-1", grants: [] } })),
    ];
    expect(answers.map((a) => a.status)).toEqual([403, 415, 405, 401, 403]);
    const rows = await rowsSince(seq);
    expect(rows.map((r) => [r.action, r.targetId, r.after.status, r.after.reason])).toEqual([
      ["request.refused", "trpc people.create", 403, "cross_site"],
      ["request.refused", "trpc people.create", 415, "unsupported_media_type"],
      ["request.refused", "trpc people.create", 405, "method_not_supported"],
      ["request.refused", "trpc people.create", 401, "unauthorized"],
      ["request.refused", "trpc people.create", 403, "forbidden"],
    ]);
    expect(rows.map((r) => r.after.credential)).toEqual(["session", "session", "session", "api-key", "session"]);
    expect(rows[4]!.actorId).toBe(viewerId); // identified: recorded as the person
  });

  it("gate API: cross-site with a session, a wrong content type, a bad key, a wrong method; a GET without credentials is not a decision", async () => {
    await flushAll();
    const seq = await head();
    const body = JSON.stringify({ agent: "desk" });
    const answers = [
      await fetch(`${gate.url}/v1/gate/receipts/rc-none/gate-runs`, { method: "POST", headers: { "content-type": "application/json", cookie, "sec-fetch-site": "cross-site" }, body }),
      await fetch(`${gate.url}/v1/gate/receipts/rc-none/gate-runs`, { method: "POST", headers: { "content-type": "text/plain", authorization: `Bearer ${srv.keys.algorithm}` }, body }),
      await fetch(`${gate.url}/v1/gate/receipts/rc-none/gate-runs`, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer nope" }, body }),
      await fetch(`${gate.url}/v1/gate/receipts/rc-none/gate-runs`, { method: "PUT", headers: { "content-type": "application/json", cookie }, body }),
      await fetch(`${gate.url}/v1/gate/verifications/pending`),
    ];
    expect(answers.map((a) => a.status)).toEqual([403, 415, 401, 405, 401]);
    const rows = await rowsSince(seq);
    expect(rows.map((r) => [r.targetId, r.after.status, r.after.reason, r.after.credential])).toEqual([
      ["gate POST /v1/gate/receipts/:receipt_id/gate-runs", 403, "forbidden", "session"],
      ["gate POST /v1/gate/receipts/:receipt_id/gate-runs", 415, "unsupported_media_type", "api-key"],
      ["gate POST /v1/gate/receipts/:receipt_id/gate-runs", 401, "unauthorized", "api-key"],
      ["gate /v1/gate/receipts/:receipt_id/gate-runs", 405, "method_not_allowed", "session"],
    ]);
  });

  it("writes to /v1/pointers through the route file: each method refused and recorded", async () => {
    await flushAll();
    const seq = await head();
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const res = await fetch(`${pointers.url}/v1/pointers/desk/approved-default`, { method, headers: { "content-type": "application/json", ...from("192.0.2.7") }, body: method === "DELETE" ? undefined : "{}" });
      expect(res.status, method).toBe(405);
    }
    const rows = await rowsSince(seq);
    expect(rows.map((r) => [r.targetId, r.after.method, r.after.status, r.after.path, r.after.address])).toEqual(
      ["POST", "PUT", "PATCH", "DELETE"].map((m) => ["/v1/pointers", m, 405, "/v1/pointers/desk/approved-default", "192.0.2.7"]),
    );
  });

  it("auth: malformed sign-ins are recorded; a wrong password keeps its own row; an unserved path is no decision", async () => {
    const auth = await serveFetch((request) => handleAuthRequest(srv.database, withClientAddress(request, 0)));
    try {
      await flushAll();
      const seq = await head();
      const signIn = (headers: Record<string, string>, body: unknown) => fetch(`${auth.url}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
      expect((await signIn({ origin }, { email: "not-an-email", password: "whatever-1234" })).status).toBe(400);
      expect((await signIn({ origin }, { email: "a@example.org" })).status).toBe(400);
      expect((await signIn({ origin }, { email: "nobody@example.org", password: "whatever-1234" })).status).toBe(401);
      expect((await fetch(`${auth.url}/api/auth/sign-up/email`, { method: "POST", headers: { "content-type": "application/json", origin }, body: "{}" })).status).toBe(404);
      const rows = await rowsSince(seq);
      expect(rows.map((r) => [r.targetId, r.after.status, r.after.credential])).toEqual([
        ["auth /sign-in/email", 400, "password"],
        ["auth /sign-in/email", 400, "password"],
      ]);
      const failed = await srv.database.db.auditEvent.count({ where: { seq: { gt: seq }, action: "auth.sign_in_failed" } });
      expect(failed).toBe(1);
    } finally {
      await auth.close();
    }
  });

  it("store writes refused for a bad key or the scope", async () => {
    await flushAll();
    const seq = await head();
    const enqueue = (key: string) => fetch(`${srv.url}/v1/agl/queues/rollouts/enqueue`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body: JSON.stringify({ input: {} }) });
    expect((await enqueue("not-a-key")).status).toBe(401);
    expect((await enqueue(srv.keys.runner)).status).toBe(403);
    expect((await fetch(`${srv.url}/v1/agl/statistics`)).status).toBe(401); // a GET with no key: not a decision
    const rows = await rowsSince(seq);
    expect(rows.map((r) => [r.targetId, r.after.status, r.after.reason, r.after.credential])).toEqual([
      ["store POST queues/rollouts/enqueue", 401, "unauthorized", "api-key"],
      ["store POST queues/rollouts/enqueue", 403, "forbidden", "api-key"],
    ]);
  });

  it("a burst from one caller costs two rows, and the counts add up to every refusal", async () => {
    await flushAll();
    const seq = await head();
    const burst = 150;
    const statuses = await Promise.all(
      Array.from({ length: burst }, () => fetch(`${pointers.url}/v1/pointers/desk/canary`, { method: "DELETE", headers: from("198.51.100.9") }).then((r) => r.status)),
    );
    expect(statuses.every((s) => s === 405)).toBe(true);
    const before = await srv.database.db.auditEvent.count({ where: { seq: { gt: seq } } });
    expect(before).toBe(1); // only the first is written while the window is open
    const rows = await rowsSince(seq);
    expect(rows.map((r) => r.action)).toEqual(["request.refused", "request.refused.repeated"]);
    expect(rows.reduce((n, r) => n + (r.after.count as number), 0)).toBe(burst);
    expect(rows[1]!.after).toMatchObject({ method: "DELETE", status: 405, address: "198.51.100.9", count: burst - 1 });
  });

  it("a window closes by itself: its repeats are written without anyone asking", async () => {
    await flushAll();
    const seq = await head();
    const log = new RefusalLog(srv.database, { windowMs: 300, maxOpen: 10 });
    const refusal = { caller: { actor: null, credential: "session" as const, address: "192.0.2.99" }, route: "trpc people.create", method: "POST", status: 403, reason: "cross_site", message: "cross-site request refused" };
    for (let i = 0; i < 7; i++) void log.record(refusal);
    await log.settled();
    await new Promise((resolve) => setTimeout(resolve, 600));
    await log.settled();
    const rows = await srv.database.db.auditEvent.findMany({ where: { seq: { gt: seq } }, orderBy: { seq: "asc" } });
    expect(rows.map((r) => [r.action, (JSON.parse(r.after ?? "{}") as { count: number }).count])).toEqual([
      ["request.refused", 1],
      ["request.refused.repeated", 6],
    ]);
  });

  it("many callers at once: at most the open-window limit, the rest counted into one overflow row", async () => {
    await flushAll();
    const seq = await head();
    const maxOpen = 20;
    const callers = maxOpen + 5;
    const log = new RefusalLog(srv.database, { windowMs: REFUSAL_WINDOW_MS, maxOpen });
    const refusal = (i: number) => ({ caller: { actor: null, credential: "api-key" as const, address: `10.0.${i}.1` }, route: "store POST rollouts", method: "POST", status: 401, reason: "unauthorized", message: "the API key is invalid or revoked" });
    // Three times each: the later ones of each open window are counted repeats.
    for (let round = 0; round < 3; round++) for (let i = 0; i < callers; i++) void log.record(refusal(i));
    await log.settled();
    expect(await srv.database.db.auditEvent.count({ where: { seq: { gt: seq } } })).toBe(maxOpen);
    await log.flush();
    const rows = await rowsSince(seq);
    expect(rows).toHaveLength(2 * maxOpen + 1);
    expect(rows.reduce((n, r) => n + (r.after.count as number), 0)).toBe(3 * callers);
    const overflow = rows.filter((r) => r.after.reason === "many callers");
    expect(overflow).toHaveLength(1);
    expect(overflow[0]!.after.count).toBe(3 * 5);
    expect(overflow[0]!.actorId).toBe("anonymous");
  });
});
