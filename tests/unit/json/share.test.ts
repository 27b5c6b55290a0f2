// The query cache's structural sharing: the answer is always the new data, unchanged parts are the old
// objects, and a key `__proto__` stays an own key in every copy it makes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shareEqualDeep } from "@/lib/json/share";

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe("shareEqualDeep", () => {
  it("answers the new data and reuses the old objects that did not change", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const prev = { same: structuredClone(a), other: a };
        const next = { same: structuredClone(a), other: b };
        const shared = shareEqualDeep(prev, next) as typeof next;
        expect(JSON.stringify(shared)).toBe(JSON.stringify(next));
        expect(shared.same).toBe(prev.same);
      }),
      { numRuns: 500 },
    );
  });

  it("keeps __proto__ an own key of the copy when a sibling changed", () => {
    const prev = json('{"__proto__":{"polluted":"yes"},"n":1}');
    const next = json('{"__proto__":{"polluted":"yes"},"n":2}');
    const shared = shareEqualDeep(prev, next) as Record<string, unknown>;
    expect(Object.hasOwn(shared, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(shared)).toBe(Object.prototype);
    expect(shared["__proto__"]).toBe(prev["__proto__"]);
    expect((shared as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
