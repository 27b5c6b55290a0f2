// The bench's payloads: the same spans (≈1.4 KB of JSON each, an LLM call's prompt and completion) over
// REST and OTLP, whichever server is measured.
import { encodeTraceRequest } from "../../server/store/otlp/decode";

const attrs = (i: number) => ({ "gen_ai.prompt.0.content": "x".repeat(600), "gen_ai.completion.0.content": "y".repeat(200), index: i, "agentlightning.operation.name": "llm" });
const hex = (n: number, w: number) => n.toString(16).padStart(w, "0");
// Unique ids across runs against one long-lived server (--url): a per-process random start.
let spanCounter = 1 + Math.floor(Math.random() * 2 ** 40);

export function restSpan(rid: string, aid: string, seq: number) {
  const n = spanCounter++;
  const now = Date.now() / 1000;
  return {
    rollout_id: rid, attempt_id: aid, sequence_id: seq, trace_id: hex(n, 32), span_id: hex(n, 16), parent_id: null, name: "openai.chat.completion",
    status: { status_code: "OK", description: null }, attributes: attrs(n), events: [], links: [], start_time: now, end_time: now + 0.1,
    context: { trace_id: hex(n, 32), span_id: hex(n, 16), is_remote: false, trace_state: {} }, parent: null, resource: { attributes: { "service.name": "bench" }, schema_url: "" },
  };
}

/** An OTLP/HTTP protobuf export of `count` spans for one attempt (resource attributes name the rollout). */
export function otlpBody(rid: string, aid: string, count: number): Buffer {
  const kv = (key: string, v: string | number) => ({ key, value: typeof v === "string" ? { string_value: v } : { int_value: v } });
  const spans = Array.from({ length: count }, () => {
    const n = spanCounter++;
    const nowNs = BigInt(Date.now()) * 1_000_000n;
    return {
      trace_id: Buffer.from(hex(n, 32), "hex"), span_id: Buffer.from(hex(n, 16), "hex"), name: "openai.chat.completion", kind: 3,
      start_time_unix_nano: nowNs.toString(), end_time_unix_nano: (nowNs + 100_000_000n).toString(),
      attributes: Object.entries(attrs(n)).map(([k, v]) => kv(k, v)), status: { code: 1 },
    };
  });
  return Buffer.from(encodeTraceRequest({ resource_spans: [{ resource: { attributes: [kv("agentlightning.rollout_id", rid), kv("agentlightning.attempt_id", aid)] }, scope_spans: [{ spans }] }] }));
}
