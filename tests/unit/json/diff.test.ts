import { describe, expect, it } from "vitest";
import { diffJson } from "@/lib/json/diff";
import { maskSecrets } from "@/lib/json/secrets";

describe("diffJson", () => {
  it("reports added, removed and changed leaves by path; key order is not a change", () => {
    const d = diffJson({ a: { x: 1, y: [1, 2] }, "odd name": true, same: { p: 1, q: 2 } }, { a: { x: 2, y: [1, 2, 3] }, z: null, same: { q: 2, p: 1 } });
    expect(d.entries).toEqual([
      { path: '["odd name"]', change: "removed", before: "true", secret: false },
      { path: "a.x", change: "changed", before: "1", after: "2", secret: false },
      { path: "a.y[2]", change: "added", after: "3", secret: false },
      { path: "z", change: "added", after: "null", secret: false },
    ]);
    expect(d.unchanged).toBe(4); // a.y[0], a.y[1], same.p, same.q
  });

  it("masks secret values, whole subtrees included, but still says they changed", () => {
    const d = diffJson({ llm: { api_key: "sk-1", auth: { token: { v: "t1" } } } }, { llm: { api_key: "sk-2", auth: { token: { v: "t1" } } } });
    expect(d.entries).toEqual([{ path: "llm.api_key", change: "changed", before: "••••••••", after: "••••••••", secret: true }]);
    expect(d.unchanged).toBe(1);
    expect(JSON.stringify(diffJson({}, { password: "hunter2" }))).not.toContain("hunter2");
  });

  it("masks credentials inside strings, and a change of only the password still shows as changed", () => {
    const d = diffJson({ endpoint: "https://u:old-pw@llm/v1", pass: true }, { endpoint: "https://u:new-pw@llm/v1", pass: false });
    expect(d.entries).toEqual([
      { path: "endpoint", change: "changed", before: '"https://••••••••@llm/v1"', after: '"https://••••••••@llm/v1"', secret: true },
      { path: "pass", change: "changed", before: "true", after: "false", secret: false },
    ]);
  });

  it("treats empty containers as leaves and the root as a path", () => {
    expect(diffJson({ a: {} }, { a: [] }).entries).toEqual([{ path: "a", change: "changed", before: "{}", after: "[]", secret: false }]);
    expect(diffJson(1, 2).entries).toEqual([{ path: "(root)", change: "changed", before: "1", after: "2", secret: false }]);
  });

  it("maskSecrets masks non-empty secret values at any depth", () => {
    expect(maskSecrets({ a: [{ API_KEY: "x", secret: "" }], Authorization: null })).toEqual({ a: [{ API_KEY: "••••••••", secret: "" }], Authorization: null });
  });
});
