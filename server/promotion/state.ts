// A candidate's promotion state, named, derived from plain facts (facts.ts). The pages show it; the guards
// (guards.ts) start from it. Precedence matters: a rolled-back candidate reads ROLLED BACK, never its former step.
import { staleSaid } from "@/lib/candidates/status";
import { timestamp } from "@/lib/format/time";
import type { CheckSaid, PromotionEvent, PromotionFacts, Step } from "./facts";

export const PROMOTION_STATES = [
  "declared",
  "gating",
  "quarantined",
  "stale",
  "ready-for-canary",
  "canary-approved",
  "canary-running",
  "canary-sealed",
  "canary-aborted",
  "ready-for-default",
  "promoted",
  "rolled-back",
  "superseded",
] as const;
export type PromotionStateName = (typeof PROMOTION_STATES)[number];

/** How each state reads on the page (the badge). */
export const STATE_LABELS: Record<PromotionStateName, string> = {
  declared: "DECLARED",
  gating: "GATING",
  quarantined: "QUARANTINED",
  stale: "STALE",
  "ready-for-canary": "READY FOR APPROVAL",
  "canary-approved": "PROMOTE TO BOUNDED CANARY",
  "canary-running": "CANARY RUNNING",
  "canary-sealed": "CANARY SEALED",
  "canary-aborted": "CANARY ABORTED",
  "ready-for-default": "READY FOR APPROVAL",
  promoted: "PROMOTED",
  "rolled-back": "ROLLED BACK",
  superseded: "SUPERSEDED",
};

export type PromotionState = {
  name: PromotionStateName;
  label: string;
  /** The approval step the candidate is at (null when no step is open: declared, gating, promoted, rolled back…). */
  step: Step | null;
  /** The current cycle's number (1 = the first gate run) and its events. */
  cycle: number;
  /** Stale: what each stale check said before it went stale (never just "STALE"). */
  said: CheckSaid[];
  next: string;
};

/** Events of the current cycle: after the last gate run, re-run or rollback. */
export function currentCycle(history: readonly PromotionEvent[]): { number: number; events: PromotionEvent[] } {
  let start = 0;
  let number = 0;
  history.forEach((e, i) => {
    if (e.kind === "gate-run" || e.kind === "rollback") {
      start = i + 1;
      number += 1;
    }
  });
  return { number, events: history.slice(start) };
}

/** Who approved `step` in the current cycle (a rejection is a decision too, but it bars no one). */
export function approversInCycle(history: readonly PromotionEvent[], step: Step): string[] {
  return currentCycle(history).events.flatMap((e) => (e.kind === "approval" && e.step === step && e.decision === "approve" ? [e.actorId] : []));
}

/** "check 4 failed (gain −0.031 …); check 5 failed (…)" — what stale checks said before they went stale. */
export const saidSentence = (said: readonly CheckSaid[]) => staleSaid(said) || `${said.map((c) => `check ${c.check}`).join(", ")} said nothing yet`;

const state = (name: PromotionStateName, step: Step | null, cycle: number, next: string, said: CheckSaid[] = []): PromotionState => ({
  name,
  label: STATE_LABELS[name],
  step,
  cycle,
  said,
  next,
});

export function promotionState(f: PromotionFacts): PromotionState {
  const { number } = currentCycle(f.history);
  const last = f.history.findLast((e) => e.kind === "gate-run" || e.kind === "rollback");
  const digest = f.candidate.digest;
  if (f.gateRunning) return state("gating", null, number, "The gate is running: the verdict follows when its rollouts are judged.");
  const rolledBackPointer = last?.kind === "rollback" ? (last.pointer === "canary" ? f.pointers.canary : f.pointers.approvedDefault) : digest;
  if (last?.kind === "rollback" && rolledBackPointer !== digest) {
    return state("rolled-back", null, number, `The ${last.pointer.replace("_", " ")} was rolled back from this candidate at ${timestamp(last.at)}; re-run the gate to promote it again.`);
  }
  const namesThis = (d: string | null, id: string | null | undefined) => d === digest && (id == null || id === f.candidate.id);
  if (namesThis(f.pointers.approvedDefault, f.pointers.approvedDefaultCandidateId)) return state("promoted", null, number, "The approved default names this candidate.");
  if (f.supersededBy) return state("superseded", null, number, `A later candidate (${f.supersededBy}) became the approved default.`);
  if (!f.gate) return state("declared", null, number, "Declared: request a gate run once the candidate is trained.");
  const open = f.gate.open;
  const staleOnly = open.length > 0 && open.every((c) => c.status === "stale");
  const said = open.filter((c) => c.status === "stale");
  const stage = f.canaryStage;
  if (stage?.state === "running") return state("canary-running", "default", number, "The canary stage is running inside its boundary; the default step opens when it seals.");
  if (stage?.state === "aborted") return state("canary-aborted", null, number, "The canary stage was aborted and the canary pointer went back to the exact parent; re-run the gate.");
  // The step open in this cycle: once its canary step was approved, the default step (even while stale quarantines on the canary step).
  const cycleStep: Step = approversInCycle(f.history, "canary").length ? "default" : f.gate.step;
  if (staleOnly) return state("stale", cycleStep, number, `Evidence went stale; before it did, ${saidSentence(said)}. Re-run the gate.`, said);
  if (f.gate.verdict === "QUARANTINED") {
    if (stage?.state === "sealed") return state("canary-sealed", "default", number, "The canary stage sealed, but its own receipt does not pass: the default step stays closed.", said);
    return state("quarantined", cycleStep, number, "Quarantined: the checks that fail must pass first.", said);
  }
  if (f.gate.step === "default") {
    if (f.gate.verdict === "READY FOR APPROVAL") return state("ready-for-default", "default", number, "Waiting for another authorized person to approve the default step.");
    return state("canary-sealed", "default", number, "The default step was approved: the approved default moves in the same transaction.");
  }
  if (f.gate.verdict === "READY FOR APPROVAL") {
    // A re-run that did not carry the sealed canary stage says so (decideRerun: its evidence was stale at the re-run).
    const lastRun = f.history.findLastIndex((e) => e.kind === "gate-run");
    const dropped = f.history.slice(0, lastRun).some((e) => e.kind === "canary-sealed");
    const serving = f.pointers.canary === digest ? " The canary pointer still names this candidate: roll it back to the exact parent before a new canary step." : "";
    const why = dropped ? "The re-run did not keep the default step (the sealed canary stage's evidence was stale at the re-run): the canary step starts again." : "Waiting for an authorized approval of the bounded canary step.";
    return state("ready-for-canary", "canary", number, why + serving);
  }
  return state("canary-approved", "default", number, "The canary step was approved: the canary stage starts.");
}
