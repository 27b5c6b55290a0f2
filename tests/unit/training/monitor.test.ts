// The training monitor's pure parts: which stop condition ended a run, with thresholds and current values, and
// an ETA that neither jumps with one slow update nor counts a pause as training time.
import { describe, expect, it } from "vitest";
import { epochsWithoutImprovement, steadyEta, steadyRate, stopConditions, type JudgedWindow } from "@/server/training/monitor";

const run = { status: "running", statusReason: null, updatesDone: 3, updatesTotal: 10, continual: false, retryBudget: 5, paceSeconds: 0 };
const at = (seconds: number[]) => seconds.map((s) => new Date(Date.UTC(2026, 0, 1) + s * 1000));

describe("stop conditions", () => {
  it("early stopping replays the fitter's patience on the validation loss and marks what ended the run", () => {
    expect(epochsWithoutImprovement([1, 0.8, 0.81, 0.797, 0.799], 0.005)).toBe(3);
    expect(epochsWithoutImprovement([1, 0.8, 0.81, 0.79, 0.795], 0.005)).toBe(1); // 0.79 improved by more than 0.005
    const figures = [1, 0.8, 0.81, 0.805, 0.802].map((valLoss) => ({ valLoss, trainLoss: 0 }));
    const config = { maxEpochs: 30, earlyStopping: { enabled: true, patience: 3, minDelta: 0.001 } };
    const ended = stopConditions({ ...run, status: "finished", statusReason: "the family finished early", updatesDone: 5, updatesTotal: 30 }, config, figures, null);
    expect(ended.map((c) => [c.id, c.state])).toEqual([["max-updates", "ok"], ["max-epochs", "ok"], ["early-stopping", "ended"]]);
    expect(ended[2]).toMatchObject({ threshold: "patience 3 epochs, min Δ 0.001", current: "3 without improvement (best 0.8000)" });
    const budget = stopConditions({ ...run, status: "finished", updatesDone: 10 }, {}, [], null);
    expect(budget).toEqual([{ id: "max-updates", label: "Update budget", threshold: "10 updates", current: "10 done", state: "ended" }]);
  });

  it("a continual run shows the gate's conditions on the newest judged window; the one that paused it is marked", () => {
    const judged: JudgedWindow = {
      action: "pause",
      active: true,
      usefulProgress: false,
      reasons: [{ condition: "protected_regressed", window: "updates 6–10", sentence: "…" }],
      window: { label: "updates 6–10", rollouts: 160, coverage: { considered: 150, fullyCovered: 150 }, retryDebt: { known: true, debt: 2 }, protectedFamilies: [{ family: "refunds", regressions: 0, maxRegressions: 0 }, { family: "account_deletion", regressions: 3, maxRegressions: 0 }], parentResolvable: true, canary: null, meanReward: 0.4 },
    };
    const paused = stopConditions({ ...run, continual: true, status: "paused", statusReason: "stop condition: Protected family account_deletion regressed" }, {}, [], judged);
    const byId = Object.fromEntries(paused.map((c) => [c.id, c]));
    expect(byId.coverage).toMatchObject({ current: "100.0 % of 150 (updates 6–10)", state: "ok" });
    expect(byId["retry-debt"]).toMatchObject({ threshold: "≤ 5", current: "2 (updates 6–10)", state: "ok" });
    expect(byId.protected).toMatchObject({ current: "3 in all; worst account_deletion 3", state: "ended" });
    expect(byId.parent).toMatchObject({ current: "yes", state: "ok" });
    // Before any window was judged, they wait.
    expect(stopConditions({ ...run, continual: true }, {}, [], null).filter((c) => c.state === "waiting")).toHaveLength(4);
  });
});

describe("steady ETA", () => {
  it("smooths the rate: one slow update moves it by a fraction; a pause is left out; never faster than the pace", () => {
    const even = at([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20]);
    expect(steadyRate(even)).toBeCloseTo(2, 9);
    const oneSlow = at([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 24]);
    expect(steadyRate(oneSlow)!).toBeGreaterThan(2);
    // 3× slower once, ten spans in: the debiased EMA gives it weight 0.1 / (1 − 0.9¹⁰) ≈ 0.15, not the mean-of-5's 0.2.
    expect(steadyRate(oneSlow)!).toBeCloseTo(2 + 4 * (0.1 / (1 - 0.9 ** 10)), 9);
    const paused = at([0, 2, 4, 6, 8, 608, 610, 612]);
    expect(steadyRate(paused)).toBeCloseTo(2, 9);
    expect(steadyRate(even, 15)).toBe(15);
    expect(steadyRate(at([0]))).toBeNull();
  });

  it("counts down between updates instead of jumping back at each poll", () => {
    const last = new Date(1_000_000);
    expect(steadyEta(2, 10, last, 1_000_000)).toBe(20);
    expect(steadyEta(2, 10, last, 1_001_500)).toBe(19); // 1.5 s after the last update
    expect(steadyEta(2, 10, last, 1_010_000)).toBe(18); // overdue: never below the remaining updates' due
    expect(steadyEta(null, 10, last, 0)).toBeNull();
    expect(steadyEta(2, 0, last, 0)).toBe(0);
  });
});
