// OTLP protobuf decoding (vendored official schema) and the mapping of agentlightning/utils/otlp.py.
import { describe, expect, it } from "vitest";
import { decodeProtobuf, encodeTraceRequest } from "@/server/store/otlp/decode";
import { mapOtlp, toSeconds } from "@/server/store/otlp/map";

const kv = (key: string, value: Record<string, unknown>) => ({ key, value });
const ids = { trace_id: Buffer.from("0af7651916cd43dd8448eb211c80319c", "hex"), span_id: Buffer.from("b7ad6b7169203331", "hex") };

describe("OTLP mapping", () => {
  it("takes ids from the resource, lets span attributes override, and converts values", () => {
    const bytes = encodeTraceRequest({
      resource_spans: [
        {
          resource: { attributes: [kv("agentlightning.rollout_id", { string_value: "ro-1" }), kv("agentlightning.attempt_id", { string_value: "at-1" }), kv("agentlightning.span_sequence_id", { string_value: "4" })] },
          scope_spans: [
            {
              spans: [
                { ...ids, parent_span_id: Buffer.from("00f067aa0ba902b7", "hex"), name: "a", start_time_unix_nano: "1700000000500000000", end_time_unix_nano: "1700000001000000000", status: { code: 2, message: "boom" }, attributes: [kv("n", { int_value: 7 }), kv("b", { bytes_value: Buffer.from([1, 2]) }), kv("l", { array_value: { values: [{ bool_value: true }, { double_value: 1.5 }] } }), kv("m", { kvlist_value: { values: [kv("x", { string_value: "y" })] } })], events: [{ name: "e", time_unix_nano: "1700000000600000000", attributes: [] }], links: [{ ...ids, attributes: [] }] },
                { ...ids, span_id: Buffer.from("0000000000000002", "hex"), name: "b", attributes: [kv("agentlightning.attempt_id", { string_value: "at-2" }), kv("agentlightning.span_sequence_id", { int_value: -3 })] },
              ],
            },
          ],
        },
        { resource: { attributes: [] }, scope_spans: [{ spans: [{ ...ids, name: "no ids" }] }] },
      ],
    });
    const { spans, dropped } = mapOtlp(decodeProtobuf(bytes));
    expect(dropped).toBe(1);
    expect(spans).toHaveLength(2);
    const [a, b] = spans;
    expect(a).toMatchObject({ rollout_id: "ro-1", attempt_id: "at-1", sequence_id: 4, trace_id: "0af7651916cd43dd8448eb211c80319c", span_id: "b7ad6b7169203331", parent_id: "00f067aa0ba902b7", status: { status_code: "ERROR", description: "boom" }, parent: null });
    expect(a!.attributes).toEqual({ n: 7, b: "0102", l: [true, 1.5], m: { x: "y" } });
    expect(a!.start_time).toBeCloseTo(1700000000.5, 6);
    expect(a!.events).toEqual([{ name: "e", attributes: {}, timestamp: expect.closeTo(1700000000.6, 6) }]);
    expect(a!.links).toEqual([{ context: { trace_id: "0af7651916cd43dd8448eb211c80319c", span_id: "b7ad6b7169203331", is_remote: false, trace_state: {} }, attributes: null }]);
    expect(b).toMatchObject({ attempt_id: "at-2", sequence_id: -1, parent_id: null, start_time: null, status: { status_code: "UNSET", description: null } });
  });

  it("rejects what is not an ExportTraceServiceRequest", () => {
    expect(() => decodeProtobuf(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]))).toThrow();
  });

  it("converts nanoseconds but keeps second timestamps", () => {
    expect(toSeconds(0)).toBeNull();
    expect(toSeconds(1_700_000_000)).toBe(1_700_000_000);
    expect(toSeconds(1_700_000_000_000_000_000)).toBe(1_700_000_000);
  });
});
