// OTLP (POST /v1/traces): protobuf (random bytes, truncated and bit-flipped valid requests, valid requests
// with hostile attribute keys, values, ids and 5,000-level nesting), OTLP/JSON (a valid request with one
// change anywhere), gzip (bombs, truncated, random, twice), wrong content types and encodings, batches
// that mix a known and an unknown rollout (all or nothing), uploads cut off half-way. The two gzip bombs
// (1 GiB and 80 MiB inflated) go once each: every one costs the server its 64 MiB inflate limit in CPU.
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import protobuf from "protobufjs";
import { encodeTraceRequest } from "@/server/store/otlp/decode";
import { ATTEMPT_ID_ATTR, ROLLOUT_ID_ATTR, SEQUENCE_ID_ATTR } from "@/server/store/otlp/map";
import { bodyOf, contentType, deepMutated, edgeString, OVERSIZE, oversizeJson, protoName } from "../atoms";
import { as, identityFor, type SuiteContext } from "../context";
import type { HostileCase } from "../http";
import type { FamilyCases } from "../runner";

const PROTOBUF = "application/x-protobuf";

const key = fc.oneof(protoName, edgeString, fc.constantFrom(ROLLOUT_ID_ATTR, ATTEMPT_ID_ATTR, SEQUENCE_ID_ATTR));
const anyValue: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ v: Record<string, unknown> }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    edgeString.map((s) => ({ string_value: s })),
    fc.boolean().map((b) => ({ bool_value: b })),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((b) => ({ int_value: b.toString() })),
    fc.double().map((d) => ({ double_value: d })),
    fc.uint8Array({ maxLength: 16 }).map((b) => ({ bytes_value: b })),
    fc.array(tie("v"), { maxLength: 3 }).map((values) => ({ array_value: { values } })),
    fc.array(fc.record({ key, value: tie("v") }), { maxLength: 3 }).map((values) => ({ kvlist_value: { values } })),
  ),
})).v;
const attributes = fc.array(fc.record({ key, value: anyValue }), { maxLength: 4 });
const nanos = fc.oneof(fc.constantFrom("0", "1700000000000000000", "18446744073709551615", "1"), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String));
const span = fc.record(
  {
    trace_id: fc.oneof({ weight: 3, arbitrary: fc.uint8Array({ minLength: 16, maxLength: 16 }) }, fc.uint8Array({ maxLength: 40 })),
    span_id: fc.oneof({ weight: 3, arbitrary: fc.uint8Array({ minLength: 8, maxLength: 8 }) }, fc.uint8Array({ maxLength: 12 })),
    parent_span_id: fc.uint8Array({ maxLength: 9 }),
    name: edgeString,
    start_time_unix_nano: nanos,
    end_time_unix_nano: nanos,
    attributes,
    events: fc.array(fc.record({ name: edgeString, time_unix_nano: nanos, attributes }), { maxLength: 2 }),
    links: fc.array(fc.record({ trace_id: fc.uint8Array({ maxLength: 17 }), span_id: fc.uint8Array({ maxLength: 9 }), attributes }), { maxLength: 2 }),
    status: fc.record({ code: fc.integer({ min: 0, max: 5 }), message: edgeString }),
  },
  { requiredKeys: ["trace_id", "span_id"] },
);

function resourceOf(rid: string, aid: string, spans: unknown[]) {
  const s = (k: string, v: string) => ({ key: k, value: { string_value: v } });
  return { resource: { attributes: [s(ROLLOUT_ID_ATTR, rid), s(ATTEMPT_ID_ATTR, aid)] }, scope_spans: [{ spans }] };
}

