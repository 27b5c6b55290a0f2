// Which rollout served one locked-gate case on each side — the exact parent and the candidate — as the receipt's
// judged evidence records it: the stage 3 the candidate page judges (the latest sealed one), whose case results
// name the rollout a runner ran each case in. Never "the newest rollout of that case": a re-run that has not
// sealed, or a rollout enqueued later for the same case, is not what the verdict rests on.
import type { Database } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import type { ResourceRef } from "@/server/gate/receipt/refs";
import type { LockedGate } from "@/server/gate/receipt/stage3";
import { candidateLabel, type CandidateName } from "./candidate-names";
import { gateReport } from "./report";

export type CaseSide = {
  /** The exact resource this side ran on, as the locked gate pinned it. */
  resource: ResourceRef;
  /** The rollout the sealed evidence names; null when the evidence was sealed without one (imported cases). */
  rolloutId: string | null;
  /** What the gate scored from that rollout; null when this side has no score. */
  judged: { score: number; passed: boolean } | null;
  /** Why this side has no score, in the run's words (no result by the deadline, …); null when it has one. */
  unavailable: string | null;
  /** Set when the rollout changed in the store after the seal: the trace may not be what was judged. */
  lateEvidence: string | null;
};

export type CaseRollouts = {
  candidateId: string;
  agent: string;
  name: CandidateName;
  caseId: string;
  family: string;
  /** As the candidate page's row says it (the policy's protected families, stage 1's declaration). */
  protected: boolean;
  regressed: boolean | null;
  delta: number | null;
  /** The gate run that produced the evidence (absent on evidence sealed before runs recorded it, or imported). */
  gateRun: string | null;
  ranAt: string;
  evaluator: string;
  parent: CaseSide;
  candidate: CaseSide;
};

const notFound = (message: string, field: string) => new DomainError("NOT_FOUND", message, field);

function sideOf(gate: LockedGate, side: "parent" | "candidate", caseId: string, late: ReadonlyMap<string, string>): CaseSide | null {
  const s = gate[side];
  const scored = s.cases.find((c) => c.caseId === caseId);
  const missing = scored ? undefined : s.unavailable?.find((u) => u.caseId === caseId);
  if (!scored && !missing) return null;
  const rolloutId = (scored ?? missing)?.rolloutId ?? null;
  return {
    resource: s.resource,
    rolloutId,
    judged: scored ? { score: scored.score, passed: scored.passed } : null,
    unavailable: missing ? missing.reason : null,
    lateEvidence: rolloutId ? (late.get(rolloutId) ?? null) : null,
  };
}

/** Both sides' rollouts for `caseId` in the candidate's judged locked gate; NOT_FOUND for an unknown candidate or case. */
export async function caseRollouts(database: Database, candidateId: string, caseId: string): Promise<CaseRollouts> {
  const stored = await gateReport(database, candidateId);
  const gate = stored.receipt?.stage3?.lockedGate;
  if (!gate || !stored.report) throw notFound(`candidate ${candidateId} has no judged locked gate`, "candidateId");
  const late = new Map(stored.lateEvidence.map((l) => [l.rolloutId, l.sentence ?? l.change]));
  const parent = sideOf(gate, "parent", caseId, late);
  const candidate = sideOf(gate, "candidate", caseId, late);
  const row = stored.report.evidence.comparison.rows.find((r) => r.caseId === caseId);
  if (!parent && !candidate) throw notFound(`no case ${caseId} in the locked gate of candidate ${candidateId}`, "caseId");
  // A side the run never asked for (an invalid gate): the page still shows the pinned resource, with no rollout.
  const none = (resource: ResourceRef): CaseSide => ({ resource, rolloutId: null, judged: null, unavailable: "the gate recorded no result for this case on this side", lateEvidence: null });
  const family = row?.family ?? [...gate.candidate.cases, ...gate.parent.cases, ...(gate.candidate.unavailable ?? []), ...(gate.parent.unavailable ?? [])].find((c) => c.caseId === caseId)!.family;
  const e = gate.evaluator;
  return {
    candidateId,
    agent: stored.candidate.agent,
    name: candidateLabel(stored.candidate),
    caseId,
    family,
    protected: row?.protected ?? false,
    regressed: row?.regressed ?? null,
    delta: row?.delta ?? null,
    gateRun: stored.receipt?.stage3?.producedBy?.gateRun ?? null,
    ranAt: gate.ranAt,
    evaluator: `${e.id}@${e.version}`,
    parent: parent ?? none(gate.parent.resource),
    candidate: candidate ?? none(gate.candidate.resource),
  };
}
