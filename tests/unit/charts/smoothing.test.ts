import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { debiasedEma, downsampleM4, type Point } from "@/lib/charts/smoothing";

const series = (ys: number[]): Point[] => ys.map((y, x) => ({ x, y }));

describe("debiasedEma", () => {
  it("is the raw series at weight 0", () => {
    expect(debiasedEma(series([1, 5, 2]), 0).map((p) => p.smoothed)).toEqual([1, 5, 2]);
  });

  it("is debiased: a constant series stays constant from the first point", () => {
    for (const p of debiasedEma(series([3, 3, 3, 3]), 0.9)) expect(p.smoothed).toBeCloseTo(3, 12);
  });

  it("matches the TensorBoard formula on evenly spaced points", () => {
    const ys = [0, 1, 0.5, 2];
    const w = 0.6;
    let last = 0;
    const expected = ys.map((y, i) => {
      last = last * w + (1 - w) * y;
      return last / (1 - Math.pow(w, i + 1));
    });
    debiasedEma(series(ys), w).forEach((p, i) => expect(p.smoothed).toBeCloseTo(expected[i]!, 12));
  });

  it("is causal: appending points never changes earlier smoothed values", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 2, maxLength: 60 }), fc.double({ min: 0, max: 0.99, noNaN: true }), (ys, w) => {
        const full = debiasedEma(series(ys), w);
        const prefix = debiasedEma(series(ys.slice(0, ys.length - 1)), w);
        prefix.forEach((p, i) => expect(full[i]!.smoothed).toBeCloseTo(p.smoothed, 9));
      }),
    );
  });

  it("treats a gap in x as several decay steps", () => {
    const even = debiasedEma([{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 2, y: 0 }, { x: 3, y: 10 }], 0.5);
    const gap = debiasedEma([{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 2, y: 0 }, { x: 10, y: 10 }], 0.5);
    expect(gap[3]!.smoothed).toBeGreaterThan(even[3]!.smoothed);
  });

  it("refuses a weight outside [0, 1)", () => {
    expect(() => debiasedEma(series([1]), 1)).toThrow(/\[0, 1\)/);
  });
});

describe("downsampleM4", () => {
  it("keeps a single spike among 10,000 points", () => {
    const ys = Array.from({ length: 10_000 }, (_, i) => (i === 7_123 ? 50 : Math.sin(i / 100)));
    const out = downsampleM4(series(ys), 200);
    expect(out.length).toBeLessThanOrEqual(800);
    expect(out.some((p) => p.y === 50 && p.x === 7_123)).toBe(true);
  });

  it("keeps each bucket's extremes and stays sorted by x", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 50, maxLength: 400 }), (ys) => {
        const out = downsampleM4(series(ys), 10);
        for (let i = 1; i < out.length; i++) expect(out[i]!.x).toBeGreaterThan(out[i - 1]!.x);
        expect(Math.max(...out.map((p) => p.y))).toBe(Math.max(...ys));
        expect(Math.min(...out.map((p) => p.y))).toBe(Math.min(...ys));
      }),
    );
  });
});
