// The evidence a continual run is judged on between candidates, and the pure gate decision over it: span
// coverage and retry debt come from the rollups of the rollouts the run stored (gate/evidence), protected
// regressions from the locked held-out cases the parent passed and the current policy fails, and whether the
// exact parent still loads from the store. decideStop (gate/stop-conditions) says continue or pause.
import { decideStop, summarizeWindow, type EvidenceWindow, type StopDecision } from "@/server/gate/stop-conditions";
import { DEFAULT_GATE_POLICY, type Expectations } from "@/server/gate/policy";
import type { RolloutRollup } from "@/server/gate/receipt/stage2";
import type { Evaluation } from "@/server/trainers/evaluate";
import type { Stage1Facts } from "@/server/trainers/stage1";
import { ownValue } from "@/lib/own";

export function expectationsOf(facts: Stage1Facts): Expectations {
  const e = facts.expectedEvidence;
  return {
    spanFamilies: [...e.spanFamilies],
    protectedFamilies: e.protectedFamilies.map((f) => ({ ...f })),
    expectedResamplesPerRollout: e.retryBudget.expectedResamplesPerRollout,
    unexpectedRetryBudget: e.retryBudget.unexpectedRetries,
    canaryBoundary: e.canaryBoundary,
  };
}

/** Per protected family: how many more locked held-out cases the parent passes than the current policy. */
export function protectedRegressions(parent: Evaluation, candidate: Evaluation, facts: Stage1Facts): EvidenceWindow["protectedFamilies"] {
  return facts.expectedEvidence.protectedFamilies.map((f) => ({
    family: f.family,
    regressions: Math.max(0, (ownValue(parent.byFamily, f.family)?.passed ?? 0) - (ownValue(candidate.byFamily, f.family)?.passed ?? 0)),
    maxRegressions: f.maxRegressions,
  }));
}

export type WindowEvidence = { label: string; rollups: RolloutRollup[]; parentResolvable: boolean; protectedFamilies: EvidenceWindow["protectedFamilies"] };

export function evidenceWindow(w: WindowEvidence, facts: Stage1Facts): EvidenceWindow {
  return { ...summarizeWindow(w.label, w.rollups, expectationsOf(facts), { parentResolvable: w.parentResolvable }), protectedFamilies: w.protectedFamilies };
}

export function judgeWindows(windows: readonly EvidenceWindow[], retryDebtBound: number): StopDecision {
  return decideStop(windows, retryDebtBound, DEFAULT_GATE_POLICY.stop);
}
