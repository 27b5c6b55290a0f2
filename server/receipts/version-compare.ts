// Two versions of one agent side by side, from what the gate already said about each (pure: no database).
// Case by case only when both were scored on the same held-out set by the same evaluator; otherwise the page
// says plainly that they sat different exams, and each side's mean and gain hold only against its own parent.
import { diffJson, type DiffEntry } from "@/lib/json/diff";
import type { CandidateStatus } from "@/lib/candidates/status";
import type { CheckStatus } from "@/server/gate/checks/types";
import type { GateReport } from "@/server/gate/gate";
import type { EvaluatorRef, SnapshotRef } from "@/server/gate/receipt/refs";

/** The cases listed where the two differ most (the page's table), and the config keys listed at most. */
export const MAX_CASE_DIFFERENCES = 12;
export const MAX_CONFIG_ENTRIES = 200;

/** Which version a side is and how people read its verdict (the candidates list's status, the machine's state). */
type SideIdentity = {
  id: string;
  name: string;
  label: string | null;
  parent: { resourcesId: string; version: number };
  status: CandidateStatus | null;
  promotion: string | null;
};

export type VersionSide = SideIdentity & {
  checks: { id: number; title: string; status: CheckStatus }[];
  /** What the locked gate ran on and said: null when no locked-gate run was sealed. */
  lockedGate: { dataset: SnapshotRef; evaluator: string; status: "available" | "unavailable" | "invalid"; cases: number; mean: number | null; parentMean: number | null } | null;
  gain: number | null;
  coverage: { ratio: number | null; fullyCovered: number; considered: number } | null;
  retryDebt: { debt: number; budget: number; status: "available" | "unavailable" } | null;
  protectedRegressions: { total: number; status: "available" | "unavailable" | "invalid"; cases: string[] } | null;
};

export type CaseDifference = { caseId: string; family: string; protected: boolean; a: { score: number; passed: boolean }; b: { score: number; passed: boolean }; delta: number };

export type CaseComparison =
  | { comparable: true; sentence: string; compared: number; differing: number; flipped: number; top: CaseDifference[] }
  | { comparable: false; sentence: string };

export type ConfigDifference = { entries: DiffEntry[]; changed: number; unchanged: number; missing: string[] };

/** What the compare page needs of one version: its summary's judgement and, when judged, the gate's report and locked-gate run. */
export type SideInput = SideIdentity & {
  report: GateReport | null;
  lockedGate: { dataset: SnapshotRef; evaluator: EvaluatorRef } | null;
};

const evaluatorName = (e: EvaluatorRef) => `${e.id}@${e.version}`;

export function versionSide(input: SideInput): VersionSide {
  const { report, lockedGate } = input;
  const evidence = report?.evidence;
  const comparison = evidence?.comparison;
  return {
    id: input.id,
    name: input.name,
    label: input.label,
    parent: input.parent,
    status: input.status,
    promotion: input.promotion,
    checks: report?.checks.map((c) => ({ id: c.id, title: c.title, status: c.status })) ?? [],
    lockedGate:
      lockedGate && comparison
        ? { dataset: { id: lockedGate.dataset.id, digest: lockedGate.dataset.digest }, evaluator: evaluatorName(lockedGate.evaluator), status: comparison.status, cases: comparison.cases, mean: comparison.candidateMean, parentMean: comparison.parentMean }
        : null,
    gain: report?.scoreGain ?? null,
    coverage: evidence ? { ratio: evidence.coverage.ratio, fullyCovered: evidence.coverage.fullyCovered, considered: evidence.coverage.considered } : null,
    retryDebt: evidence ? { debt: evidence.retryDebt.debt, budget: evidence.retryDebt.budget, status: evidence.retryDebt.status } : null,
    protectedRegressions: evidence
      ? { total: evidence.protectedCases.totalRegressions, status: evidence.protectedCases.status, cases: evidence.protectedCases.families.flatMap((f) => f.regressions) }
      : null,
  };
}

type Scored = { family: string; protected: boolean; score: number; passed: boolean };

/** Each case the version itself was scored on (its side of the locked gate), by case id. */
function scoredCases(report: GateReport | null): Map<string, Scored> {
  const out = new Map<string, Scored>();
  for (const r of report?.evidence.comparison.rows ?? []) if (r.candidate) out.set(r.caseId, { family: r.family, protected: r.protected, score: r.candidate.score, passed: r.candidate.passed });
  return out;
}

