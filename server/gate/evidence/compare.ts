// Locked-gate and protected-case comparisons, case by case, candidate against its exact parent.
import type { ResourceRef } from "../receipt/refs";
import type { Stage1 } from "../receipt/stage1";
import type { CaseResult, LockedGate } from "../receipt/stage3";
import { evaluatorKey } from "../versions";

type Side = { score: number; passed: boolean };
export type CaseRow = {
  caseId: string;
  family: string;
  protected: boolean;
  parent: Side | null;
  candidate: Side | null;
  delta: number | null;
  /** Stopped passing, or lost more score than the tolerance; null when one side is missing. */
  regressed: boolean | null;
  /** Which clause of that rule held, so the page can say why a row regressed (null when one side is missing). */
  clauses: { stoppedPassing: boolean; droppedBeyondTolerance: boolean } | null;
};

export type GateComparison = {
  /** invalid: the run was not against the pinned evaluator, held-out snapshot, exact parent or candidate. */
  status: "available" | "unavailable" | "invalid";
  problems: string[];
  cases: number;
  candidateMean: number | null;
  parentMean: number | null;
  gain: number | null;
  /** The policy's tolerance the rows' `regressed` was decided with (a drop of more than this regresses). */
  protectedScoreTolerance: number;
  rows: CaseRow[];
};

export type ProtectedFamilyResult = {
  family: string;
  maxRegressions: number;
  cases: number;
  regressions: string[];
  status: "held" | "regressed" | "unavailable";
};
export type ProtectedComparison = {
  status: "available" | "unavailable" | "invalid";
  families: ProtectedFamilyResult[];
  totalRegressions: number;
};

/**
 * `producedWith`: the evaluator the stage 3 records as having produced its evidence (`versions.evaluator`, what
 * freshness compares with the one in force). A re-run judges with the evaluator in force at the re-run, so that
 * may differ from stage 1's declaration — but never from the evaluator the cases were scored with.
 */
function pinProblems(stage1: Stage1, gate: LockedGate, candidate: ResourceRef | null, producedWith: string): string[] {
  const problems: string[] = [];
  const e = gate.evaluator;
  if (evaluatorKey(e) !== producedWith) {
    problems.push(`ran with evaluator ${e.id}@${e.version}, but its evidence is recorded as produced by ${producedWith.split("#")[0]}`);
  }
  if (gate.dataset.digest !== stage1.data.heldOut.digest) problems.push(`ran on snapshot ${gate.dataset.id}, not the pinned held-out ${stage1.data.heldOut.id}`);
  if (gate.parent.resource.digest !== stage1.parent.digest) {
    problems.push(`compared against ${gate.parent.resource.resourceId}, not the exact parent ${stage1.parent.resourceId}`);
  }
  if (candidate && gate.candidate.resource.digest !== candidate.digest) problems.push(`scored ${gate.candidate.resource.resourceId}, not the candidate's pinned digest`);
  return problems;
}

function index(cases: readonly CaseResult[], side: string, problems: string[]): Map<string, CaseResult> {
  const map = new Map<string, CaseResult>();
  for (const c of cases) {
    if (map.has(c.caseId)) problems.push(`case ${c.caseId} appears twice on the ${side} side`);
    map.set(c.caseId, c);
  }
  return map;
}

/** Why the cases the run left unscored are unavailable, the commonest reasons first (at most two named). */
function unavailableReasons(gate: LockedGate): string[] {
  const counts = new Map<string, number>();
  for (const u of [...(gate.candidate.unavailable ?? []), ...(gate.parent.unavailable ?? [])]) counts.set(u.reason.slice(0, 300), (counts.get(u.reason.slice(0, 300)) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const named = ranked.slice(0, 2).map(([reason, n]) => `${n} unavailable: ${reason}`);
  const rest = ranked.slice(2).reduce((s, [, n]) => s + n, 0);
  return rest ? [...named, `${rest} unavailable for other reasons`] : named;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);

export function compareLockedGate(
  stage1: Stage1,
  gate: LockedGate | undefined,
  candidate: ResourceRef | null,
  opts: { protectedFamilies: ReadonlySet<string>; protectedScoreTolerance: number; producedWith?: string },
): GateComparison {
  const tolerance = opts.protectedScoreTolerance;
  if (!gate) return { status: "unavailable", problems: ["no locked-gate run recorded"], cases: 0, candidateMean: null, parentMean: null, gain: null, protectedScoreTolerance: tolerance, rows: [] };
  const problems = pinProblems(stage1, gate, candidate, opts.producedWith ?? evaluatorKey(stage1.evaluator));
  const cand = index(gate.candidate.cases, "candidate", problems);
  const par = index(gate.parent.cases, "parent", problems);
  const ids = [...new Set([...par.keys(), ...cand.keys()])].sort();
  const rows: CaseRow[] = ids.map((caseId) => {
    const c = cand.get(caseId);
    const p = par.get(caseId);
    const family = (c ?? p)!.family;
    const clauses = c && p ? { stoppedPassing: p.passed && !c.passed, droppedBeyondTolerance: c.score < p.score - tolerance } : null;
    return {
      caseId,
      family,
      protected: opts.protectedFamilies.has(family),
      parent: p ? { score: p.score, passed: p.passed } : null,
      candidate: c ? { score: c.score, passed: c.passed } : null,
      delta: c && p ? c.score - p.score : null,
      regressed: clauses ? clauses.stoppedPassing || clauses.droppedBeyondTolerance : null,
      clauses,
    };
  });
  const complete = rows.filter((r) => r.delta !== null);
  const expected = stage1.data.heldOut.caseCount;
  if (rows.length > expected) problems.push(`scored ${rows.length} cases, but the locked set holds ${expected}`);
  const status = problems.length ? "invalid" : complete.length < expected ? "unavailable" : "available";
  if (complete.length < expected) problems.push(`only ${complete.length} of ${expected} locked cases were scored on both sides`, ...unavailableReasons(gate));
  const candidateMean = status === "available" ? mean(complete.map((r) => r.candidate!.score)) : null;
  const parentMean = status === "available" ? mean(complete.map((r) => r.parent!.score)) : null;
  return {
    status,
    problems,
    cases: complete.length,
    candidateMean,
    parentMean,
    gain: candidateMean !== null && parentMean !== null ? candidateMean - parentMean : null,
    protectedScoreTolerance: tolerance,
    rows,
  };
}

export function compareProtected(comparison: GateComparison, families: readonly { family: string; maxRegressions: number }[]): ProtectedComparison {
  const results: ProtectedFamilyResult[] = families.map(({ family, maxRegressions }) => {
    const rows = comparison.rows.filter((r) => r.family === family);
    const regressions = rows.filter((r) => r.regressed === true).map((r) => r.caseId);
    const incomplete = rows.length === 0 || rows.some((r) => r.regressed === null);
    const status = regressions.length > maxRegressions ? "regressed" : incomplete ? "unavailable" : "held";
    return { family, maxRegressions, cases: rows.length, regressions, status };
  });
  const incomplete = comparison.status === "unavailable" || families.length === 0 || results.some((f) => f.status === "unavailable");
  const status = comparison.status === "invalid" ? "invalid" : incomplete ? "unavailable" : "available";
  return { status, families: results, totalRegressions: results.reduce((s, f) => s + f.regressions.length, 0) };
}
