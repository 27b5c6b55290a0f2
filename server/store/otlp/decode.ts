// OTLP/HTTP trace requests → plain data. Protobuf bodies are decoded with protobufjs from the vendored
// official schema (./proto, Apache-2.0); OTLP/JSON bodies are validated with zod. Both end as `OtlpBatch`.
import path from "node:path";
import protobuf from "protobufjs";
import { z } from "zod";

export type OtlpAttributes = Record<string, unknown>;
export type OtlpSpan = {
  trace_id: string;
  span_id: string;
  parent_id: string | null;
  name: string;
  status_code: number;
  status_message: string;
  attributes: OtlpAttributes;
  events: { name: string; attributes: OtlpAttributes; time_unix_nano: number }[];
  links: { trace_id: string; span_id: string; attributes: OtlpAttributes }[];
  start_time_unix_nano: number;
  end_time_unix_nano: number;
};
export type OtlpResourceSpans = { attributes: OtlpAttributes; schema_url: string; spans: OtlpSpan[] };

const PROTO_DIR = path.join(process.cwd(), "server", "store", "otlp", "proto");

let types: { request: protobuf.Type; response: protobuf.Type } | undefined;
function protoTypes() {
  if (!types) {
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) => (path.isAbsolute(target) ? target : path.join(PROTO_DIR, target));
    root.loadSync("opentelemetry/proto/collector/trace/v1/trace_service.proto", { keepCase: true });
    types = {
      request: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest"),
      response: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse"),
    };
  }
  return types;
}

/** The ExportTraceServiceRequest type, for clients that export spans (Lightgate's runner). */
export function traceRequestType(): protobuf.Type {
  return protoTypes().request;
}

let emptyResponse: Uint8Array | undefined;
/** The answer to every accepted export: the same bytes each time, encoded once (never written to). */
export function encodeEmptyResponse(): Uint8Array {
  const t = protoTypes().response;
  return (emptyResponse ??= t.encode(t.create({})).finish());
}

// ── protobuf ──
type Long = { low: number; high: number; unsigned?: boolean; toNumber(): number };
type PbAny = { value?: string; string_value?: string; bool_value?: boolean; int_value?: number | Long; double_value?: number; array_value?: { values?: PbAny[] }; kvlist_value?: { values?: PbKv[] }; bytes_value?: Uint8Array };
type PbKv = { key: string; value?: PbAny };
type PbSpan = {
  trace_id: Uint8Array;
  span_id: Uint8Array;
  parent_span_id: Uint8Array;
  name: string;
  start_time_unix_nano: number | Long;
  end_time_unix_nano: number | Long;
  attributes?: PbKv[];
  events?: { time_unix_nano: number | Long; name: string; attributes?: PbKv[] }[];
  links?: { trace_id: Uint8Array; span_id: Uint8Array; attributes?: PbKv[] }[];
  status?: { code?: number; message?: string };
};
type PbRequest = { resource_spans?: { resource?: { attributes?: PbKv[] }; schema_url?: string; scope_spans?: { spans?: PbSpan[] }[] }[] };

const toNumber = (v: number | Long | string | undefined | null): number => (v === undefined || v === null ? 0 : typeof v === "object" ? v.toNumber() : Number(v));
/** Hex of an id; protobufjs hands bytes over as Buffer views of the body, read without copying. */
function hex(b: Uint8Array | undefined, width: number): string {
  if (!b || !b.length) return "0".repeat(width);
  const text = (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength)).toString("hex");
  return text.length < width ? text.padStart(width, "0") : text;
}

// The AnyValue oneof is read from the decoded message's own fields (only what was on the wire is set):
// protobufjs's virtual `value` getter lists the message's keys on every read, which had cost a tenth of
// the whole decode. `own` is hasOwnProperty: the message prototype holds each field's default.
const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
function pbValue(v: PbAny | undefined): unknown {
  if (!v) return null;
  if (own(v, "string_value")) return v.string_value;
  if (own(v, "int_value")) return toNumber(v.int_value);
  if (own(v, "bool_value")) return v.bool_value;
  if (own(v, "double_value")) return v.double_value;
  if (own(v, "array_value")) return (v.array_value?.values ?? []).map(pbValue);
  if (own(v, "kvlist_value")) return pbAttributes(v.kvlist_value?.values);
  if (own(v, "bytes_value")) return hex(v.bytes_value, 0);
  return null;
}

/** Later keys win, as in Object.fromEntries; an attribute named `__proto__` stays an attribute (as in jsonAttributes). */
function pbAttributes(kvs: PbKv[] | undefined): OtlpAttributes {
  const out: OtlpAttributes = {};
  if (!kvs) return out;
  for (let i = 0; i < kvs.length; i++) {
    const kv = kvs[i]!;
    if (kv.key === "__proto__") Object.defineProperty(out, kv.key, { value: pbValue(kv.value), enumerable: true, writable: true, configurable: true });
    else out[kv.key] = pbValue(kv.value);
  }
  return out;
}

