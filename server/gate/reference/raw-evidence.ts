// The *raw* evidence of the spec's four-candidate table, in the store's shapes: rollouts, attempts with their
// reasons, spans; locked-gate scores per case; canary outcomes with how each was verified; the rollback test;
// what each pin resolved to. Nothing here states a check result or a verdict — those come out of the checks.
import type { StoreAttempt, StoreRollout, StoreSpan } from "../evidence/spans";
import type { ResourceRef } from "../receipt/refs";
import type { Stage1 } from "../receipt/stage1";
import type { CanaryOutcome, CanaryRun, CaseResult, LockedGate, RollbackTest, Stage3 } from "../receipt/stage3";
import { prng } from "../prng";
import { EVALUATOR, GENERAL_FAMILIES, HELD_OUT, PARENT, PROTECTED_FAMILIES, T0, TRAINING_DATA, iso, refId, resourceRef, stage1For } from "./common";

export type ReferenceName = "A" | "B" | "C" | "D";

/** What differs between the candidates: operational evidence only (spec table). */
export type CandidateSpec = {
  name: ReferenceName;
  gain: number;
  rollouts: number;
  rolloutsMissingSpans: number;
  unexpectedRetries: number;
  protectedRegressions: number;
  canaryUnverified: number;
  parentResolvable: boolean;
};

const clean = { rollouts: 120, rolloutsMissingSpans: 0, unexpectedRetries: 0, protectedRegressions: 0, canaryUnverified: 0, parentResolvable: true };
export const REFERENCE_SPECS: Record<ReferenceName, CandidateSpec> = {
  C: { ...clean, name: "C", gain: 0.1, protectedRegressions: 3 },
  B: { ...clean, name: "B", gain: 0.08, rolloutsMissingSpans: 37, unexpectedRetries: 14 },
  D: { ...clean, name: "D", gain: 0.07, canaryUnverified: 2, parentResolvable: false },
  A: { ...clean, name: "A", gain: 0.04 },
};

export type RawCandidate = {
  spec: CandidateSpec;
  candidate: ResourceRef;
  stage1: Stage1;
  store: { rollouts: StoreRollout[]; attempts: StoreAttempt[]; spans: StoreSpan[] };
  lockedGate: LockedGate;
  canary: CanaryRun;
  rollbackTest: RollbackTest;
  resolution: Stage3["resolution"];
};

/** `count` indices spread evenly over [0, n). */
const spread = (count: number, n: number) => new Set(Array.from({ length: count }, (_, k) => Math.floor((k * n) / count)));
const FAILURES = [["timeout", "retry_after_timeout"], ["failed", "retry_after_failed"], ["unresponsive", "retry_after_unresponsive"]] as const;

function storeEvidence(spec: CandidateSpec): RawCandidate["store"] {
  const rand = prng(spec.name.charCodeAt(0));
  const missing = spread(spec.rolloutsMissingSpans, spec.rollouts);
  const retried = spread(spec.unexpectedRetries, spec.rollouts);
  const store: RawCandidate["store"] = { rollouts: [], attempts: [], spans: [] };
  for (let i = 0; i < spec.rollouts; i++) {
    const rid = refId("ro", `${spec.name}-${i}`);
    let t = T0 + 3600 + i * 60;
    let seq = 0;
    const span = (aid: string, name: string, attributes: Record<string, unknown>) =>
      store.spans.push({ rollout_id: rid, attempt_id: aid, sequence_id: ++seq, name, attributes, end_time: (t += 1) });
    const attempt = (n: number, status: StoreAttempt["status"], reason: StoreAttempt["reason"]) => {
      const aid = refId("at", `${rid}-${n}`);
      const end_time = status === "succeeded" || status === "failed" ? t + 8 : null;
      store.attempts.push({ rollout_id: rid, attempt_id: aid, sequence_id: n, status, worker_id: `Worker-${i % 4}`, start_time: t, end_time, reason });
      return aid;
    };
    const fullRun = (aid: string, withUpdate: boolean) => {
      span(aid, "openai.chat.completion", { "gen_ai.request.model": "support-policy" });
      span(aid, "execute_tool lookup_ticket", { "gen_ai.tool.name": "lookup_ticket" });
      if (withUpdate) span(aid, "execute_tool update_ticket", { "gen_ai.tool.name": "update_ticket" });
      span(aid, "openai.chat.completion", { "gen_ai.request.model": "support-policy" });
      const reward = Math.min(1, Math.max(0, 0.45 + spec.gain + (0.2 * i) / spec.rollouts + (rand() - 0.5) * 0.2));
      span(aid, "agentlightning.annotation", { "agentlightning.reward.0.name": "primary", "agentlightning.reward.0.value": reward });
    };
    let n = 1;
    if (retried.has(i)) {
      const [status, reason] = FAILURES[i % FAILURES.length]!;
      span(attempt(n++, status, "first"), "openai.chat.completion", { "gen_ai.request.model": "support-policy" });
      fullRun(attempt(n++, "succeeded", reason), !missing.has(i));
    } else if (i % 4 === 3) {
      fullRun(attempt(n++, "succeeded", "first"), true);
      fullRun(attempt(n++, "succeeded", "expected_resample"), !missing.has(i));
    } else {
      fullRun(attempt(n++, "succeeded", "first"), !missing.has(i));
    }
    store.rollouts.push({ rollout_id: rid, mode: i % 5 === 4 ? "val" : "train", status: "succeeded", end_time: t });
  }
  return store;
}