/** Where the two versions differ most, case by case — or why they cannot be compared that way. */
export function compareCases(a: SideInput, b: SideInput): CaseComparison {
  const missing = [a, b].filter((s) => !s.lockedGate || !s.report);
  if (missing.length) return { comparable: false, sentence: `${missing.map((s) => s.name).join(" and ")} ${missing.length === 2 ? "have" : "has"} no locked-gate result yet: nothing to compare case by case.` };
  const [ga, gb] = [a.lockedGate!, b.lockedGate!];
  if (ga.dataset.digest !== gb.dataset.digest) {
    return {
      comparable: false,
      sentence: `They were judged on different exams: ${a.name} on held-out set ${ga.dataset.id}, ${b.name} on ${gb.dataset.id}. Each one's mean and gain hold against its own parent on its own exam; the cases cannot be compared one by one.`,
    };
  }
  if (evaluatorName(ga.evaluator) !== evaluatorName(gb.evaluator) || ga.evaluator.digest !== gb.evaluator.digest) {
    return {
      comparable: false,
      sentence: `Both sat held-out set ${ga.dataset.id}, but were scored by different evaluators (${evaluatorName(ga.evaluator)} and ${evaluatorName(gb.evaluator)}): their per-case scores are not on one scale, so they are not compared case by case.`,
    };
  }
  const sa = scoredCases(a.report);
  const sb = scoredCases(b.report);
  const rows: CaseDifference[] = [];
  for (const [caseId, x] of sa) {
    const y = sb.get(caseId);
    if (!y) continue;
    rows.push({ caseId, family: x.family, protected: x.protected || y.protected, a: { score: x.score, passed: x.passed }, b: { score: y.score, passed: y.passed }, delta: y.score - x.score });
  }
  const differs = (r: CaseDifference) => r.delta !== 0 || r.a.passed !== r.b.passed;
  const differing = rows.filter(differs);
  const flipped = rows.filter((r) => r.a.passed !== r.b.passed).length;
  // Largest score gap first; a pass that flipped outranks an equal gap that did not; then by case id, for a stable page.
  const top = differing.sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || Number(y.a.passed !== y.b.passed) - Number(x.a.passed !== x.b.passed) || x.caseId.localeCompare(y.caseId)).slice(0, MAX_CASE_DIFFERENCES);
  return {
    comparable: true,
    sentence: `Both were judged on held-out set ${ga.dataset.id} by ${evaluatorName(ga.evaluator)}: ${rows.length} cases scored on both, ${differing.length} differ${flipped ? `, ${flipped} of them pass on one side only` : ""}.`,
    compared: rows.length,
    differing: differing.length,
    flipped,
    top,
  };
}

/** What a version is made of, as compared: the algorithm and its config from stage 1, and the resources' bytes. */
export type VersionMaterial = { name: string; algorithm: unknown; resources: unknown | null };

/** The keys that differ between two versions' config and resources (secret-like values masked, lib/json/diff). */
export function configDifference(a: VersionMaterial, b: VersionMaterial): ConfigDifference {
  const missing = [a, b].filter((m) => m.resources === null).map((m) => `the store holds no bytes of ${m.name}: only its algorithm and config are compared`);
  // One side's bytes missing: comparing them with nothing would list every key of the other as a difference.
  const both = a.resources !== null && b.resources !== null;
  const diff = diffJson({ algorithm: a.algorithm, ...(both ? { resources: a.resources } : {}) }, { algorithm: b.algorithm, ...(both ? { resources: b.resources } : {}) });
  const entries = summarizeNumberArrays(diff.entries);
  return { entries: entries.slice(0, MAX_CONFIG_ENTRIES), changed: entries.length, unchanged: diff.unchanged, missing };
}

/** Above this many changed numbers under one array, the array is one row (a policy's weights are hundreds). */
export const NUMBER_ARRAY_ROW = 8;

/**
 * A model's weights change in every position between two versions; listed one index per row they bury every
 * other difference. The changed numbers of one array become one row saying how many changed and by how much.
 */
function summarizeNumberArrays(entries: DiffEntry[]): DiffEntry[] {
  const groups = new Map<string, DiffEntry[]>();
  for (const e of entries) {
    const m = /^(.*)\[\d+\]$/.exec(e.path);
    if (!m || e.change !== "changed" || e.secret || !isNumberText(e.before) || !isNumberText(e.after)) continue;
    groups.set(m[1]!, [...(groups.get(m[1]!) ?? []), e]);
  }
  const folded = new Map([...groups].filter(([, g]) => g.length > NUMBER_ARRAY_ROW));
  if (folded.size === 0) return entries;
  const out: DiffEntry[] = [];
  const done = new Set<string>();
  for (const e of entries) {
    const base = /^(.*)\[\d+\]$/.exec(e.path)?.[1];
    const group = base !== undefined ? folded.get(base) : undefined;
    if (!group || !group.includes(e)) {
      out.push(e);
      continue;
    }
    if (done.has(base!)) continue;
    done.add(base!);
    const deltas = group.map((x) => Math.abs(Number(x.after) - Number(x.before)));
    const max = Math.max(...deltas);
    const mean = deltas.reduce((sum, d) => sum + d, 0) / deltas.length;
    out.push({ path: `${base}[…]`, change: "changed", before: `${group.length} numbers`, after: `${group.length} changed · max |Δ| ${max.toPrecision(3)} · mean |Δ| ${mean.toPrecision(3)}`, secret: false });
  }
  return out;
}

const isNumberText = (t: string | undefined) => t !== undefined && t.trim() !== "" && Number.isFinite(Number(t));
