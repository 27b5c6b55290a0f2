// Every transition that moves (or refuses to move) a pointer, with its guard: state/verdict, freshness at
// commit (the caller passes facts re-read inside its transaction), scopes, separation of duties within the
// current cycle, and the pointer's from → to. The only code that decides a pointer move.
import type { PointerName, PromotionFacts, Step } from "./facts";
import { approversInCycle, promotionState, saidSentence, type PromotionStateName } from "./state";

export const STEP_POINTER: Record<Step, PointerName> = { canary: "canary", default: "approved_default" };
export const STEP_SCOPE: Record<Step, string> = { canary: "approval:canary", default: "approval:default" };
const POINTER_LABEL: Record<MovablePointer, string> = { canary: "canary", approved_default: "approved default", latest_candidate: "latest candidate" };

export type Actor = { id: string; scopes: readonly string[] };
/** Every pointer row a move may write: the promotion's two, and the latest candidate a registration advances. */
export type MovablePointer = PointerName | "latest_candidate";
/** `fromCandidateId`/`toCandidateId`: the candidate records, when known (identical bytes may belong to two candidates). */
export type PointerMove = { pointer: MovablePointer; from: string | null; to: string; fromCandidateId?: string | null; toCandidateId?: string | null };
export type RefusalCode = "state" | "checks" | "scope" | "duties" | "decided" | "pointer";
export type Decision =
  | { allowed: true; move: PointerMove | null; next: PromotionStateName; sentence: string }
  | { allowed: false; code: RefusalCode; reason: string };

const no = (code: RefusalCode, reason: string): Decision => ({ allowed: false, code, reason });

/** A move whose target is already the pointer's value is refused. */
export function pointerGuard(move: PointerMove): Decision | null {
  const sameRecord = move.fromCandidateId == null || move.toCandidateId == null || move.fromCandidateId === move.toCandidateId;
  if (move.from === move.to && sameRecord) return no("pointer", `the ${POINTER_LABEL[move.pointer]} already names this candidate`);
  return null;
}

/** Approving (or rejecting) `step`: the gate must wait for exactly this step, nothing stale, the actor authorized and not barred this cycle. */
export function decideApproval(f: PromotionFacts, step: Step, actor: Actor, decision: "approve" | "reject" = "approve"): Decision {
  const s = promotionState(f);
  const wanted: PromotionStateName = step === "canary" ? "ready-for-canary" : "ready-for-default";
  if (s.name === "stale") return no("checks", `evidence went stale (before it did, ${saidSentence(s.said)}): re-run the gate before approving`);
  if (s.name !== wanted) return no("state", `the candidate is ${s.label.toLowerCase()} (${s.name}), not waiting for the ${step} step`);
  if (!actor.scopes.includes(STEP_SCOPE[step])) return no("scope", `your roles do not hold "${STEP_SCOPE[step]}"`);
  if (f.excluded.includes(actor.id)) return no("duties", "you started this candidate's training (or own its key): separation of duties forbids approving it");
  // A decision already counted on this step shows in the verdict (the state is no longer "ready-…"): the gate counts only verified ones.
  if (step === "default" && approversInCycle(f.history, "canary").includes(actor.id)) {
    return no("duties", "you approved the canary step of this cycle: another person must approve the default step");
  }
  const pointer = STEP_POINTER[step];
  const from = pointer === "canary" ? f.pointers.canary : f.pointers.approvedDefault;
  const fromCandidateId = pointer === "canary" ? f.pointers.canaryCandidateId : f.pointers.approvedDefaultCandidateId;
  const move: PointerMove = { pointer, from, to: f.candidate.digest, fromCandidateId, toCandidateId: f.candidate.id };
  if (decision === "reject") return { allowed: true, move: null, next: "quarantined", sentence: `the ${step} step was rejected` };
  const same = pointerGuard(move);
  if (same) return same;
  if (step === "default" && from !== null && from !== f.candidate.parentDigest) {
    return no("pointer", "the candidate was judged against its exact parent, but the approved default names another resource now: re-run the gate");
  }
  const next = step === "canary" ? "canary-running" : "promoted";
  return { allowed: true, move, next, sentence: `${POINTER_LABEL[pointer]}: ${from ?? "nothing"} → ${move.to}` };
}

/** What signing will cost the signer, said before the signature (the confirmation dialog). */
export function signingCost(f: PromotionFacts, step: Step): string {
  if (step === "canary") return "Signing makes you this cycle's canary approver: you will not be able to approve the default step for this cycle (another person must).";
  const from = f.pointers.approvedDefault;
  return `Signing moves the approved default from ${from ?? "nothing"} to this candidate; only a signed rollback moves it back.`;
}

/** The canary guard's abort: the stage breached its boundary; the canary pointer goes back to the exact parent. */
export function decideAbort(f: PromotionFacts): Decision {
  if (f.canaryStage?.state !== "running") return no("state", "no canary stage is running for this candidate");
  return decideAbortMove(f.pointers.canary, f.candidate.digest, f.candidate.parentDigest);
}

