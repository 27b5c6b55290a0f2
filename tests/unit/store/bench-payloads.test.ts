// The store bench patches a template instead of encoding every OTLP export (bench/store/payloads.ts): the
// bytes it sends must be exactly what protobufjs encodes for the same spans, and decode to those spans.
import { describe, expect, it } from "vitest";
import { encodeOtlp, OtlpTemplate, type OtlpSpanStamp } from "@/bench/store/payloads";
import { decodeProtobuf } from "@/server/store/otlp/decode";
import { mapOtlp } from "@/server/store/otlp/map";

const stamps = (first: number, count: number, startNs: bigint): OtlpSpanStamp[] => Array.from({ length: count }, (_, i) => ({ n: first + i * 7_919, startNs: startNs + BigInt(i) }));

describe("the bench's OTLP template", () => {
  it("sends protobufjs's own bytes for every export, whatever the span numbers and times", () => {
    const t = new OtlpTemplate();
    for (const [first, start] of [[2 ** 35, 1n], [2 ** 35 + 123_456_789, 1_765_000_000_000_000_000n], [2 ** 41 - 1_000_000, 2n ** 63n - 1_000n]] as const) {
      for (const count of [1, 100]) {
        const s = stamps(first, count, start);
        expect(t.body("ro-abc", "at-def", s).equals(encodeOtlp("ro-abc", "at-def", s))).toBe(true);
      }
    }
    // Another rollout's template, and the first one again after it.
    const s = stamps(2 ** 36, 100, 5n);
    expect(t.body("ro-other-rollout", "at-1", s).equals(encodeOtlp("ro-other-rollout", "at-1", s))).toBe(true);
    expect(t.body("ro-abc", "at-def", s).equals(encodeOtlp("ro-abc", "at-def", s))).toBe(true);
  });

  it("decodes to the spans it stamps", () => {
    const s = stamps(2 ** 35 + 42, 3, 1_765_000_000_123_456_789n);
    const { spans } = mapOtlp(decodeProtobuf(new OtlpTemplate().body("ro-1", "at-1", s)));
    expect(spans.map((x) => [x.rollout_id, x.attempt_id, x.trace_id, x.span_id, x.attributes.index])).toEqual(
      s.map(({ n }) => ["ro-1", "at-1", n.toString(16).padStart(32, "0"), n.toString(16).padStart(16, "0"), n]),
    );
    expect(spans[0]!.start_time).toBeCloseTo(Number(1_765_000_000_123_456_789n) / 1e9, 6);
  });

  it("refuses a span number whose varint would not fit its place", () => {
    expect(() => new OtlpTemplate().body("ro", "at", [{ n: 2 ** 42, startNs: 1n }])).toThrow(/six-byte varint/);
  });
});