/** An AnyValue nested `depth` kvlists deep, written from the inside out (no encoder recursion). */
const deepCache = new Map<string, Buffer>();
function deepRequest(rid: string, aid: string, depth: number): Buffer {
  const cached = deepCache.get(`${rid} ${aid} ${depth}`);
  if (cached) return cached;
  const W = () => protobuf.Writer.create();
  const kv = (k: string, value: Uint8Array) => W().uint32(10).string(k).uint32(18).bytes(value).finish();
  const str = (s: string) => W().uint32(10).string(s).finish();
  let value = str("leaf");
  for (let i = 0; i < depth; i++) value = W().uint32(50).bytes(W().uint32(10).bytes(kv("k", value)).finish()).finish();
  const resource = W().uint32(10).bytes(kv(ROLLOUT_ID_ATTR, str(rid))).uint32(10).bytes(kv(ATTEMPT_ID_ATTR, str(aid))).finish();
  const spanBytes = W().uint32(10).bytes(Buffer.alloc(16, 7)).uint32(18).bytes(Buffer.alloc(8, 1 + (depth % 250))).uint32(42).string("deep").uint32(74).bytes(kv("deep", value)).finish();
  const resourceSpans = W().uint32(10).bytes(resource).uint32(18).bytes(W().uint32(18).bytes(spanBytes).finish()).finish();
  const bytes = Buffer.from(W().uint32(10).bytes(resourceSpans).finish());
  deepCache.set(`${rid} ${aid} ${depth}`, bytes);
  return bytes;
}

let bombs: { huge: Buffer; overLimit: Buffer } | undefined;
/** gzip members concatenated inflate back to back: 1 GiB and 80 MiB of zeros in ~1 MB and ~80 kB. */
function gzipBombs() {
  if (!bombs) {
    const member = gzipSync(Buffer.alloc(16 << 20), { level: 9 });
    bombs = { huge: Buffer.concat(Array.from({ length: 64 }, () => member)), overLimit: Buffer.concat(Array.from({ length: 5 }, () => member)) };
  }
  return bombs;
}

function validJson(ctx: SuiteContext) {
  const f = ctx.fixtures;
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: ROLLOUT_ID_ATTR, value: { stringValue: f.rolloutId } }, { key: ATTEMPT_ID_ATTR, value: { stringValue: f.attemptId } }] },
        scopeSpans: [{ spans: [{ traceId: "0".repeat(31) + "2", spanId: "00000000000000c3", name: "tool.call:search", startTimeUnixNano: "1700000000000000000", endTimeUnixNano: "1700000001000000000", attributes: [{ key: "tool.name", value: { stringValue: "search" } }, { key: "n", value: { intValue: "5" } }], status: { code: 1 } }] }],
      },
    ],
  };
}

