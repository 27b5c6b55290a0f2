// The compare page's config table (lib/training/config-diff.ts): nested configs flattened to dotted paths, each
// run's value, and the keys where the runs differ — including a key one run lacks.
import { expect, it } from "vitest";
import { configDiff } from "@/lib/training/config-diff";

it("flattens nested settings to dotted paths and marks the keys that differ", () => {
  const a = { episodesPerUpdate: 16, ppo: { learningRate: 0.05, clipRange: 0.2 }, layers: [32, 32] };
  const b = { ppo: { clipRange: 0.2, learningRate: 0.2 }, episodesPerUpdate: 16, layers: [32, 32] };
  const diff = configDiff([a, b]);
  expect(diff.rows.map((r) => [r.path, r.values, r.differs])).toEqual([
    ["episodesPerUpdate", ["16", "16"], false],
    ["layers[0]", ["32", "32"], false],
    ["layers[1]", ["32", "32"], false],
    ["ppo.clipRange", ["0.2", "0.2"], false],
    ["ppo.learningRate", ["0.05", "0.2"], true],
  ]);
  expect(diff.differing).toBe(1);
});

it("a key only some runs have differs, and reads as missing (null) for the others", () => {
  const diff = configDiff([{ early: { enabled: true, patience: 3 } }, { early: { enabled: true } }, {}]);
  expect(diff.rows).toEqual([
    { path: "early.enabled", values: ["true", "true", null], differs: true },
    { path: "early.patience", values: ["3", null, null], differs: true },
  ]);
});

it("compares values by stable JSON: key order and equal values never count as a difference", () => {
  const diff = configDiff([{ reward: { weights: { a: 1, b: 2 } }, empty: {} }, { empty: {}, reward: { weights: { b: 2, a: 1 } } }]);
  expect(diff.differing).toBe(0);
  expect(diff.rows.map((r) => r.path)).toEqual(["empty", "reward.weights.a", "reward.weights.b"]);
  // One run: every key, none differing.
  expect(configDiff([{ x: 1 }])).toEqual({ rows: [{ path: "x", values: ["1"], differs: false }], differing: 0 });
});

it("keys of stored JSON stay plain keys (no prototype is reached), and secrets are masked but still compared", () => {
  const hostile = JSON.parse('{"__proto__": {"polluted": 1}, "constructor": 2}') as Record<string, unknown>;
  const diff = configDiff([hostile, { constructor: 3 }]);
  expect(diff.rows.map((r) => [r.path, r.values, r.differs])).toEqual([
    ["__proto__.polluted", ["1", null], true],
    ["constructor", ["2", "3"], true],
  ]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  const secret = configDiff([{ apiKey: "sk-aaaa" }, { apiKey: "sk-bbbb" }]);
  expect(secret.rows[0]!.differs).toBe(true);
  expect(secret.rows[0]!.values.join()).not.toMatch(/aaaa|bbbb/);
});
