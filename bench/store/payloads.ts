// The bench's payloads: the same spans (≈1.4 KB of JSON each, an LLM call's prompt and completion) over
// REST and OTLP, whichever server is measured.
import { randomBytes } from "node:crypto";
import { encodeTraceRequest } from "../../server/store/otlp/decode";

const attrs = (i: number) => ({ "gen_ai.prompt.0.content": "x".repeat(600), "gen_ai.completion.0.content": "y".repeat(200), index: i, "agentlightning.operation.name": "llm" });
const hex = (n: number, w: number) => n.toString(16).padStart(w, "0");
// Unique ids across runs against one long-lived server (--url): a per-process random start. Every number
// from 2^35 to 2^42 takes six bytes as a protobuf varint, so the `index` attribute keeps its width in the
// OTLP template below.
const FIRST_SPAN = 2 ** 35;
let spanCounter = FIRST_SPAN + Math.floor(Math.random() * 2 ** 40);

export function restSpan(rid: string, aid: string, seq: number) {
  const n = spanCounter++;
  const now = Date.now() / 1000;
  return {
    rollout_id: rid, attempt_id: aid, sequence_id: seq, trace_id: hex(n, 32), span_id: hex(n, 16), parent_id: null, name: "openai.chat.completion",
    status: { status_code: "OK", description: null }, attributes: attrs(n), events: [], links: [], start_time: now, end_time: now + 0.1,
    context: { trace_id: hex(n, 32), span_id: hex(n, 16), is_remote: false, trace_state: {} }, parent: null, resource: { attributes: { "service.name": "bench" }, schema_url: "" },
  };
}

/** The span fields that differ between exports: its number (ids and `index`) and its start in nanoseconds. */
export type OtlpSpanStamp = { n: number; startNs: bigint };

const kv = (key: string, v: string | number) => ({ key, value: typeof v === "string" ? { string_value: v } : { int_value: v } });

type RawSpan = { traceId: Buffer; spanId: Buffer; startNs: bigint; index: number };

/** protobufjs's encoding of one attempt's spans (the rollout and attempt named by resource attributes). */
function encode(rid: string, aid: string, raw: RawSpan[]): Buffer {
  const spans = raw.map((s) => ({
    trace_id: s.traceId, span_id: s.spanId, name: "openai.chat.completion", kind: 3,
    start_time_unix_nano: s.startNs.toString(), end_time_unix_nano: (s.startNs + 100_000_000n).toString(),
    attributes: Object.entries(attrs(s.index)).map(([k, v]) => kv(k, v)), status: { code: 1 },
  }));
  return Buffer.from(encodeTraceRequest({ resource_spans: [{ resource: { attributes: [kv("agentlightning.rollout_id", rid), kv("agentlightning.attempt_id", aid)] }, scope_spans: [{ spans }] }] }));
}

/** An export encoded by protobufjs, the way any OTLP client would send these spans. */
export function encodeOtlp(rid: string, aid: string, stamps: OtlpSpanStamp[]): Buffer {
  return encode(rid, aid, stamps.map(({ n, startNs }) => ({ traceId: Buffer.from(hex(n, 32), "hex"), spanId: Buffer.from(hex(n, 16), "hex"), startNs, index: n })));
}

const varint = (n: number) => {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 0x80)) out.push((n % 0x80) | 0x80);
  return Buffer.from([...out, n]);
};

type Offsets = { trace: number; span: number; start: number; end: number; index: number };
type Template = { bytes: Buffer; spans: Offsets[] };

/**
 * The same export, encoded once by protobufjs with marker values and then copied with each span's fields
 * written where the markers were. The load client shares this machine's two cores with the server and its
 * database; encoding 100 spans through protobufjs cost it ~11 µs a span (a fifth of a PostgreSQL server's
 * and database's work for one), taken from whichever server needs more than one core. The bytes are
 * protobufjs's own (tests/unit/store/bench-payloads.test.ts compares them).
 */
export class OtlpTemplate {
  readonly #templates = new Map<string, Template>();

  body(rid: string, aid: string, stamps: OtlpSpanStamp[]): Buffer {
    const key = `${rid}\u0000${aid}\u0000${stamps.length}`;
    let t = this.#templates.get(key);
    if (!t) this.#templates.set(key, (t = template(rid, aid, stamps.length)));
    const out = Buffer.from(t.bytes);
    stamps.forEach(({ n, startNs }, i) => {
      const at = t.spans[i]!;
      if (n < FIRST_SPAN || n >= 2 ** 42) throw new Error(`span number ${n} has no six-byte varint`);
      // The ids are hex(n) padded with zeros: n big-endian in the last 6 bytes (n < 2^48), zeros before.
      out.fill(0, at.trace, at.trace + 10).writeUIntBE(n, at.trace + 10, 6);
      out.fill(0, at.span, at.span + 2).writeUIntBE(n, at.span + 2, 6);
      out.writeBigUInt64LE(startNs, at.start);
      out.writeBigUInt64LE(startNs + 100_000_000n, at.end);
      for (let k = 0, v = n; k < 6; k++, v = Math.floor(v / 0x80)) out[at.index + k] = (v % 0x80) | (k < 5 ? 0x80 : 0);
    });
    return out;
  }
}

/** Encodes with random markers and finds each span's fields by them (a marker is 6–16 random bytes). */
function template(rid: string, aid: string, count: number): Template {
  const markers = Array.from({ length: count }, () => ({
    traceId: randomBytes(16), spanId: randomBytes(8), startNs: randomBytes(8).readBigUInt64LE() >> 1n,
    index: FIRST_SPAN + randomBytes(5).readUIntLE(0, 5), // under 2^35 + 2^40: six varint bytes
  }));
  const bytes = encode(rid, aid, markers);
  const find = (needle: Buffer, from: number) => {
    const at = bytes.indexOf(needle, from);
    if (at < 0) throw new Error("an OTLP template marker was not found in its encoding");
    return at;
  };
  const le = (v: bigint) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(v);
    return b;
  };
  let from = 0;
  return {
    bytes,
    spans: markers.map((m) => {
      const at = { trace: find(m.traceId, from), span: find(m.spanId, from), start: find(le(m.startNs), from), end: find(le(m.startNs + 100_000_000n), from), index: find(varint(m.index), from) };
      from = Math.max(...Object.values(at));
      return at;
    }),
  };
}

const templates = new OtlpTemplate();

/** An OTLP/HTTP protobuf export of `count` new spans for one attempt (resource attributes name the rollout). */
export function otlpBody(rid: string, aid: string, count: number): Buffer {
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  return templates.body(rid, aid, Array.from({ length: count }, () => ({ n: spanCounter++, startNs: nowNs })));
}