export function otlpCases(ctx: SuiteContext): FamilyCases {
  const f = ctx.fixtures;
  const rid = fc.oneof({ weight: 4, arbitrary: fc.constant(f.rolloutId) }, edgeString, fc.constant("ro-unknown"));
  const aid = fc.oneof({ weight: 4, arbitrary: fc.constant(f.attemptId) }, edgeString);
  const message = fc.tuple(rid, aid, fc.array(span, { minLength: 1, maxLength: 3 }), fc.boolean()).map(([r, a, spans, mixUnknown]) => ({
    resource_spans: [resourceOf(r, a, spans), ...(mixUnknown ? [resourceOf("ro-never-enqueued", "at-none", spans.slice(0, 1))] : [])],
  }));
  const encoded = message.map((m) => {
    try {
      return Buffer.from(encodeTraceRequest(m));
    } catch {
      return Buffer.from("not encodable");
    }
  });
  const valid = Buffer.from(encodeTraceRequest({ resource_spans: [resourceOf(f.rolloutId, f.attemptId, [{ trace_id: Buffer.alloc(16, 1), span_id: Buffer.alloc(8, 2), name: "llm.call", attributes: [{ key: "k", value: { string_value: "v" } }] }])] }));
  const protobufBody = fc.oneof(
    { weight: 5, arbitrary: encoded },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)) },
    fc.integer({ min: 0, max: valid.length - 1 }).map((n) => valid.subarray(0, n)),
    fc.tuple(fc.integer({ min: 0, max: valid.length - 1 }), fc.integer({ min: 1, max: 255 })).map(([i, x]) => {
      const b = Buffer.from(valid);
      b[i] = b[i]! ^ x;
      return b;
    }),
    fc.constantFrom(100, 1_000, 5_000).map((d) => deepRequest(f.rolloutId, f.attemptId, d)),
  );
  const gzipped = (body: fc.Arbitrary<Buffer>) =>
    fc.oneof(
      { weight: 3, arbitrary: body.map((b) => gzipSync(b)) },
      fc.tuple(body, fc.double({ min: 0, max: 0.95, noNaN: true })).map(([b, at]) => {
        const z = gzipSync(b);
        return z.subarray(0, Math.floor(z.length * at));
      }),
      body,
      body.map((b) => gzipSync(gzipSync(b))),
    );
  const kind = fc.constantFrom("protobuf", "json");
  const encoding = fc.oneof({ weight: 6, arbitrary: fc.constant("") }, { weight: 4, arbitrary: fc.constant("gzip") }, fc.constantFrom("deflate", "br", "gzip, gzip", "GZIP", "identity", "x-gzip", "gzip;q=1"));
  const who = identityFor(ctx, ctx.creds.services.runner);
  const post = fc.tuple(kind, encoding, who, fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, contentType), fc.boolean()).chain(([k, enc, w, wrongType, acceptGzip]) => {
    const plain = k === "protobuf" ? protobufBody : bodyOf(deepMutated(validJson(ctx)));
    const body = enc.toLowerCase().startsWith("gzip") ? gzipped(plain) : plain;
    return body.map((b) =>
      as(w, {
        route: `POST /v1/traces (${k}${enc ? `, ${enc}` : ""})`,
        method: "POST",
        path: "/v1/traces",
        headers: { "content-type": wrongType ?? (k === "protobuf" ? PROTOBUF : "application/json"), ...(enc ? { "content-encoding": enc } : {}), ...(acceptGzip ? { "accept-encoding": "gzip" } : {}) },
        body: b,
      }),
    );
  });
  const dropped = fc.double({ min: 0.1, max: 0.9, noNaN: true }).map((at) => as(ctx.creds.services.runner, { route: "POST /v1/traces (dropped upload)", method: "POST", path: "/v1/traces", headers: { "content-type": PROTOBUF }, body: valid, dropAfterBytes: Math.floor(valid.length * at) }));
  const otherMethod = fc.tuple(fc.constantFrom("GET", "PUT", "DELETE", "PATCH"), fc.constantFrom("/v1/traces", "/v1/traces/", "/v1/traces?x=1")).map(([m, p]) =>
    as(ctx.creds.services.runner, { route: `${m} /v1/traces`, method: m, path: p, headers: m === "GET" ? {} : { "content-type": PROTOBUF }, body: m === "GET" ? undefined : valid }),
  );
  const fixed: HostileCase[] = (["huge", "overLimit"] as const).map((k) =>
    as(ctx.creds.services.runner, { route: `POST /v1/traces (protobuf, gzip bomb: ${k})`, method: "POST", path: "/v1/traces", headers: { "content-type": PROTOBUF, "content-encoding": "gzip" }, body: gzipBombs()[k] }),
  );
  for (const type of [PROTOBUF, "application/json"]) fixed.push(as(ctx.creds.services.runner, { route: `POST /v1/traces (${type}, 80 MiB)`, method: "POST", path: "/v1/traces", headers: { "content-type": type }, body: oversizeJson(), mustRefuse: OVERSIZE, refuseWith: 413 }));
  return { fixed, random: fc.oneof({ weight: 30, arbitrary: post }, { weight: 1, arbitrary: dropped }, { weight: 1, arbitrary: otherMethod }) };
}