/** Decodes a binary ExportTraceServiceRequest; throws with the decoder's message when it is not one. */
export function decodeProtobuf(bytes: Uint8Array): OtlpResourceSpans[] {
  const { request } = protoTypes();
  const msg = request.decode(bytes) as unknown as PbRequest;
  return (msg.resource_spans ?? []).map((rs) => {
    const spans: OtlpSpan[] = [];
    for (const ss of rs.scope_spans ?? []) {
      for (const s of ss.spans ?? []) {
        spans.push({
          trace_id: hex(s.trace_id, 32),
          span_id: hex(s.span_id, 16),
          parent_id: s.parent_span_id && s.parent_span_id.length ? hex(s.parent_span_id, 16) : null,
          name: s.name ?? "",
          status_code: s.status?.code ?? 0,
          status_message: s.status?.message ?? "",
          attributes: pbAttributes(s.attributes),
          events: s.events?.length ? s.events.map((e) => ({ name: e.name ?? "", attributes: pbAttributes(e.attributes), time_unix_nano: toNumber(e.time_unix_nano) })) : [],
          links: s.links?.length ? s.links.map((l) => ({ trace_id: hex(l.trace_id, 32), span_id: hex(l.span_id, 16), attributes: pbAttributes(l.attributes) })) : [],
          start_time_unix_nano: toNumber(s.start_time_unix_nano),
          end_time_unix_nano: toNumber(s.end_time_unix_nano),
        });
      }
    }
    return { attributes: pbAttributes(rs.resource?.attributes), schema_url: rs.schema_url ?? "", spans };
  });
}

// ── OTLP/JSON (the protobuf JSON mapping: lowerCamelCase keys, hex ids, 64-bit integers as strings) ──
const int64 = z.union([z.number().int(), z.string().regex(/^-?\d+$/, "must be an integer string")]).transform(Number);
const hexId = (bytes: number) => z.string().regex(new RegExp(`^([0-9a-fA-F]{${bytes * 2}})?$`), `must be ${bytes * 2} hex characters`);
type JsonAny = { stringValue?: string; boolValue?: boolean; intValue?: number; doubleValue?: number; arrayValue?: { values?: JsonAny[] }; kvlistValue?: { values?: JsonKv[] }; bytesValue?: string };
type JsonKv = { key: string; value?: JsonAny };
const anyValue: z.ZodType<JsonAny> = z.lazy(() =>
  z.object({
    stringValue: z.string().optional(),
    boolValue: z.boolean().optional(),
    intValue: int64.optional(),
    doubleValue: z.number().optional(),
    arrayValue: z.object({ values: z.array(anyValue).optional() }).optional(),
    kvlistValue: z.object({ values: z.array(keyValue).optional() }).optional(),
    bytesValue: z.string().optional(),
  }),
) as z.ZodType<JsonAny>;
const keyValue: z.ZodType<JsonKv> = z.lazy(() => z.object({ key: z.string(), value: anyValue.optional() }));
const attrs = z.array(keyValue).optional();
const jsonRequest = z.object({
  resourceSpans: z
    .array(
      z.object({
        resource: z.object({ attributes: attrs }).optional(),
        schemaUrl: z.string().optional(),
        scopeSpans: z
          .array(
            z.object({
              spans: z
                .array(
                  z.object({
                    traceId: hexId(16),
                    spanId: hexId(8),
                    parentSpanId: hexId(8).optional(),
                    name: z.string().optional(),
                    startTimeUnixNano: int64.optional(),
                    endTimeUnixNano: int64.optional(),
                    attributes: attrs,
                    events: z.array(z.object({ timeUnixNano: int64.optional(), name: z.string().optional(), attributes: attrs })).optional(),
                    links: z.array(z.object({ traceId: hexId(16), spanId: hexId(8), attributes: attrs })).optional(),
                    status: z.object({ code: z.number().int().optional(), message: z.string().optional() }).optional(),
                  }),
                )
                .optional(),
            }),
          )
          .optional(),
      }),
    )
    .optional(),
});

function jsonValue(v: JsonAny | undefined): unknown {
  if (!v) return null;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return v.intValue;
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(jsonValue);
  if (v.kvlistValue !== undefined) return jsonAttributes(v.kvlistValue.values);
  if (v.bytesValue !== undefined) return Buffer.from(v.bytesValue, "base64").toString("hex");
  return null;
}
const jsonAttributes = (kvs: JsonKv[] | undefined): OtlpAttributes => Object.fromEntries((kvs ?? []).map((kv) => [kv.key, jsonValue(kv.value)]));
const pad = (id: string | undefined, width: number) => (id ? id.toLowerCase().padStart(width, "0") : "0".repeat(width));

/** Parses an OTLP/JSON request; throws a ZodError naming the bad field. */
export function decodeJson(body: unknown): OtlpResourceSpans[] {
  const req = jsonRequest.parse(body);
  return (req.resourceSpans ?? []).map((rs) => ({
    attributes: jsonAttributes(rs.resource?.attributes),
    schema_url: rs.schemaUrl ?? "",
    spans: (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        trace_id: pad(s.traceId, 32),
        span_id: pad(s.spanId, 16),
        parent_id: s.parentSpanId ? pad(s.parentSpanId, 16) : null,
        name: s.name ?? "",
        status_code: s.status?.code ?? 0,
        status_message: s.status?.message ?? "",
        attributes: jsonAttributes(s.attributes),
        events: (s.events ?? []).map((e) => ({ name: e.name ?? "", attributes: jsonAttributes(e.attributes), time_unix_nano: e.timeUnixNano ?? 0 })),
        links: (s.links ?? []).map((l) => ({ trace_id: pad(l.traceId, 32), span_id: pad(l.spanId, 16), attributes: jsonAttributes(l.attributes) })),
        start_time_unix_nano: s.startTimeUnixNano ?? 0,
        end_time_unix_nano: s.endTimeUnixNano ?? 0,
      })),
    ),
  }));
}

/** Encodes an ExportTraceServiceRequest given in the schema's snake_case field names (benchmarks, tests). */
export function encodeTraceRequest(message: Record<string, unknown>): Uint8Array {
  const { request } = protoTypes();
  return request.encode(request.fromObject(message)).finish();
}
