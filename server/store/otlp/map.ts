// OTLP spans → LightningStore spans, as agentlightning/utils/otlp.py maps them: rollout/attempt ids from
// the resource attributes (span attributes override), an optional `agentlightning.span_sequence_id`
// (int or decimal string; missing or negative → the store allocates one), hex ids, status codes
// 0/1/2 → UNSET/OK/ERROR, nanoseconds → float seconds, events and links converted.
import type { Span } from "../types";
import type { OtlpAttributes, OtlpResourceSpans } from "./decode";

export const ROLLOUT_ID_ATTR = "agentlightning.rollout_id";
export const ATTEMPT_ID_ATTR = "agentlightning.attempt_id";
export const SEQUENCE_ID_ATTR = "agentlightning.span_sequence_id";
const STATUS = ["UNSET", "OK", "ERROR"] as const;
const INT32_MAX = 2 ** 31 - 1;

/** convert_timestamp: nanoseconds (> 1e12) to seconds; 0 means absent. */
export function toSeconds(t: number): number | null {
  if (!t) return null;
  return t > 1e12 ? t / 1e9 : t;
}

function idOf(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > 0 && s.length <= 512 && !s.includes("\u0000") ? s : null;
}

function sequenceOf(v: unknown): number {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\s*[-+]?\d+\s*$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= INT32_MAX ? n : -1;
}

const clean = (s: string) => (s.includes("\u0000") ? s.split("\u0000").join("") : s);

export type MappedBatch = { spans: Span[]; dropped: number };

export function mapOtlp(batch: OtlpResourceSpans[]): MappedBatch {
  const spans: Span[] = [];
  let dropped = 0;
  for (const rs of batch) {
    const resource = { attributes: rs.attributes as Span["resource"]["attributes"], schema_url: rs.schema_url };
    for (const s of rs.spans) {
      const pick = (key: string) => (s.attributes[key] !== undefined && s.attributes[key] !== null ? s.attributes[key] : rs.attributes[key]);
      const rolloutId = idOf(pick(ROLLOUT_ID_ATTR));
      const attemptId = idOf(pick(ATTEMPT_ID_ATTR));
      if (!rolloutId || !attemptId) {
        dropped++;
        continue;
      }
      spans.push({
        rollout_id: rolloutId,
        attempt_id: attemptId,
        sequence_id: sequenceOf(pick(SEQUENCE_ID_ATTR)),
        trace_id: s.trace_id,
        span_id: s.span_id,
        parent_id: s.parent_id,
        name: clean(s.name),
        status: { status_code: STATUS[s.status_code] ?? "UNSET", description: s.status_message || null },
        attributes: s.attributes as Span["attributes"],
        events: s.events.map((e) => ({ name: e.name, attributes: e.attributes as OtlpAttributes as Span["attributes"], timestamp: toSeconds(e.time_unix_nano) })),
        links: s.links.map((l) => ({
          context: { trace_id: l.trace_id, span_id: l.span_id, is_remote: false, trace_state: {} },
          attributes: Object.keys(l.attributes).length ? (l.attributes as Span["attributes"]) : null,
        })),
        start_time: toSeconds(s.start_time_unix_nano),
        end_time: toSeconds(s.end_time_unix_nano),
        context: { trace_id: s.trace_id, span_id: s.span_id, is_remote: false, trace_state: {} },
        parent: null,
        resource,
      } as Span);
    }
  }
  return { spans, dropped };
}
