import { describe, expect, it } from "vitest";
import { bucketSeconds, comparedToPrevious, delta, perMinute, rate } from "@/lib/training/external-figures";
import { debiasedEma } from "@/lib/charts/smoothing";

describe("external training figures", () => {
  it("a rate with nothing counted is unknown, not 0", () => {
    expect(rate(1, 4)).toBe(0.25);
    expect(rate(0, 4)).toBe(0);
    expect(rate(0, 0)).toBeNull();
  });

  it("a change needs both sides", () => {
    expect(delta(0.75, 0.5)).toBe(0.25);
    expect(delta(0, 0.25)).toBe(-0.25);
    expect(delta(null, 0.5)).toBeNull();
    expect(delta(0.5, null)).toBeNull();
  });

  it("throughput per minute over the window, a burst within a second counted over one second", () => {
    expect(perMinute(30, 100, 160)).toBe(30);
    expect(perMinute(2, 100, 100.2)).toBe(120);
    expect(perMinute(0, 100, 160)).toBeNull();
    expect(perMinute(3, null, 160)).toBeNull();
  });

  it("each version beside the previous one; the first has none", () => {
    const rows = [
      { reward: 0.5, coverage: 1 },
      { reward: 0.75, coverage: null },
      { reward: 0.25, coverage: 0.5 },
    ];
    expect(comparedToPrevious(rows, ["reward", "coverage"])).toEqual([
      { reward: { value: 0.5, previous: null, delta: null }, coverage: { value: 1, previous: null, delta: null } },
      { reward: { value: 0.75, previous: 0.5, delta: 0.25 }, coverage: { value: null, previous: 1, delta: null } },
      { reward: { value: 0.25, previous: 0.75, delta: -0.5 }, coverage: { value: 0.5, previous: null, delta: null } },
    ]);
    expect(comparedToPrevious([], ["reward"])).toEqual([]);
  });

  it("buckets keep a chart at most maxPoints wide", () => {
    expect(bucketSeconds(0)).toBe(1);
    expect(bucketSeconds(100, 200)).toBe(1);
    expect(bucketSeconds(86_400, 200)).toBe(432);
    expect(Math.ceil(86_400 / bucketSeconds(86_400, 200))).toBeLessThanOrEqual(200);
    expect(bucketSeconds(Number.NaN)).toBe(1);
  });

  it("reward curves over versions smooth causally (the chart's debiased EMA): a later version never moves an earlier point", () => {
    const versions = [0.5, 0.75, 0.25].map((y, i) => ({ x: i + 1, y }));
    const short = debiasedEma(versions.slice(0, 2), 0.6).map((p) => p.smoothed);
    const long = debiasedEma(versions, 0.6).map((p) => p.smoothed);
    expect(long.slice(0, 2)).toEqual(short);
    expect(long[0]).toBe(0.5);
  });
});
