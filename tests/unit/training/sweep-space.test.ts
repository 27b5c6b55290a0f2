import { describe, expect, it } from "vitest";
import { expandSpace, withPath, ZSweepSpace } from "@/server/training/sweep-space";

const space = (s: unknown) => ZSweepSpace.parse(s);

describe("a sweep's config space", () => {
  it("a grid takes every combination, the last parameter fastest; ranges as evenly spaced points, log-spaced when asked", () => {
    const points = expandSpace({ epochs: 4 }, space({ mode: "grid", params: [{ kind: "values", path: "optimizer", values: ["adam", "sgd"] }, { kind: "range", path: "learningRate", min: 0.001, max: 0.1, scale: "log" }] }), "s");
    expect(points.map((p) => p.label)).toEqual(["optimizer=adam · learningRate=0.001", "optimizer=adam · learningRate=0.01", "optimizer=adam · learningRate=0.1", "optimizer=sgd · learningRate=0.001", "optimizer=sgd · learningRate=0.01", "optimizer=sgd · learningRate=0.1"]);
    expect(points[4]!.config).toEqual({ epochs: 4, optimizer: "sgd", learningRate: 0.01 });
    const ints = expandSpace({}, space({ mode: "grid", params: [{ kind: "range", path: "batchSize", min: 8, max: 10, integer: true, points: 5 }] }), "s");
    expect(ints.map((p) => p.config.batchSize)).toEqual([8, 9, 10]);
  });

  it("a random sweep draws distinct configs inside the ranges, the same ones for the same seed", () => {
    const s = space({ mode: "random", samples: 6, params: [{ kind: "range", path: "ppo.clipRange", min: 0.1, max: 0.3 }, { kind: "values", path: "levels", values: [2, 3, 4] }] });
    const a = expandSpace({ ppo: { epochs: 2 } }, s, "seed-a");
    expect(a).toHaveLength(6);
    expect(new Set(a.map((p) => p.label)).size).toBe(6);
    for (const p of a) {
      const c = p.config as { ppo: { clipRange: number; epochs: number }; levels: number };
      expect(c.ppo.epochs).toBe(2);
      expect(c.ppo.clipRange).toBeGreaterThanOrEqual(0.1);
      expect(c.ppo.clipRange).toBeLessThanOrEqual(0.3);
      expect([2, 3, 4]).toContain(c.levels);
    }
    expect(expandSpace({ ppo: { epochs: 2 } }, s, "seed-a")).toEqual(a);
    expect(expandSpace({ ppo: { epochs: 2 } }, s, "seed-b")).not.toEqual(a);
    // A discrete space smaller than the samples asked: each config once.
    expect(expandSpace({}, space({ mode: "random", samples: 10, params: [{ kind: "values", path: "x", values: [1, 2] }] }), "s")).toHaveLength(2);
  });

  it("sets nested paths on copies (the base is untouched) and as own keys only", () => {
    const base = { ppo: { epochs: 2 } };
    const c = withPath(base, "ppo.learningRate", 0.5);
    expect(c).toEqual({ ppo: { epochs: 2, learningRate: 0.5 } });
    expect(base).toEqual({ ppo: { epochs: 2 } });
    const odd = withPath({}, "constructor", 1);
    expect(Object.keys(odd)).toEqual(["constructor"]);
    expect(Object.getPrototypeOf(odd)).toBe(Object.prototype);
    expect(withPath({ toString: 3 }, "toString.x", 1)).toEqual({ toString: { x: 1 } });
  });

  it("refuses spaces that name a path twice, an empty range, a log range through zero, or a grid past 32 configs", () => {
    expect(ZSweepSpace.safeParse({ mode: "grid", params: [{ kind: "values", path: "a", values: [1] }, { kind: "values", path: "a", values: [2] }] }).error?.issues[0]!.message).toBe("params: each path at most once");
    expect(ZSweepSpace.safeParse({ mode: "grid", params: [{ kind: "range", path: "a", min: 1, max: 1 }] }).error?.issues[0]!.message).toBe("max must be greater than min");
    expect(ZSweepSpace.safeParse({ mode: "grid", params: [{ kind: "range", path: "a", min: 0, max: 1, scale: "log" }] }).error?.issues[0]!.message).toBe("a log range needs min > 0");
    const big = space({ mode: "grid", params: ["a", "b", "c"].map((path) => ({ kind: "values", path, values: [1, 2, 3, 4] })) });
    expect(() => expandSpace({}, big, "s")).toThrow("space: the grid names 64 configs; at most 32 (fewer values or points)");
  });
});
