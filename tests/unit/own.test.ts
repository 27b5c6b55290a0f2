// No lookup of a caller-given name on a plain object finds an inherited member, and no caller-given key
// replaces a prototype: the helpers (lib/own.ts), then places that take such names from spans, query
// strings and tool pins.
import { describe, expect, it } from "vitest";
import { dictionary, isOwnKey, ownValue } from "@/lib/own";
import { familyCountsOf } from "@/server/gate/evidence/spans";
import { pinContracts } from "@/server/environments/support-desk/tools";
import { decodeProtobuf, encodeTraceRequest } from "@/server/store/otlp/decode";
import { queryObject } from "@/server/store/http/io";

const INHERITED = ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf", "isPrototypeOf", "__defineGetter__"];

describe("own-key helpers", () => {
  it("ownValue finds own keys only", () => {
    const table: Record<string, number> = { canary: 1 };
    for (const name of INHERITED) expect(ownValue(table, name), name).toBeUndefined();
    expect(ownValue(table, "canary")).toBe(1);
    const parsed = JSON.parse('{"__proto__":7,"constructor":8}') as Record<string, number>;
    expect([ownValue(parsed, "__proto__"), ownValue(parsed, "constructor")]).toEqual([7, 8]);
  });

  it("isOwnKey narrows to the object's own keys", () => {
    const kinds = { pass: "ok" } as const;
    expect(INHERITED.some((name) => isOwnKey(kinds, name))).toBe(false);
    const key: string = "pass";
    if (isOwnKey(kinds, key)) expect(kinds[key]).toBe("ok");
    else throw new Error("pass is an own key");
  });

  it("dictionary takes any name as a key, __proto__ included", () => {
    const d = dictionary<number>();
    for (const [i, name] of INHERITED.entries()) d[name] = i;
    expect(Object.keys(d)).toEqual(INHERITED);
    expect(JSON.parse(JSON.stringify(d))).toEqual(Object.fromEntries(INHERITED.map((n, i) => [n, i])));
    expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);
  });
});

describe("caller-given names where the code takes them", () => {
  it("counts spans named like Object's members as families of their own", () => {
    const spans = INHERITED.map((name) => ({ name, attributes: {} }));
    const counts = familyCountsOf([...spans, ...spans]);
    for (const name of INHERITED) expect(ownValue(counts, name), name).toBe(2);
  });

  it("keeps an OTLP attribute named __proto__ as an attribute", () => {
    const attr = (key: string) => ({ key, value: { string_value: `v-${key}` } });
    const bytes = encodeTraceRequest({
      resource_spans: [{ resource: { attributes: [] }, scope_spans: [{ spans: [{ trace_id: Buffer.alloc(16, 1), span_id: Buffer.alloc(8, 2), name: "s", attributes: INHERITED.map(attr) }] }] }],
    });
    const attributes = decodeProtobuf(bytes)[0]!.spans[0]!.attributes as Record<string, unknown>;
    expect(Object.getPrototypeOf(attributes)).toBe(Object.prototype);
    for (const name of INHERITED) expect(ownValue(attributes, name), name).toBe(`v-${name}`);
  });

  it("keeps query-string keys as keys", () => {
    const q = queryObject(new URL("http://x/v1/agl/rollouts?__proto__=a&toString=b&limit=3"));
    expect([ownValue(q, "__proto__"), ownValue(q, "toString"), ownValue(q, "limit")]).toEqual(["a", "b", 3]);
  });

  it("refuses a tool pin named like an Object member", () => {
    for (const name of ["toString", "constructor", "__proto__"]) expect(() => pinContracts(JSON.parse(`{"${name}":"1"}`) as Record<string, string>), name).toThrow(`unknown tool "${name}"`);
  });
});