const PARENT_CASES: CaseResult[] = (() => {
  const rand = prng(7);
  const general = GENERAL_FAMILIES.flatMap((family) =>
    Array.from({ length: 15 }, (_, k) => {
      const score = Math.round((0.3 + 0.4 * rand()) * 1000) / 1000;
      return { caseId: `${family}-${k + 1}`, family, score, passed: score >= 0.5 };
    }),
  );
  const protectedCases = PROTECTED_FAMILIES.flatMap((family) => Array.from({ length: 5 }, (_, k) => ({ caseId: `${family}-${k + 1}`, family, score: 1, passed: true })));
  return [...general, ...protectedCases];
})();

/** Candidate scores: general cases carry the whole gain, plus whatever regressed protected cases lost. */
function lockedGate(spec: CandidateSpec, candidate: ResourceRef): LockedGate {
  const generalCount = PARENT_CASES.filter((c) => GENERAL_FAMILIES.includes(c.family)).length;
  const regressed = new Set(PROTECTED_FAMILIES.slice(0, spec.protectedRegressions).map((f) => `${f}-1`));
  const delta = (spec.gain * PARENT_CASES.length + regressed.size) / generalCount;
  const cases = PARENT_CASES.map((c) => {
    if (regressed.has(c.caseId)) return { ...c, score: 0, passed: false };
    if (!GENERAL_FAMILIES.includes(c.family)) return { ...c };
    return { ...c, score: c.score + delta, passed: c.score + delta >= 0.5 };
  });
  return {
    evaluator: EVALUATOR,
    dataset: { id: HELD_OUT.id, digest: HELD_OUT.digest },
    candidate: { resource: candidate, cases },
    parent: { resource: PARENT, cases: PARENT_CASES },
    ranAt: iso(T0 + 6 * 3600),
  };
}

function canary(spec: CandidateSpec): CanaryRun {
  const unverified = spread(spec.canaryUnverified, 20);
  const start = T0 + 6.5 * 3600;
  const outcomes: CanaryOutcome[] = Array.from({ length: 20 }, (_, k) => {
    const ticket = `TCK-${spec.name}${String(k + 1).padStart(3, "0")}`;
    const expected = "status=resolved;reply=sent";
    const verification: CanaryOutcome["verification"] = unverified.has(k)
      ? { method: "unverified", reason: `ticket ${ticket} could not be re-read: helpdesk API answered 503` }
      : k % 7 === 6
        ? { method: "human", reviewerId: "reviewer@example.com", verdict: "pass", confidence: 0.95 }
        : { method: "destination", destination: { kind: "ticket", ref: ticket }, expected, observed: expected, matched: true, checkedAt: iso(start + 60 * k + 50) };
    const sideEffects = [{ kind: "ticket.update", target: ticket, harmful: false }];
    return { taskId: `canary-${k + 1}`, verification, toolsUsed: ["lookup_ticket", "update_ticket"], sideEffects, costUsd: 0.02 };
  });
  return { environment: "support-desk-canary", modelServer: "lightgate-policy-server@1.4.2", window: { start: iso(start), end: iso(start + 40 * 60) }, outcomes };
}

/** A reference candidate's own bytes (its digest is theirs; the store holds them once it is declared). */
export const candidateResources = (name: string) => ({ policy: { resource_type: "policy", weights: `candidate-${name}` } });

export function rawCandidate(spec: CandidateSpec): RawCandidate {
  const candidate = resourceRef(`candidate-${spec.name}`, candidateResources(spec.name));
  const parentResolution = spec.parentResolvable
    ? ({ status: "resolved", digest: PARENT.digest } as const)
    : ({ status: "unresolvable", reason: "not found in the resource registry" } as const);
  return {
    spec,
    candidate,
    stage1: stage1For(spec.name, candidate),
    store: storeEvidence(spec),
    lockedGate: lockedGate(spec, candidate),
    canary: canary(spec),
    rollbackTest: {
      environment: "support-desk-canary",
      parent: PARENT,
      loaded: spec.parentResolvable,
      routedBack: spec.parentResolvable,
      checkedAt: iso(T0 + 7 * 3600),
      detail: spec.parentResolvable ? "parent loaded; 5 of 5 probe requests routed to it" : `${PARENT.resourceId} not found in the resource registry`,
    },
    resolution: {
      candidate: { status: "resolved", digest: candidate.digest },
      parent: parentResolution,
      trainingData: { status: "resolved", digest: TRAINING_DATA.digest },
      heldOutData: { status: "resolved", digest: HELD_OUT.digest },
      evaluator: { status: "resolved", digest: EVALUATOR.digest },
    },
  };
}
