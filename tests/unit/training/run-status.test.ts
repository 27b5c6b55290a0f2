// How a run's status reads (lib/training/run-status.ts): stopped by a person is not finished, a family's own end
// says which rule ended it, a gate pause names its condition; retry debt over its budget is flagged.
import { expect, it } from "vitest";
import { FAMILY_ENDED_REASON, retryDebtStanding, runStatusLine } from "@/lib/training/run-status";

const at = new Date("2026-12-05T18:02:11Z");
const base = { statusReason: null, updatesDone: 20, updatesTotal: 20, finishedAt: at };

it("a run a person stopped reads 'stopped by <who>' at the time, never 'finished'", () => {
  const line = runStatusLine({ ...base, status: "stopped", statusReason: "stopped by Tess Trainer", updatesDone: 7 })!;
  expect(line).toEqual({ text: "stopped by Tess Trainer", at, tone: "warn" });
  expect(line.text).not.toMatch(/finished/);
});

it("finished says whether the whole budget ran or a stop rule of the family ended it", () => {
  expect(runStatusLine({ ...base, status: "finished" })).toEqual({ text: "finished all 20 updates", at, tone: "pass" });
  expect(runStatusLine({ ...base, status: "finished", statusReason: FAMILY_ENDED_REASON, updatesDone: 7, endedBy: "Early stopping (validation loss)" })!.text).toBe(
    "finished early after 7 updates: stopped by early stopping (validation loss)",
  );
  expect(runStatusLine({ ...base, status: "finished", statusReason: FAMILY_ENDED_REASON, updatesDone: 1 })!.text).toBe("finished early after 1 update: stopped by the family's own stop rule");
});

it("a pause says who or which stop condition paused it; a failure its error; live runs say nothing", () => {
  const pausedAt = new Date("2026-12-05T17:00:00Z");
  expect(runStatusLine({ ...base, status: "paused", statusReason: "paused by Tess Trainer", finishedAt: null, pausedAt })).toEqual({ text: "paused by Tess Trainer", at: pausedAt, tone: "warn" });
  expect(runStatusLine({ ...base, status: "paused", statusReason: "stop condition: Retry debt 328 is over the bound 100.", finishedAt: null })).toEqual({
    text: "paused by a stop condition: Retry debt 328 is over the bound 100.",
    at: null,
    tone: "fail",
  });
  expect(runStatusLine({ ...base, status: "failed", statusReason: "runner vanished" })).toEqual({ text: "failed: runner vanished", at, tone: "fail" });
  expect(runStatusLine({ ...base, status: "running", finishedAt: null })).toBeNull();
  expect(runStatusLine({ ...base, status: "queued", finishedAt: null })).toBeNull();
});

it("retry debt over its budget is flagged 'over budget'; at or under it is not", () => {
  expect(retryDebtStanding(328, 100)).toEqual({ over: true, text: "328 — over budget (100)" });
  expect(retryDebtStanding(100, 100)).toEqual({ over: false, text: "100 of 100" });
  expect(retryDebtStanding(0, 1000)).toEqual({ over: false, text: "0 of 1,000" });
});
