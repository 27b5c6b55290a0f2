// Request-body limits over real HTTP, for every route family that reads a body — sign-in, tRPC, pointers and
// receipts, the store REST API, OTLP — on both ways a request reaches its handler: the route handlers as
// plain `next start` serves them (app/**/route.ts, served Next's way by tests/helpers/next-like.ts), and the
// production server's listener (scripts/serve.ts: header pre-check, store fast path, the rest to the same
// route handlers). Over-limit bodies — a declared Content-Length never sent, and chunks streamed from a
// generator — get 413 naming the limit, the server cuts the connection, and no table changes.
import http from "node:http";
import { gzipSync } from "node:zlib";
import protobuf from "protobufjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { publicOrigin } from "@/server/auth/origin";
import type { Database } from "@/server/db/client";
import { sendBigBody } from "../../helpers/big-body";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { listen, nextLike, type Route, type RouteModule } from "../../helpers/next-like";
import { makePerson, TEST_PASSWORD } from "../../helpers/auth";
import { countOf } from "../../hostile/row-counts";

const KiB = 1024;
const MiB = 1024 * KiB;
/** Beyond the limit, the client may get this much more out before the server's close reaches it (socket buffers). */
const SLACK = 24 * MiB;

const Status = new protobuf.Type("Status").add(new protobuf.Field("code", 1, "int32")).add(new protobuf.Field("message", 2, "string"));
new protobuf.Root().define("google.rpc").add(Status);

type Family = { name: string; path: string; method: "GET" | "POST"; limit: number; headers(): Record<string, string>; message(res: { body: Buffer; headers: http.IncomingHttpHeaders }): string };

let db: TestDatabase;
let keys: { runner: string; algorithm: string; policy: string };
const servers: Record<"route handlers" | "production server", string> = { "route handlers": "", "production server": "" };
const closers: (() => Promise<void>)[] = [];

const json = (r: { body: Buffer }) => JSON.parse(r.body.toString("utf8")) as Record<string, unknown>;
const FAMILIES: Family[] = [
  { name: "sign-in", path: "/api/auth/sign-in/email", method: "POST", limit: 8 * KiB, headers: () => ({ "content-type": "application/json", origin: publicOrigin().origin }), message: (r) => json(r).message as string },
  {
    name: "tRPC (batch)",
    path: "/api/trpc/feedback.submit,people.create?batch=1",
    method: "POST",
    limit: 1 * MiB,
    headers: () => ({ "content-type": "application/json" }),
    message: (r) => {
      const items = JSON.parse(r.body.toString()) as { error: { json: { message: string; data: { code: string; path: string } } } }[];
      expect(items.map((i) => [i.error.json.data.code, i.error.json.data.path])).toEqual([["PAYLOAD_TOO_LARGE", "feedback.submit"], ["PAYLOAD_TOO_LARGE", "people.create"]]);
      return items[0]!.error.json.message;
    },
  },
  { name: "pointers", path: "/v1/pointers/support-desk/approved-default", method: "GET", limit: 0, headers: () => ({ authorization: `Bearer ${keys.runner}` }), message: (r) => json(r).message as string },
  { name: "receipts", path: "/v1/receipts/cand-1", method: "GET", limit: 0, headers: () => ({ authorization: `Bearer ${keys.runner}` }), message: (r) => json(r).message as string },
  { name: "gate datasets", path: "/v1/gate/datasets", method: "POST", limit: 16 * MiB, headers: () => ({ "content-type": "application/json", authorization: `Bearer ${keys.policy}` }), message: (r) => json(r).message as string },
  { name: "gate API", path: "/v1/gate/receipts", method: "POST", limit: 1 * MiB, headers: () => ({ "content-type": "application/json", authorization: `Bearer ${keys.algorithm}` }), message: (r) => json(r).message as string },
  { name: "store REST", path: "/v1/agl/queues/rollouts/enqueue", method: "POST", limit: 16 * MiB, headers: () => ({ "content-type": "application/json", authorization: `Bearer ${keys.algorithm}` }), message: (r) => json(r).detail as string },
  {
    name: "OTLP",
    path: "/v1/traces",
    method: "POST",
    limit: 16 * MiB,
    headers: () => ({ "content-type": "application/x-protobuf", authorization: `Bearer ${keys.runner}` }),
    message: (r) => {
      expect(r.headers["content-type"]).toBe("application/x-protobuf");
      const status = Status.decode(r.body) as unknown as { code: number; message: string };
      expect(status.code).toBe(8); // RESOURCE_EXHAUSTED
      return status.message;
    },
  },
];
const named = (limit: number) => (limit === 0 ? /take no body/ : limit >= MiB ? new RegExp(`${limit / MiB} MiB`) : new RegExp(`${limit / KiB} KiB`));

