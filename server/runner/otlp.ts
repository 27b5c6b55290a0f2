// Agent Lightning span JSON → an OTLP/HTTP protobuf ExportTraceServiceRequest, the way an OpenTelemetry
// exporter would send it: rollout and attempt ids as resource attributes (agentlightning/utils/otlp.py reads
// them there), hex ids as bytes, seconds as nanoseconds. The store allocates sequence ids, as it does for any
// OTLP exporter. Span ids stay the deterministic ones of spansFromEpisode, so a re-sent batch is a duplicate.
import { traceRequestType } from "@/server/store/otlp/decode";
import type { AglSpan, AttributeValue } from "@/server/environments/spans";

type PbValue = { string_value?: string; bool_value?: boolean; int_value?: number; double_value?: number; array_value?: { values: PbValue[] } };

function value(v: AttributeValue | number | string | boolean): PbValue {
  if (Array.isArray(v)) return { array_value: { values: (v as (string | number | boolean)[]).map((x) => value(x)) } };
  if (typeof v === "string") return { string_value: v };
  if (typeof v === "boolean") return { bool_value: v };
  return Number.isInteger(v) ? { int_value: v } : { double_value: v };
}

const attributes = (attrs: Record<string, AttributeValue>) => Object.entries(attrs).map(([key, v]) => ({ key, value: value(v) }));
const bytes = (hex: string | null | undefined) => (hex ? Buffer.from(hex, "hex") : Buffer.alloc(0));
const nanos = (seconds: number | null) => (seconds === null ? 0 : Math.round(seconds * 1e9));
const STATUS_CODE = { UNSET: 0, OK: 1, ERROR: 2 } as const;

/** One request for the spans of one attempt (they share the resource attributes). */
export function encodeSpans(spans: readonly AglSpan[]): Uint8Array {
  if (spans.length === 0) throw new Error("nothing to export");
  const first = spans[0]!;
  const type = traceRequestType();
  const request = {
    resource_spans: [
      {
        resource: { attributes: attributes({ ...first.resource.attributes, "agentlightning.rollout_id": first.rollout_id, "agentlightning.attempt_id": first.attempt_id }) },
        scope_spans: [
          {
            scope: { name: "lightgate.runner" },
            spans: spans.map((s) => ({
              trace_id: bytes(s.trace_id),
              span_id: bytes(s.span_id),
              parent_span_id: bytes(s.parent_id),
              name: s.name,
              kind: 1,
              start_time_unix_nano: nanos(s.start_time),
              end_time_unix_nano: nanos(s.end_time),
              attributes: attributes(s.attributes),
              status: { code: STATUS_CODE[s.status.status_code], message: s.status.description ?? "" },
            })),
          },
        ],
      },
    ],
  };
  return type.encode(type.fromObject(request)).finish();
}
