// The training monitor's pure parts: which stop condition ended a run, with thresholds and current values (the
// ETA is eta.test.ts).
import { describe, expect, it } from "vitest";
import { epochsWithoutImprovement, stopConditions, type JudgedWindow } from "@/server/training/monitor";

const run = { status: "running", statusReason: null, updatesDone: 3, updatesTotal: 10, continual: false, retryBudget: 5, paceSeconds: 0 };

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

  it("a run a person stopped shows the stop as what ended it; the update budget did not", () => {
    const stopped = stopConditions({ ...run, status: "stopped", statusReason: "stopped by Tess Trainer" }, {}, [], null);
    expect(stopped.map((c) => [c.id, c.state])).toEqual([["max-updates", "ok"], ["manual", "ended"]]);
    expect(stopped[1]).toMatchObject({ label: "Stopped by hand", current: "stopped by Tess Trainer" });
    // A finished run was not stopped by hand, whatever its reason says.
    expect(stopConditions({ ...run, status: "finished", statusReason: null, updatesDone: 10 }, {}, [], null).map((c) => c.id)).toEqual(["max-updates"]);
  });
});
