// The run's ETA (server/training/eta.ts) and how it reads (lib/format/eta.ts): a robust median of the recent
// update durations with a range, steady through a few slow updates, nothing before there is a pace to go by.
import { describe, expect, it } from "vitest";
import { estimateEta, recentSpans } from "@/server/training/eta";
import { etaText } from "@/lib/format/eta";

const T0 = Date.UTC(2026, 11, 5, 12);
/** Update times from the durations between them (seconds), starting at T0. */
function times(spans: number[]): Date[] {
  const out = [new Date(T0)];
  for (const s of spans) out.push(new Date(out.at(-1)!.getTime() + s * 1000));
  return out;
}
const last = (at: Date[]) => at.at(-1)!.getTime();

describe("estimateEta", () => {
  it("shows nothing before 2 updates", () => {
    expect(estimateEta([], 10, T0)).toBeNull();
    expect(estimateEta(times([]), 10, T0)).toBeNull();
    expect(estimateEta(times([60]), 10, T0 + 60_000)).not.toBeNull();
  });

  it("estimates remaining × the median duration, with a range around it", () => {
    const at = times(Array(20).fill(60));
    const eta = estimateEta(at, 30, last(at))!;
    expect(eta).toMatchObject({ seconds: 1800, secondsPerUpdate: 60 });
    // Identical durations still leave a range: at least ±50 %/√20 ≈ ±11 % of the pace.
    expect(eta.low).toBeCloseTo(30 * 60 * (1 - 0.5 / Math.sqrt(20)), -1);
    expect(eta.high).toBeCloseTo(30 * 60 * (1 + 0.5 / Math.sqrt(20)), -1);
  });

  it("does not swing on a few slow updates (the 22 → 55 min jump): the median holds until they become the pace", () => {
    const steady = times(Array(20).fill(60));
    const before = estimateEta(steady, 30, last(steady))!.seconds;
    // Slow updates (a gate run, busy runners) at 2.5× the usual duration: three of the last twenty move nothing…
    const three = times([...Array(17).fill(60), 150, 150, 150]);
    expect(estimateEta(three, 30, last(three))).toEqual(estimateEta(steady, 30, last(steady)));
    // …five move the range, not the estimate.
    const five = times([...Array(15).fill(60), ...Array(5).fill(150)]);
    const after = estimateEta(five, 30, last(five))!;
    expect(after.seconds).toBe(before);
    expect(after.high).toBeGreaterThan(estimateEta(steady, 30, last(steady))!.high);
    // Once most recent updates are slow, the estimate follows.
    const slower = times([...Array(8).fill(60), ...Array(12).fill(150)]);
    expect(estimateEta(slower, 30, last(slower))!.seconds).toBe(30 * 150);
  });

  it("leaves a pause out of the pace, never goes faster than the run's pace, and counts down between updates", () => {
    expect(recentSpans(times([2, 2, 2, 2, 600, 2, 2]))).toEqual([2, 2, 2, 2, 2, 2]);
    // Too few spans to tell a pause from the pace: kept.
    expect(recentSpans(times([2, 600]))).toEqual([2, 600]);
    const at = times(Array(10).fill(2));
    expect(estimateEta(at, 10, last(at), 15)!.secondsPerUpdate).toBe(15);
    expect(estimateEta(at, 10, last(at))!.seconds).toBe(20);
    expect(estimateEta(at, 10, last(at) + 1_500)!.seconds).toBe(19); // 1.5 s into the next update
    expect(estimateEta(at, 10, last(at) + 60_000)!.seconds).toBe(18); // overdue: never below the remaining updates' due
    expect(estimateEta(at, 0, last(at))).toMatchObject({ seconds: 0, low: 0, high: 0 });
  });

  it("only reads the recent window of spans", () => {
    const at = times([...Array(50).fill(10), ...Array(20).fill(40)]);
    expect(estimateEta(at, 1, last(at))!.secondsPerUpdate).toBe(40);
  });
});

describe("etaText", () => {
  it("reads as about N with the range, rounded to what the range can tell", () => {
    expect(etaText({ seconds: 1800, low: 1200, high: 2700 })).toBe("about 30 min (20–45)");
    expect(etaText({ seconds: 1810, low: 1500, high: 2100 })).toBe("about 30 min (25–35)");
    expect(etaText({ seconds: 250, low: 230, high: 260 })).toBe("about 4 min (3–5)");
    expect(etaText({ seconds: 240, low: 240, high: 240 })).toBe("about 4 min");
    expect(etaText({ seconds: 42, low: 31, high: 58 })).toBe("about 40 s (30–60)");
    expect(etaText({ seconds: 7200, low: 5400, high: 10800 })).toBe("about 2 h (1.5–3)");
    expect(etaText({ seconds: 0, low: 0, high: 0 })).toBe("finishing");
  });
});