/** The abort's move alone (the guard holds the pointer lock and reads the canary pointer itself). */
export function decideAbortMove(canary: string | null, candidate: string, parent: string): Decision {
  if (canary !== candidate) return { allowed: true, move: null, next: "canary-aborted", sentence: "the canary pointer no longer names this candidate: nothing to move back" };
  const move: PointerMove = { pointer: "canary", from: canary, to: parent };
  return pointerGuard(move) ?? { allowed: true, move, next: "canary-aborted", sentence: `canary: ${move.from} → ${move.to} (exact parent)` };
}

/** A re-run starts a new cycle. After a sealed canary stage the candidate stays at the default step while that evidence is fresh. */
export function decideRerun(f: PromotionFacts): { allowed: true; keepsDefaultStep: boolean; sentence: string } | { allowed: false; reason: string } {
  if (f.gateRunning) return { allowed: false, reason: "a gate run is already running for this candidate" };
  if (!f.history.some((e) => e.kind === "gate-run")) return { allowed: true, keepsDefaultStep: false, sentence: "the first gate run" };
  const stage = f.canaryStage;
  if (stage?.state !== "sealed") return { allowed: true, keepsDefaultStep: false, sentence: "no sealed canary stage: the re-run decides the canary step again" };
  if (stage.fresh) return { allowed: true, keepsDefaultStep: true, sentence: "the sealed canary stage is still fresh: the candidate stays at the default step" };
  return { allowed: true, keepsDefaultStep: false, sentence: `the canary evidence is stale (${stage.staleBecause.join("; ")}): the canary step starts again` };
}

export type RollbackCandidate = { digest: string; why: string };
export type RollbackFacts = {
  pointer: PointerName;
  current: string | null;
  /** Digests in the order they first became this pointer's value, oldest first. */
  arrivals: readonly string[];
  rolledBackFrom: readonly string[];
  /** The current value's exact parent (its receipt's stage 1): always a step back, whatever the clock said. */
  parentOfCurrent?: string | null;
};

/** Whether a rollback may move `pointer` to `target`: never to itself, never forward (a target that first arrived after the current value), never to a rolled-back candidate. */
export function decideRollback(r: RollbackFacts, target: string, actor: Actor): Decision {
  if (!actor.scopes.includes("rollback:execute")) return no("scope", 'your roles do not hold "rollback:execute"');
  if (r.current === null) return no("pointer", `no ${POINTER_LABEL[r.pointer]} to roll back`);
  const same = pointerGuard({ pointer: r.pointer, from: r.current, to: target });
  if (same) return same;
  if (r.rolledBackFrom.includes(target)) return no("pointer", "that resource was rolled back from: it is not a rollback target");
  const here = r.arrivals.indexOf(r.current);
  const there = r.arrivals.indexOf(target);
  if (target !== r.parentOfCurrent && there >= 0 && here >= 0 && there > here) return no("pointer", `that would roll the ${POINTER_LABEL[r.pointer]} forward, not back`);
  return { allowed: true, move: { pointer: r.pointer, from: r.current, to: target }, next: "rolled-back", sentence: `${POINTER_LABEL[r.pointer]}: ${r.current} → ${target} (rollback)` };
}

/** The rollback select: only the candidates the guard allows (never a roll-forward). */
export function rollbackTargets<T extends RollbackCandidate>(r: RollbackFacts, candidates: readonly T[], actor: Actor): T[] {
  return candidates.filter((c) => decideRollback(r, c.digest, { ...actor, scopes: [...actor.scopes, "rollback:execute"] }).allowed);
}

/** A registration advances the latest candidate (never the approved default: another row, another path). */
export function decideLatestCandidate(current: string | null, to: string, toCandidateId: string): Decision {
  const move: PointerMove = { pointer: "latest_candidate", from: current, to, toCandidateId };
  return { allowed: true, move, next: "declared", sentence: `latest candidate: ${current ?? "nothing"} → ${to}` };
}

/** The lineage root (the version in production before any receipt) becomes the approved default only while there is none. */
export function decideRootDefault(current: string | null, to: string): Decision {
  if (current !== null) return no("pointer", "the agent already has an approved default; only a passing receipt moves it");
  return { allowed: true, move: { pointer: "approved_default", from: null, to }, next: "promoted", sentence: `approved default: nothing → ${to} (lineage root)` };
}

/**
 * The pointer writer's last check, at commit: a move happens only as the machine decided it — allowed, on this
 * pointer, from the value the pointer holds now (read under its lock), to this target. Null when it holds.
 */
export function moveHolds(decision: Decision, actual: { pointer: MovablePointer; from: string | null; to: string; toCandidateId: string | null }): string | null {
  if (!decision.allowed) return `the promotion machine refused this move: ${decision.reason}`;
  const m = decision.move;
  if (!m) return "the promotion machine decided that nothing moves";
  if (m.pointer !== actual.pointer) return `the decision moves the ${POINTER_LABEL[m.pointer]}, not the ${POINTER_LABEL[actual.pointer]}`;
  if (m.from !== actual.from) return `the ${POINTER_LABEL[m.pointer]} moved since the decision (it names ${actual.from ?? "nothing"}, the decision started from ${m.from ?? "nothing"})`;
  if (m.to !== actual.to || (m.toCandidateId != null && actual.toCandidateId != null && m.toCandidateId !== actual.toCandidateId)) return `the decision moves to ${m.to}, not ${actual.to}`;
  return null;
}
