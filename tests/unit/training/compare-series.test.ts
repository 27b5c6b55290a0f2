// The compare page's metrics (server/training/compare.ts runSeries, lib/training/metrics.ts): what each run
// records per update — the update columns and its family's figures — and the asked metrics' points.
import { expect, it } from "vitest";
import { runSeries } from "@/server/training/compare";
import { DEFAULT_METRICS, metricInfo, parseMetricList } from "@/lib/training/metrics";

const row = (update: number, over: Partial<{ meanReward: number | null; heldOutReward: number | null; coverage: number | null; retries: number; failed: number }>, figures: Record<string, unknown>) => ({
  update,
  meanReward: null,
  heldOutReward: null,
  coverage: null,
  retries: 0,
  failed: 0,
  ...over,
  figures: JSON.stringify(figures),
});

it("offers the columns a run has values in, then its figures by name, and draws the asked ones", () => {
  const rows = [row(1, { heldOutReward: 0.3, meanReward: 0.2, retries: 2 }, { approxKl: 0.01, entropy: 1.2, retries: 2, meanEpisodeReward: 0.2 }), row(2, { heldOutReward: 0.4, retries: 1 }, { approxKl: 0.02, entropy: 1.1, note: "text" })];
  const { available, series } = runSeries(rows, ["validation", "entropy", "retries", "clipFraction"]);
  // Figures repeating a column (retries, the batch reward) are not offered twice; non-numbers are not figures.
  expect(available).toEqual(["validation", "batch_reward", "retries", "failed", "approxKl", "entropy"]);
  expect(series).toEqual([
    { metric: "validation", points: [{ update: 1, value: 0.3 }, { update: 2, value: 0.4 }] },
    { metric: "entropy", points: [{ update: 1, value: 1.2 }, { update: 2, value: 1.1 }] },
    { metric: "retries", points: [{ update: 1, value: 2 }, { update: 2, value: 1 }] },
    { metric: "clipFraction", points: [] },
  ]);
});

it("a metric named after an object member finds nothing (own keys only)", () => {
  const { series } = runSeries([row(1, {}, { entropy: 1 })], ["constructor", "toString", "hasOwnProperty"]);
  expect(series.map((s) => s.points.length)).toEqual([0, 0, 0]);
});

it("the URL's metric list: well-formed keys, no repeats, at most 8, validation when empty", () => {
  expect(parseMetricList("validation,entropy,entropy, approxKl")).toEqual(["validation", "entropy", "approxKl"]);
  expect(parseMetricList("../x,<b>,1abc")).toEqual([...DEFAULT_METRICS]);
  expect(parseMetricList(null)).toEqual(["validation"]);
  expect(parseMetricList(Array.from({ length: 12 }, (_, i) => `m${i}`).join(","))).toHaveLength(8);
  expect(metricInfo("approxKl").label).toBe("Approx. KL");
  // A figure no one described reads as words, and its hint keeps the key the family wrote.
  expect(metricInfo("levelSuccess")).toMatchObject({ label: "Level success", hint: expect.stringContaining("levelSuccess") });
  expect(metricInfo("policyLoss").label).toBe("Policy loss");
  expect(metricInfo("rollback_proposals2").label).toBe("Rollback proposals 2");
});
