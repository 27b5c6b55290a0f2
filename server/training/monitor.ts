// What the training monitor shows beside the curves, from a run's rows alone (pure; queries.ts reads the rows):
// every stop condition that applies to the run with its threshold and current value and which one ended it,
// and the PPO diagnostics per update (the ETA is eta.ts).
import type { EvidenceWindow, StopDecision } from "@/server/gate/stop-conditions";
import { DEFAULT_GATE_POLICY } from "@/server/gate/policy";
import { PPO_DIAGNOSTICS, type PpoDiagnostic } from "@/server/trainers/diagnostics";
import { FAMILY_ENDED_REASON } from "@/lib/training/run-status";

export type StopConditionState = "ok" | "tripped" | "ended" | "waiting";
export type StopConditionView = { id: string; label: string; threshold: string; current: string; state: StopConditionState };

type RunFacts = { status: string; statusReason: string | null; updatesDone: number; updatesTotal: number; continual: boolean; retryBudget: number; paceSeconds: number };
type Figures = Record<string, number>;
/** The newest gate-stop decision the worker recorded (event data), with the window it judged. */
export type JudgedWindow = StopDecision & { window?: EvidenceWindow };

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const num = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) ? x : null);

/** Epochs since the monitored loss last improved by more than minDelta (the fitter's own rule, replayed). */
export function epochsWithoutImprovement(losses: readonly number[], minDelta: number): number {
  let best = Infinity;
  let wait = 0;
  for (const l of losses) {
    if (l < best - minDelta || best === Infinity) {
      best = l;
      wait = 0;
    } else wait++;
  }
  return wait;
}

/**
 * Every stop condition the run is under: the update budget, the family's own (maximum epochs, early stopping,
 * an accuracy threshold) and, for continual runs, the gate's (span coverage, retry debt per window,
 * protected regressions, the exact parent loading). `state` "ended" marks the one that ended or paused the run.
 */
export function stopConditions(run: RunFacts, config: Record<string, unknown>, figures: readonly Figures[], judged: JudgedWindow | null): StopConditionView[] {
  const out: StopConditionView[] = [];
  const finished = run.status === "finished";
  const familyEnded = finished && run.statusReason === FAMILY_ENDED_REASON;
  const budgetEnded = finished && run.statusReason === null && run.updatesDone >= run.updatesTotal;
  out.push({ id: "max-updates", label: "Update budget", threshold: `${run.updatesTotal.toLocaleString("en")} updates`, current: `${run.updatesDone.toLocaleString("en")} done`, state: budgetEnded ? "ended" : "ok" });
  if (run.paceSeconds > 0) out.push({ id: "pace", label: "Pace", threshold: `≥ ${run.paceSeconds} s between updates`, current: "holds the run to it", state: "ok" });

  const maxEpochs = num(config.maxEpochs);
  if (maxEpochs !== null) out.push({ id: "max-epochs", label: "Maximum epochs", threshold: `${maxEpochs}`, current: `${figures.length}`, state: familyEnded && figures.length >= maxEpochs ? "ended" : "ok" });
  const early = config.earlyStopping as { enabled?: boolean; patience?: number; minDelta?: number } | undefined;
  if (early?.enabled && typeof early.patience === "number") {
    const val = figures.every((f) => num(f.valLoss) !== null);
    const losses = figures.map((f) => (val ? f.valLoss! : f.trainLoss!)).filter((x) => typeof x === "number");
    const wait = epochsWithoutImprovement(losses, early.minDelta ?? 0);
    out.push({
      id: "early-stopping",
      label: `Early stopping (${val ? "validation" : "training"} loss)`,
      threshold: `patience ${early.patience} epochs, min Δ ${early.minDelta ?? 0}`,
      current: losses.length ? `${wait} without improvement (best ${Math.min(...losses).toFixed(4)})` : "no epoch yet",
      state: familyEnded && wait >= early.patience ? "ended" : wait >= early.patience ? "tripped" : "ok",
    });
  }
  const accuracy = num(config.imitationAccuracyThreshold);
  if (accuracy !== null) {
    const latest = num(figures.at(-1)?.valAccuracy);
    out.push({ id: "accuracy", label: "Imitation accuracy threshold", threshold: `≥ ${pct(accuracy)}`, current: latest === null ? "—" : pct(latest), state: latest !== null && latest >= accuracy ? (familyEnded ? "ended" : "tripped") : "ok" });
  }

  if (run.continual) out.push(...gateConditions(run, judged));
  if (run.status === "stopped") out.push({ id: "manual", label: "Stopped by hand", threshold: "—", current: run.statusReason ?? "stopped", state: "ended" });
  return out;
}

/** The gate's continual-training stop conditions (gate/stop-conditions decideStop) on the newest judged window. */
function gateConditions(run: RunFacts, judged: JudgedWindow | null): StopConditionView[] {
  const w = judged?.window;
  const paused = run.status === "paused" && !!run.statusReason?.startsWith("stop condition");
  const state = (...conditions: string[]): StopConditionState => {
    if (!judged) return "waiting";
    const hit = judged.reasons.some((r) => conditions.includes(r.condition));
    return hit ? (paused ? "ended" : "tripped") : "ok";
  };
  const stop = DEFAULT_GATE_POLICY.stop;
  const coverage = w && w.coverage.considered ? w.coverage.fullyCovered / w.coverage.considered : null;
  const regressions = w?.protectedFamilies ?? null;
  const worst = regressions?.length ? regressions.reduce((a, b) => (b.regressions - b.maxRegressions > a.regressions - a.maxRegressions ? b : a)) : null;
  const where = w ? ` (${w.label})` : "";
  return [
    { id: "coverage", label: "Span coverage", threshold: `≥ ${pct(stop.minCoverageRatio)}, drop ≤ ${pct(stop.maxCoverageDrop)}`, current: w ? (coverage === null ? "no succeeded rollout" : `${pct(coverage)} of ${w.coverage.considered}${where}`) : "—", state: state("coverage_unavailable", "coverage_dropped") },
    { id: "retry-debt", label: "Retry debt per window", threshold: `≤ ${run.retryBudget}`, current: w ? `${w.retryDebt.known ? w.retryDebt.debt : "unknown"}${where}` : "—", state: state("retry_debt_unknown", "retry_debt_over_bound") },
    {
      id: "protected",
      label: "Protected regressions (validation split)",
      threshold: worst ? `≤ ${worst.maxRegressions} per family` : "≤ each family's tolerance",
      current: regressions === null ? "—" : worst ? `${regressions.reduce((a, f) => a + f.regressions, 0)} in all; worst ${worst.family} ${worst.regressions}` : "none",
      state: state("protected_regressed"),
    },
    { id: "parent", label: "Exact parent still loads", threshold: "yes", current: w ? (w.parentResolvable === true ? "yes" : w.parentResolvable === false ? "no" : "not checked") : "—", state: state("parent_unavailable") },
  ];
}

export type DiagnosticsPoint = { update: number } & Record<PpoDiagnostic, number | null>;

/** The PPO diagnostics per update; empty for families that record none of them. */
export function diagnosticsSeries(rows: readonly { update: number; figures: Figures }[]): DiagnosticsPoint[] {
  const points = rows.map((r) => ({ update: r.update, ...Object.fromEntries(PPO_DIAGNOSTICS.map((k) => [k, num(r.figures[k])])) }) as DiagnosticsPoint);
  return points.some((p) => PPO_DIAGNOSTICS.some((k) => p[k] !== null)) ? points : [];
}
