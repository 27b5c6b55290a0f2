// The curve chart's hover readout (issue 25): the x as "<axis> <n>" and every series' raw and smoothed value
// there — a series with no point at that x is still listed, reading "—".
import { describe, expect, it } from "vitest";
import { rawKey, readout, readoutNumber, smoothedKey } from "@/lib/charts/readout";

const series = [
  { name: "candidate reward", color: "var(--lg-accent)" },
  { name: "parent reward", color: "var(--lg-ink-3)" },
];

describe("curve readout", () => {
  it("names the rollout and gives both series' raw and smoothed values", () => {
    const row = { x: 12, [rawKey("candidate reward")]: 0.8125, [smoothedKey("candidate reward")]: 0.79, [rawKey("parent reward")]: 0.7, [smoothedKey("parent reward")]: 0.7449 };
    expect(readout(row, series, "rollout")).toEqual({
      title: "rollout 12",
      lines: [
        { name: "candidate reward", color: "var(--lg-accent)", raw: "0.813", smoothed: "0.790" },
        { name: "parent reward", color: "var(--lg-ink-3)", raw: "0.700", smoothed: "0.745" },
      ],
    });
  });

  it("lists a series without a point at this x as —, and reads nothing without a row", () => {
    const r = readout({ x: 140, [rawKey("candidate reward")]: 0.5, [smoothedKey("candidate reward")]: 0.5 }, series, "rollout");
    expect(r!.lines[1]).toMatchObject({ name: "parent reward", raw: "—", smoothed: "—" });
    expect(readout(undefined, series, "rollout")).toBeNull();
  });

  it("keeps tiny figures readable and large ones whole", () => {
    expect(readoutNumber(0.00042)).toBe("0.000420");
    expect(readoutNumber(0)).toBe("0.000");
    expect(readoutNumber(-0.25)).toBe("-0.250");
    expect(readoutNumber(12345.6)).toBe("12346");
    expect(readoutNumber(Number.NaN)).toBe("—");
  });
});
