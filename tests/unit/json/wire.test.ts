// The tRPC wire transformer: any JSON (any keys) plus Dates survives the trip, a hostile envelope cannot
// reach a prototype, and superjson clients on either end still understand it.
import fc from "fast-check";
import superjson from "superjson";
import { describe, expect, it } from "vitest";
import { deserialize, serialize } from "@/lib/json/wire";

const HOSTILE_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf", "a.b", "a\\b", "", "0"];

/** Text that tells apart what JSON alone would blur: Dates, undefined array items, NaN, ±Infinity, own keys. */
function text(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, v: unknown) {
    const raw = this[key];
    if (raw instanceof Date) return { $date: Number.isNaN(raw.getTime()) ? "invalid" : raw.toISOString() };
    if (raw === undefined && Array.isArray(this)) return "$undefined";
    if (typeof raw === "number" && !Number.isFinite(raw)) return `$${raw}`;
    if (raw && typeof raw === "object" && !Array.isArray(raw) && !(raw instanceof Date)) {
      if (Object.getPrototypeOf(raw) !== Object.prototype) return { $prototype: "changed" };
    }
    return v;
  });
}

/** Over the wire and back, as tRPC does it: serialize, JSON text, JSON.parse, deserialize. */
const trip = (value: unknown) => deserialize(JSON.parse(JSON.stringify(serialize(value))));

// Objects are built with defineProperty, so `__proto__` is an own key here too, as after JSON.parse.
const wireValue = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.date(),
    fc.array(fc.oneof(tie("value"), fc.constant(undefined)), { maxLength: 4 }),
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string()), tie("value")), { maxLength: 5 }).map((entries) => {
      const o = {};
      for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
      return o;
    }),
  ),
})).value;

describe("wire transformer", () => {
  it("carries any JSON with any keys, Dates, undefined items, NaN and ±Infinity unchanged", () => {
    fc.assert(
      fc.property(wireValue, (value) => {
        expect(text(trip(value))).toBe(text(value));
      }),
      { numRuns: 1000 },
    );
    expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);
  });

  it("keeps __proto__ an own key and the prototype untouched", () => {
    const got = trip(JSON.parse('{"__proto__":{"polluted":"yes"},"at":"x"}')) as Record<string, unknown>;
    expect(Object.hasOwn(got, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect((got as { polluted?: string }).polluted).toBeUndefined();
  });

  it("a hostile envelope never throws and never reaches a prototype", () => {
    const path = fc.array(fc.oneof(fc.constantFrom("__proto__", "constructor", "prototype", "polluted", "0", "length", "a"), fc.string()), { maxLength: 5 });
    const mark = fc.oneof(fc.constantFrom("Date", "undefined", "number", "map", "set"), fc.anything()).map((m) => [m]);
    const pathText = path.map((p) => p.join("."));
    const envelope = fc.record({
      json: fc.oneof(fc.jsonValue(), fc.constant(JSON.parse('{"__proto__":{"a":"1"},"constructor":{"prototype":{}}}'))),
      meta: fc.oneof(fc.anything(), fc.record({ values: fc.oneof(fc.dictionary(pathText, mark), mark, fc.anything()), v: fc.constant(1) })),
    });
    fc.assert(
      fc.property(fc.oneof(envelope, fc.anything()), (payload) => {
        deserialize(JSON.parse(JSON.stringify(payload) ?? "null"));
        expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);
        expect(Object.getOwnPropertyNames(Object.prototype).includes("a")).toBe(false);
        expect(Object.hasOwn(Object.prototype, "0")).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses what JSON cannot carry, naming where it is", () => {
    expect(() => serialize({ runs: [{ counts: new Map() }] })).toThrow(/runs\.0\.counts is a Map/);
    expect(() => serialize({ n: 1n })).toThrow(/n is a bigint/);
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => serialize(loop)).toThrow(/nests deeper than 1000 levels/);
  });

  it("speaks superjson's envelope both ways (release bots send { json })", () => {
    const value = { at: new Date("2026-01-02T03:04:05.000Z"), list: [1, undefined, { "a.b": new Date(0) }], ratio: NaN, top: -Infinity };
    expect(text(superjson.deserialize(JSON.parse(JSON.stringify(serialize(value)))))).toBe(text(value));
    expect(text(deserialize(JSON.parse(superjson.stringify(value))))).toBe(text(value));
    expect(deserialize({ json: { limit: 5 } })).toEqual({ limit: 5 });
    expect(deserialize({ limit: 5 })).toBeUndefined();
    expect(text(trip(new Date(7)))).toBe(text(new Date(7)));
  });
});
