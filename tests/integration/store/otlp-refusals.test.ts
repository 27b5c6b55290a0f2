// OTLP refusals answer in the request's encoding (OTLP/HTTP: the response uses the request's Content-Type):
// a protobuf request gets a protobuf google.rpc.Status, an OTLP/JSON one a JSON Status — the key check's
// 401/403 included, on the store's fast path and on the route-handler (web) path alike.
import protobuf from "protobufjs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createStoreHttpHandler } from "@/server/store/http/handler";
import { describeEachDialect } from "../../helpers/db";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";

// google.rpc.Status, declared here from the spec rather than taken from the server's code.
const Status = new protobuf.Type("Status").add(new protobuf.Field("code", 1, "int32")).add(new protobuf.Field("message", 2, "string"));
new protobuf.Root().define("google.rpc").add(Status);
type DecodedStatus = { code: number; message: string };

describeEachDialect("OTLP refusals in the request's encoding", (dialect) => {
  let s: StoreServer;
  let web: (r: Request) => Promise<Response>;
  beforeAll(async () => {
    s = await startStoreServer(dialect, "otlp-refusals");
    web = createStoreHttpHandler({ store: s.store, db: s.database.db, allowAnonymous: false });
  });
  afterAll(() => s?.close());

  const PB = "application/x-protobuf";
  const cases: { name: string; headers: Record<string, string> | (() => Record<string, string>); status: number; code: number; message: RegExp }[] = [
    { name: "no key", headers: {}, status: 401, code: 16, message: /an API key is required/ },
    { name: "a revoked or made-up key", headers: { authorization: "Bearer lg_not-a-key" }, status: 401, code: 16, message: /invalid or revoked/ },
    { name: "a release bot's key", headers: () => ({ authorization: `Bearer ${s.keys.release_bot}` }), status: 403, code: 7, message: /lacks the "store:write" scope/ },
  ];
  const via = {
    "fast path": (path: string, init: RequestInit) => fetch(`${s.url}${path}`, init),
    "route handler": (path: string, init: RequestInit) => web(new Request(`http://otlp.local${path}`, init)),
  };

  for (const [where, send] of Object.entries(via)) {
    for (const c of cases) {
      it(`${where}: ${c.name} → ${c.status} as a protobuf Status for a protobuf request, JSON for JSON`, async () => {
        const auth = typeof c.headers === "function" ? c.headers() : c.headers;
        const pb = await send("/v1/traces", { method: "POST", headers: { "content-type": PB, ...auth }, body: new Uint8Array([0x0a, 0x00]) });
        expect(pb.status).toBe(c.status);
        expect(pb.headers.get("content-type")).toBe(PB);
        const status = Status.decode(new Uint8Array(await pb.arrayBuffer())) as unknown as DecodedStatus;
        expect(status.code).toBe(c.code);
        expect(status.message).toMatch(c.message);

        const js = await send("/v1/traces", { method: "POST", headers: { "content-type": "application/json; charset=utf-8", ...auth }, body: "{}" });
        expect(js.status).toBe(c.status);
        expect(js.headers.get("content-type")).toBe("application/json");
        expect(await js.json()).toEqual({ code: c.code, message: expect.stringMatching(c.message) });
      });
    }
  }

  it("gzips the Status when the client accepts gzip; 405 and the 501 signals answer as Status too", async () => {
    const res = await fetch(`${s.url}/v1/traces`, { method: "POST", headers: { "content-type": PB, "accept-encoding": "gzip" }, body: new Uint8Array() });
    expect(res.status).toBe(401);
    // fetch inflates a gzip answer itself; the header says it was sent gzipped
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect((Status.decode(new Uint8Array(await res.arrayBuffer())) as unknown as DecodedStatus).code).toBe(16);
    // Next.js drops Content-Encoding from route handlers' answers: the web form answers uncompressed.
    const plain = await web(new Request("http://otlp.local/v1/traces", { method: "POST", headers: { "content-type": PB, "accept-encoding": "gzip" }, body: new Uint8Array() }));
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect((Status.decode(new Uint8Array(await plain.arrayBuffer())) as unknown as DecodedStatus).message).toMatch(/API key/);

    const get = await fetch(`${s.url}/v1/traces`, { headers: { "content-type": PB } });
    expect(get.status).toBe(405);
    expect((Status.decode(new Uint8Array(await get.arrayBuffer())) as unknown as DecodedStatus).message).toMatch(/POST/);
    const metrics = await fetch(`${s.url}/v1/metrics`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(metrics.status).toBe(501);
    expect(((await metrics.json()) as DecodedStatus).message).toMatch(/traces only/);
  });
});