/** Rows of every table: a refused request must leave all of them as they were. */
async function rowCounts(database: Database): Promise<Record<string, number>> {
  const tables = await database.db.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`);
  const out: Record<string, number> = {};
  // countOf: a refusal's own audit record is no write (tests/hostile/row-counts.ts).
  for (const { name } of tables) out[name] = Number((await database.db.$queryRawUnsafe<{ n: number | bigint }[]>(countOf(name)))[0]!.n);
  return out;
}

beforeAll(async () => {
  db = await createTestDatabase("sqlite", "bodies");
  process.env.DATABASE_URL = db.url; // the route modules open the process-wide database from it
  keys = {
    runner: (await createApiKey(db.db, { name: "bodies runner", role: "runner" })).token,
    algorithm: (await createApiKey(db.db, { name: "bodies algorithm", role: "algorithm" })).token,
    policy: (await createApiKey(db.db, { name: "bodies policy", role: "policy" })).token,
  };
  const mod = async (p: Promise<unknown>) => (await p) as RouteModule;
  const routes: Route[] = [
    { pattern: /^\/api\/auth\//, module: await mod(import("@/app/api/auth/[...all]/route")) },
    { pattern: /^\/api\/trpc\/([^/]+)$/, module: await mod(import("@/app/api/trpc/[trpc]/route")), params: (m) => ({ trpc: m[1]! }) },
    { pattern: /^\/v1\/pointers\/([^/]+)\/([^/]+)$/, module: await mod(import("@/app/v1/pointers/[agent]/[pointer]/route")), params: (m) => ({ agent: m[1]!, pointer: m[2]! }) },
    { pattern: /^\/v1\/receipts\/([^/]+)$/, module: await mod(import("@/app/v1/receipts/[candidateId]/route")), params: (m) => ({ candidateId: m[1]! }) },
    { pattern: /^\/v1\/agl\//, module: await mod(import("@/app/v1/agl/[...path]/route")) },
    { pattern: /^\/v1\/traces$/, module: await mod(import("@/app/v1/traces/route")) },
    { pattern: /^\/v1\/gate\//, module: await mod(import("@/app/v1/gate/[...path]/route")) },
  ];
  const routeHandlers = await listen(http.createServer(nextLike(routes)));
  servers["route handlers"] = routeHandlers.url;
  closers.push(routeHandlers.close);
  try {
    const { createLightgateServer } = await import("@/server/process/server-listener");
    const { getStoreRuntime } = await import("@/server/store/runtime");
    const { serveGateApi } = await import("@/server/gate-api/http");
    const { getDatabase } = await import("@/server/db/client");
    const gateApi = async (request: Request) => serveGateApi(await getDatabase(), request);
    const production = await listen(createLightgateServer((await getStoreRuntime()).serve, nextLike(routes), { gateApi }));
    servers["production server"] = production.url;
    closers.push(production.close);
  } catch (e) {
    console.error("the production server's listener did not start:", (e as Error).message);
  }
}, 180_000); // importing every route module through the transform takes most of a minute on a loaded machine

afterAll(async () => {
  for (const close of closers) await close();
  const g = globalThis as { lightgateStore?: Promise<{ store: { close(): Promise<void> } }>; lightgateDb?: Promise<Database> };
  await (await g.lightgateStore)?.store.close();
  await (await g.lightgateDb)?.close();
  await db?.drop();
});

/** The in-flight budgets come back to 0 once refused or finished requests are done (polled: release runs on close). */
async function budgetsReturnToZero() {
  const { bodyBytesInFlight } = await import("@/server/http/body-limits");
  const families = ["auth", "trpc", "store", "otlp", "gate-api", "gate-datasets"] as const;
  for (let i = 0; i < 100 && families.some((f) => bodyBytesInFlight(f) !== 0); i++) await new Promise((r) => setTimeout(r, 20));
  expect(families.map((f) => bodyBytesInFlight(f))).toEqual(families.map(() => 0));
}

/** An upload that sends `bytes` of a chunked body and then holds the connection open, unfinished. */
function heldUpload(base: string, path: string, headers: Record<string, string>, bytes: number) {
  const u = new URL(path, base);
  const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: "POST", headers: { ...headers, "transfer-encoding": "chunked" }, agent: false });
  req.on("error", () => {});
  const chunk = Buffer.alloc(256 * KiB, 0x20);
  let sent = 0;
  const sentAll = new Promise<void>((resolve) => {
    req.on("close", () => resolve()); // refused and cut off: nothing more will go out
    const pump = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      resolve();
    };
    pump();
  });
  return { sentAll, abort: () => req.destroy() };
}

for (const server of ["route handlers", "production server"] as const) {
  describe(`body limits: ${server}`, () => {
    for (const f of FAMILIES) {
      for (const mode of ["declared", "chunked"] as const) {
        it(`${f.name}: an over-limit ${mode === "declared" ? "Content-Length" : "chunked body"} gets 413 naming the limit, the connection is cut, nothing is written`, { timeout: 60_000 }, async () => {
          const before = await rowCounts(db);
          const total = mode === "declared" ? 300 * MiB : f.limit + SLACK * 2;
          const res = await sendBigBody(servers[server], f.path, { method: f.method, headers: f.headers(), total, mode });
          expect(res.status, res.body.toString().slice(0, 300)).toBe(413);
          expect(f.message(res)).toMatch(named(f.limit));
          expect(res.headers.connection).toBe("close");
          expect(res.cutOff).toBe(true); // the server closed the connection before the client was done
          if (mode === "declared") expect(res.sent).toBe(0); // answered from the headers alone
          else expect(res.sent).toBeLessThan(f.limit + SLACK);
          expect(await rowCounts(db)).toEqual(before);
          await budgetsReturnToZero();
        });
      }
    }

    it("store: bodies in flight at once are bounded per family and per caller — past either, 503 with Retry-After", { timeout: 60_000 }, async () => {
      const { bodyBytesInFlight } = await import("@/server/http/body-limits");
      const headers = (key: string) => ({ "content-type": "application/json", authorization: `Bearer ${key}` });
      const [other, third] = [(await createApiKey(db.db, { name: `held ${server}`, role: "algorithm" })).token, (await createApiKey(db.db, { name: `third ${server}`, role: "algorithm" })).token];
      // Two keys hold 10 MiB each (within their 16 MiB shares): 20 of the family's 24 MiB.
      const held = [heldUpload(servers[server], "/v1/agl/rollouts", headers(keys.algorithm), 10 * MiB), heldUpload(servers[server], "/v1/agl/rollouts", headers(other), 10 * MiB)];
      await Promise.all(held.map((h) => h.sentAll));
      for (let i = 0; i < 200 && bodyBytesInFlight("store") < 20 * MiB; i++) await new Promise((r) => setTimeout(r, 20));
      const before = await rowCounts(db);
      const family = await sendBigBody(servers[server], "/v1/agl/queues/rollouts/enqueue", { headers: headers(third), total: 8 * MiB, mode: "chunked" });
      expect(family.status).toBe(503);
      expect(family.headers["retry-after"]).toBe("1");
      expect(json(family).detail).toMatch(/too many bodies for the store API \(\/v1\/agl\) at once \(24 MiB in flight\)/);
      // A key already holding 10 MiB gets no more than its 16 MiB share, whatever the family has left.
      held[1]!.abort();
      for (let i = 0; i < 200 && bodyBytesInFlight("store") > 10 * MiB; i++) await new Promise((r) => setTimeout(r, 20));
      const share = await sendBigBody(servers[server], "/v1/agl/queues/rollouts/enqueue", { headers: headers(keys.algorithm), total: 8 * MiB, mode: "chunked" });
      expect(share.status).toBe(503);
      expect(json(share).detail).toMatch(/already sending 16 MiB of bodies to the store API \(\/v1\/agl\) at once, its share/);
      for (const h of held) h.abort();
      await budgetsReturnToZero();
      expect(await rowCounts(db)).toEqual(before);
      const ok = await fetch(`${servers[server]}/v1/agl/queues/rollouts/enqueue`, { method: "POST", headers: headers(keys.algorithm), body: JSON.stringify({ rollouts: [{ input: "after the rush" }] }) });
      expect(ok.status).toBe(201);
    });

    it("OTLP: a gzip bomb is refused after decompression (413 naming the limit), nothing is written", { timeout: 60_000 }, async () => {
      const before = await rowCounts(db);
      const bomb = gzipSync(Buffer.alloc(40 * MiB), { level: 9 }); // ~40 KB
      const res = await fetch(`${servers[server]}/v1/traces`, { method: "POST", headers: { "content-type": "application/json", "content-encoding": "gzip", authorization: `Bearer ${keys.runner}` }, body: bomb });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { message: string }).message).toMatch(/decompressed request body is larger than the 16 MiB/);
      expect(await rowCounts(db)).toEqual(before);
    });

    it("bodies within the limits still work: sign-in, a tRPC call, an enqueue, an OTLP export", { timeout: 30_000 }, async () => {
      const base = servers[server];
      const person = await makePerson(db, [{ role: "viewer", agent: null }]);
      const signIn = await fetch(`${base}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json", origin: publicOrigin().origin, "x-forwarded-for": "192.0.2.7" }, body: JSON.stringify({ email: person.email, password: TEST_PASSWORD }) });
      expect(signIn.status, await signIn.clone().text()).toBe(200);
      const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
      const me = await fetch(`${base}/api/trpc/auth.me`, { headers: { cookie } });
      expect(((await me.json()) as { result: { data: { json: { email: string } } } }).result.data.json.email).toBe(person.email);
      const invalid = await fetch(`${base}/api/trpc/feedback.submit`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${keys.runner}` }, body: JSON.stringify({ json: { nope: 1 } }) });
      expect(invalid.status).toBe(400); // the body reached tRPC's input parser
      const enqueue = await fetch(`${base}/v1/agl/queues/rollouts/enqueue`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${keys.algorithm}` }, body: JSON.stringify({ rollouts: [{ input: { server } }] }) });
      expect(enqueue.status).toBe(201);
      const otlp = await fetch(`${base}/v1/traces`, { method: "POST", headers: { "content-type": "application/x-protobuf", authorization: `Bearer ${keys.runner}` }, body: new Uint8Array() });
      expect(otlp.status).toBe(200);
    });

    it("gate API: a 4 MiB dataset reaches its handler whole; 2 MiB to a route of the 1 MiB family is refused naming that limit", { timeout: 30_000 }, async () => {
      const base = servers[server];
      const cases = Array.from({ length: 2_000 }, (_, i) => ({ id: `${server}-${i}`, input: "x".repeat(2_000) }));
      const dataset = await fetch(`${base}/v1/gate/datasets`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${keys.policy}` }, body: JSON.stringify({ name: `big ${server}`, kind: "held_out", cases }) });
      expect(dataset.status, await dataset.clone().text()).toBe(201);
      expect(((await dataset.json()) as { case_count: number }).case_count).toBe(2_000);
      const before = await rowCounts(db);
      const declared = await fetch(`${base}/v1/gate/receipts`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${keys.algorithm}` }, body: JSON.stringify({ agent: "a", algorithm: { name: "x", config: { blob: "y".repeat(2 * MiB) } } }) });
      expect(declared.status).toBe(413);
      expect(((await declared.json()) as { message: string }).message).toMatch(/1 MiB \(1048576 bytes\) limit for the gate API/);
      expect(await rowCounts(db)).toEqual(before);
      await budgetsReturnToZero();
    });
  });
}

describe("body limits: the production server's pre-check", () => {
  it("answers Expect: 100-continue with 413 before the client sends any body", async () => {
    for (const path of ["/api/auth/sign-in/email", "/v1/agl/queues/rollouts/enqueue"]) {
      const res = await sendBigBody(servers["production server"], path, { headers: { "content-type": "application/json", authorization: `Bearer ${keys.algorithm}` }, total: 300 * MiB, mode: "declared", expectContinue: true });
      expect(res.status).toBe(413);
      expect(res.continued).toBe(false);
      expect(res.sent).toBe(0);
    }
  });

  it("refuses a page POST over the pages' limit from its headers", async () => {
    const res = await sendBigBody(servers["production server"], "/rollouts", { total: 300 * MiB, mode: "declared" });
    expect(res.status).toBe(413);
    expect(json(res).message).toMatch(/64 KiB \(65536 bytes\) limit for pages/);
  });
});
