// Malformed-input sweep with fast-check: ≥1,000 generated requests per route family (wrong types, missing
// fields, unknown ids, odd query strings, bad protobuf and gzip) plus huge and deeply nested bodies.
// Properties: never a 5xx; every refusal is a 4xx whose body names the problem; a refused write changes
// nothing (row counts of every store table are unchanged).
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { createStoreHttpHandler } from "@/server/store/http/handler";
import { describeEachDialect } from "../../helpers/db";
import { createTestStore, makeSpan, type StoreFixture } from "../../helpers/store";

const RUNS = 1_000;
const hexString = (maxLength: number, minLength = 0) => fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength, maxLength });

describeEachDialect("malformed-input sweep", (dialect) => {
  let f: StoreFixture;
  let handle: (r: Request) => Promise<Response>;
  let auth: Record<string, string>;
  let ids: { rollout: string; attempt: string; resources: string; worker: string };

  beforeAll(async () => {
    f = await createTestStore(dialect, "sweep", { scanDebounceMs: 0, maxWaitSeconds: 0.05 });
    handle = createStoreHttpHandler({ store: f.store, db: f.database.db, allowAnonymous: false });
    auth = { Authorization: `Bearer ${(await createApiKey(f.database.db, { name: "sweep", role: "algorithm" })).token}` };
    const r = await f.store.startRollout({ input: "seed", worker_id: "Worker-0" });
    await f.store.addSpan(makeSpan(r.rollout_id, r.attempt.attempt_id, 1, "seed"));
    const res = await f.store.addResources({});
    ids = { rollout: r.rollout_id, attempt: r.attempt.attempt_id, resources: res.resources_id, worker: "Worker-0" };
  });
  afterAll(() => f?.drop());

  async function counts(): Promise<string> {
    const rows = await f.database.db.$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT (SELECT COUNT(*) FROM store_rollouts) AS r, (SELECT COUNT(*) FROM store_attempts) AS a, (SELECT COUNT(*) FROM store_spans) AS s,
              (SELECT COUNT(*) FROM store_resources_versions) AS v, (SELECT COUNT(*) FROM store_workers) AS w`,
    );
    return JSON.stringify(rows[0], (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v));
  }

  type Req = { method: "GET" | "POST"; path: string; body?: Uint8Array | string; headers?: Record<string, string> };

  async function check(req: Req) {
    const before = req.method === "POST" ? await counts() : "";
    const res = await handle(
      new Request(`http://sweep.local${req.path}`, { method: req.method, headers: { ...auth, "content-type": "application/json", ...req.headers }, body: req.method === "POST" ? (req.body as BodyInit) : undefined }),
    );
    const text = Buffer.from(await res.arrayBuffer()).toString("utf8");
    if (res.status >= 500) throw new Error(`${req.method} ${req.path} → ${res.status}: ${text.slice(0, 300)}`);
    if (res.status >= 400) {
      if (req.path.startsWith("/v1/agl")) {
        const body = JSON.parse(text) as { detail: unknown };
        const named = typeof body.detail === "string" ? body.detail.length > 0 : Array.isArray(body.detail) && body.detail.every((d: { loc?: unknown[]; msg?: string }) => Array.isArray(d.loc) && !!d.msg);
        if (!named) throw new Error(`refusal without a reason: ${text}`);
      } else if (text.replace(/[^\x20-\x7e]/g, "").length < 10) throw new Error(`OTLP refusal without a message: ${text}`);
      if (req.method === "POST" && (await counts()) !== before) throw new Error(`refused ${req.path} still wrote: ${before} → ${await counts()}`);
    }
  }

  const junk = fc.oneof(fc.anything({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 3 }), fc.constant(null), fc.string(), fc.integer(), fc.double());
  const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: a }, { weight: 1, arbitrary: junk });
  const anyId = () => fc.oneof(fc.constantFrom(ids.rollout, "ro-000000000000", "latest", ids.attempt, "at-nope", "x"), fc.string({ minLength: 1, maxLength: 20 }));
  const config = fc.record({ timeout_seconds: maybe(fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }))), max_attempts: maybe(fc.integer({ min: -2, max: 5 })), retry_condition: maybe(fc.array(fc.constantFrom("failed", "timeout", "nope"))) }, { requiredKeys: [] });
  const rolloutReq = fc.record({ input: maybe(fc.jsonValue({ maxDepth: 2 })), mode: maybe(fc.constantFrom("train", "val", "test", "prod", null)), resources_id: maybe(fc.option(fc.string({ maxLength: 10 }))), config: maybe(fc.option(config)), metadata: maybe(fc.option(fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 })))) }, { requiredKeys: [] });
  const spanLike = () =>
    fc.record(
      {
        rollout_id: maybe(anyId()),
        attempt_id: maybe(anyId()),
        sequence_id: maybe(fc.integer({ min: -5, max: 2 ** 32 })),
        trace_id: maybe(hexString(32)),
        span_id: maybe(hexString(16, 1)),
        name: maybe(fc.string({ maxLength: 20 })),
        status: maybe(fc.record({ status_code: fc.constantFrom("OK", "ERROR", "UNSET", "BAD") })),
        attributes: maybe(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }))),
        events: maybe(fc.array(fc.record({ name: fc.string() }), { maxLength: 2 })),
        start_time: maybe(fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }))),
      },
      { requiredKeys: [] },
    );
  const body = (a: fc.Arbitrary<unknown>) => fc.oneof({ weight: 4, arbitrary: a.map((v) => JSON.stringify(v)) }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) }, { weight: 1, arbitrary: junk.map((v) => JSON.stringify(v) ?? "") });
  const run = (arb: fc.Arbitrary<Req>) => fc.assert(fc.asyncProperty(arb, check), { numRuns: RUNS });

  it("enqueue and dequeue", { timeout: 120_000 }, () =>
    run(
      fc.oneof(
        body(fc.record({ rollouts: maybe(fc.array(rolloutReq, { maxLength: 4 })) }, { requiredKeys: [] })).map((b) => ({ method: "POST" as const, path: "/v1/agl/queues/rollouts/enqueue", body: b })),
        body(fc.record({ limit: maybe(fc.integer({ min: -3, max: 3 })), worker_id: maybe(fc.option(fc.string({ maxLength: 8 }))) }, { requiredKeys: [] })).map((b) => ({ method: "POST" as const, path: "/v1/agl/queues/rollouts/dequeue", body: b })),
      ),
    ));

  it("rollouts: start, update, search, get", { timeout: 120_000 }, () =>
    run(
      fc.oneof(
        body(rolloutReq).map((b) => ({ method: "POST" as const, path: "/v1/agl/rollouts", body: b })),
        fc.tuple(anyId(), body(fc.record({ status: maybe(fc.constantFrom("queuing", "running", "bogus", null)), mode: maybe(fc.constantFrom("train", null)), config: maybe(fc.option(config)), metadata: maybe(fc.option(fc.object())) }, { requiredKeys: [] }))).map(([id, b]) => ({ method: "POST" as const, path: `/v1/agl/rollouts/${encodeURIComponent(id)}`, body: b })),
        body(fc.record({ status_in: maybe(fc.array(fc.constantFrom("queuing", "nope"))), limit: maybe(fc.integer({ min: -3, max: 3 })), offset: maybe(fc.integer({ min: -2, max: 2 })), sort_by: maybe(fc.constantFrom("rollout_id", "bogus")), sort_order: maybe(fc.constantFrom("asc", "up")), filter_logic: maybe(fc.constantFrom("and", "xor")) }, { requiredKeys: [] })).map((b) => ({ method: "POST" as const, path: "/v1/agl/rollouts/search", body: b })),
        fc.tuple(fc.constantFrom("limit", "offset", "status_in", "sort_by", "sort_order", "rollout_id_in", "filter_logic"), fc.string({ maxLength: 6 })).map(([k, v]) => ({ method: "GET" as const, path: `/v1/agl/rollouts?${k}=${encodeURIComponent(v)}` })),
      ),
    ));

  it("attempts: start, update, search, latest", { timeout: 120_000 }, () =>
    run(
      fc.oneof(
        fc.tuple(anyId(), body(fc.record({ worker_id: maybe(fc.option(fc.string({ maxLength: 6 }))) }, { requiredKeys: [] }))).map(([id, b]) => ({ method: "POST" as const, path: `/v1/agl/rollouts/${encodeURIComponent(id)}/attempts`, body: b })),
        fc.tuple(anyId(), anyId(), body(fc.record({ status: maybe(fc.constantFrom("running", "failed", "weird", null)), worker_id: maybe(fc.option(fc.string())), last_heartbeat_time: maybe(fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }))), metadata: maybe(fc.option(fc.object())) }, { requiredKeys: [] }))).map(([r, a, b]) => ({ method: "POST" as const, path: `/v1/agl/rollouts/${encodeURIComponent(r)}/attempts/${encodeURIComponent(a)}`, body: b })),
        fc.tuple(anyId(), body(fc.record({ limit: maybe(fc.integer({ min: -3, max: 3 })), sort_by: maybe(fc.constantFrom("sequence_id", "bad")) }, { requiredKeys: [] }))).map(([r, b]) => ({ method: "POST" as const, path: `/v1/agl/rollouts/${encodeURIComponent(r)}/attempts/search`, body: b })),
        anyId().map((r) => ({ method: "GET" as const, path: `/v1/agl/rollouts/${encodeURIComponent(r)}/attempts/latest` })),
      ),
    ));

  it("spans: add, search, next", { timeout: 120_000 }, () =>
    run(
      fc.oneof(
        { weight: 3, arbitrary: body(spanLike()).map((b) => ({ method: "POST" as const, path: "/v1/agl/spans", body: b })) },
        fc.record({ x: fc.boolean() }).map(() => ({ method: "POST" as const, path: "/v1/agl/spans", body: JSON.stringify({ ...makeSpan(ids.rollout, "at-missing", 3, "half"), span_id: "ffffffffffffffff" }) })),
        body(fc.record({ rollout_id: maybe(anyId()), attempt_id: maybe(anyId()), name_contains: maybe(fc.string()), limit: maybe(fc.integer({ min: -3, max: 2000 })), sort_by: maybe(fc.constantFrom("sequence_id", "bad", "attributes")) }, { requiredKeys: [] })).map((b) => ({ method: "POST" as const, path: "/v1/agl/spans/search", body: b })),
        body(fc.record({ rollout_id: maybe(anyId()), attempt_id: maybe(anyId()) }, { requiredKeys: [] })).map((b) => ({ method: "POST" as const, path: "/v1/agl/spans/next", body: b })),
      ),
    ));

  it("workers, resources and waits", { timeout: 120_000 }, () =>
    run(
      fc.oneof(
        fc.tuple(anyId(), body(fc.record({ heartbeat_stats: maybe(fc.option(fc.object({ maxDepth: 2 }))) }, { requiredKeys: [] }))).map(([w, b]) => ({ method: "POST" as const, path: `/v1/agl/workers/${encodeURIComponent(w)}`, body: b })),
        body(fc.record({ status_in: maybe(fc.array(fc.constantFrom("idle", "zzz"))), worker_id_contains: maybe(fc.string()) }, { requiredKeys: [] })).map((b) => ({ method: "POST" as const, path: "/v1/agl/workers/search", body: b })),
        fc.tuple(fc.constantFrom("", `/${ids.resources}`, "/new-id"), body(fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.record({ resource_type: fc.constantFrom("llm", "proxy_llm", "prompt_template", "x"), endpoint: maybe(fc.string()), model: maybe(fc.string()), template: maybe(fc.string()), engine: maybe(fc.constantFrom("jinja", "mustache")) }, { requiredKeys: [] }), junk), { maxKeys: 3 }))).map(([p, b]) => ({ method: "POST" as const, path: `/v1/agl/resources${p}`, body: b })),
        fc.tuple(fc.constantFrom("limit", "offset", "sort_by", "resources_id_contains"), fc.string({ maxLength: 5 })).map(([k, v]) => ({ method: "GET" as const, path: `/v1/agl/resources?${k}=${encodeURIComponent(v)}` })),
        body(fc.record({ rollout_ids: maybe(fc.array(anyId(), { maxLength: 3 })), timeout: maybe(fc.option(fc.double({ min: -1, max: 0.01, noNaN: true }))) }, { requiredKeys: [] })).map((b) => ({ method: "POST" as const, path: "/v1/agl/waits/rollouts", body: b })),
      ),
    ));

  it("OTLP: random bytes, truncated protobuf, bad gzip, JSON", { timeout: 120_000 }, async () => {
    const { encodeStatus } = await import("@/server/http/otlp-reply");
    const seed = encodeStatus("seed bytes for mutation");
    await run(
      fc.oneof(
        fc.uint8Array({ maxLength: 200 }).map((b) => ({ method: "POST" as const, path: "/v1/traces", body: b, headers: { "content-type": "application/x-protobuf" } })),
        fc.uint8Array({ maxLength: 200 }).map((b) => ({ method: "POST" as const, path: "/v1/traces", body: b, headers: { "content-type": "application/x-protobuf", "content-encoding": "gzip" } })),
        fc.uint8Array({ maxLength: 60 }).map((b) => ({ method: "POST" as const, path: "/v1/traces", body: new Uint8Array(gzipSync(Buffer.concat([Buffer.from([0x0a, 0x40]), b]))), headers: { "content-type": "application/x-protobuf", "content-encoding": "gzip" } })),
        fc.integer({ min: 0, max: seed.length }).map((n) => ({ method: "POST" as const, path: "/v1/traces", body: seed.slice(0, n), headers: { "content-type": "application/x-protobuf" } })),
        body(fc.record({ resourceSpans: maybe(fc.array(fc.record({ scopeSpans: maybe(fc.array(fc.record({ spans: maybe(fc.array(fc.record({ traceId: maybe(hexString(32)), spanId: maybe(hexString(16)), name: maybe(fc.string()) }, { requiredKeys: [] }), { maxLength: 2 })) }, { requiredKeys: [] }), { maxLength: 2 })) }, { requiredKeys: [] }), { maxLength: 2 })) }, { requiredKeys: [] })).map((b) => ({ method: "POST" as const, path: "/v1/traces", body: b, headers: { "content-type": "application/json" } })),
      ),
    );
  });

  it("huge and deeply nested bodies are refused with 4xx", { timeout: 60_000 }, async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    await check({ method: "POST", path: "/v1/agl/rollouts", body: `{"input":${deep}}` });
    await check({ method: "POST", path: "/v1/agl/queues/rollouts/enqueue", body: `{"rollouts":[{"input":${"{\"a\":".repeat(5_000)}1${"}".repeat(5_000)}}]}` });
    const big = await handle(new Request("http://sweep.local/v1/agl/spans", { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: "x".repeat(33 * 1024 * 1024) }));
    expect(big.status).toBe(413);
    expect(((await big.json()) as { detail: string }).detail).toContain("larger");
    const deepOtlp = await handle(new Request("http://sweep.local/v1/traces", { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: `{"resourceSpans":${deep}}` }));
    expect(deepOtlp.status).toBe(400);
  });
  // Malformed input is refused before any SQL runs, and what little reaches the database is the conformance suites' point: PostgreSQL in the full run.
}, { postgresql: "full-run" });
