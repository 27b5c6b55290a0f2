// The candidate page's evidence cards put the exact parent beside the candidate: span coverage by declared
// family and retry debt by reason, one column each. The parent's figures come from its own receipt; when it
// has none (or its receipt is not judged) a card says so and shows no parent figure — never an invented one.

/** What one side's coverage summary says (server/gate/evidence/coverage.ts, read through the router). */
export type CoverageSide = {
  status: "available" | "unavailable";
  expectedFamilies: readonly string[];
  considered: number;
  fullyCovered: number;
  ratio: number | null;
  missingByFamily: Readonly<Record<string, number>>;
};

/** What one side's retry-debt summary says (server/gate/evidence/retry-debt.ts). */
export type RetrySide = {
  status: "available" | "unavailable";
  attempts: number;
  byReason: Readonly<Record<string, number>>;
  debt: number;
  budget: number;
};

/** A figure, or why there is none: the side has no judged receipt, nothing to judge, or did not declare it. */
export type Cell = { value: number } | { missing: "no receipt" | "unavailable" | "not declared" };

export const cellValue = (c: Cell): number | null => ("value" in c ? c.value : null);
export const cellText = (c: Cell): string => ("value" in c ? String(c.value) : c.missing === "no receipt" ? "—" : c.missing);

/** The parent as the candidate page knows it: its own summary when it is a candidate, its evidence when judged. */
export type ParentFacts = { candidate: { receiptIntact: boolean } | null; evidence: unknown };

/** Why the parent has no figures to show, in one sentence; null when it has them. */
export function parentAbsence(parent: ParentFacts): string | null {
  if (parent.evidence) return null;
  if (!parent.candidate) return "The parent has no receipt: nothing to compare.";
  if (!parent.candidate.receiptIntact) return "The parent's receipt fails verification: nothing to compare.";
  return "The parent's receipt has no judged stages yet: nothing to compare.";
}

const delta = (parent: Cell, candidate: Cell) => {
  const p = cellValue(parent);
  const c = cellValue(candidate);
  return p === null || c === null ? null : c - p;
};

export type CoverageRow = { family: string; parent: Cell; candidate: Cell; delta: number | null };
export type CoverageRatio = { fullyCovered: number; considered: number; ratio: number } | null;

function missingCell(side: CoverageSide | null, family: string): Cell {
  if (!side) return { missing: "no receipt" };
  if (!side.expectedFamilies.includes(family)) return { missing: "not declared" };
  if (side.status !== "available") return { missing: "unavailable" };
  return { value: Object.hasOwn(side.missingByFamily, family) ? side.missingByFamily[family]! : 0 };
}

const ratioOf = (side: CoverageSide | null): CoverageRatio =>
  side && side.status === "available" && side.ratio !== null ? { fullyCovered: side.fullyCovered, considered: side.considered, ratio: side.ratio } : null;

/**
 * Rollouts missing each declared family, parent and candidate: the candidate's families first, then any only
 * the parent declared. `ratioDelta`: candidate's fully-covered share minus the parent's (both must be known).
 */
export function compareCoverage(candidate: CoverageSide, parent: CoverageSide | null) {
  const families = [...candidate.expectedFamilies, ...(parent?.expectedFamilies ?? []).filter((f) => !candidate.expectedFamilies.includes(f))];
  const rows: CoverageRow[] = families.map((family) => {
    const p = missingCell(parent, family);
    const c = missingCell(candidate, family);
    return { family, parent: p, candidate: c, delta: delta(p, c) };
  });
  const ratios = { parent: ratioOf(parent), candidate: ratioOf(candidate) };
  const ratioDelta = ratios.parent && ratios.candidate ? ratios.candidate.ratio - ratios.parent.ratio : null;
  return { rows, ratios, ratioDelta };
}

export const REASON_LABEL: Readonly<Record<string, string>> = {
  first: "first attempt",
  expected_resample: "planned resample",
  retry_after_failed: "retry after failure",
  retry_after_timeout: "retry after timeout",
  retry_after_unresponsive: "retry after unresponsive",
  manual: "manual retry",
  unknown: "reason not recorded",
};
/** Reasons that never count as debt by themselves (planned resamples beyond the plan do, in the debt figure). */
const EXPECTED: ReadonlySet<string> = new Set(["first", "expected_resample"]);

export type RetryRow = { reason: string; label: string; expected: boolean; parent: Cell; candidate: Cell };

const count = (side: RetrySide | null, reason: string): Cell => (side ? { value: Object.hasOwn(side.byReason, reason) ? side.byReason[reason]! : 0 } : { missing: "no receipt" });

/** Attempts by the reason each started, parent and candidate; a reason neither side used is left out. */
export function compareRetries(candidate: RetrySide, parent: RetrySide | null): RetryRow[] {
  const known = Object.keys(REASON_LABEL);
  const seen = new Set([...Object.keys(candidate.byReason), ...Object.keys(parent?.byReason ?? {})]);
  const reasons = [...known.filter((r) => seen.has(r)), ...[...seen].filter((r) => !known.includes(r)).sort()];
  return reasons
    .map((reason) => ({ reason, label: REASON_LABEL[reason] ?? reason, expected: EXPECTED.has(reason), parent: count(parent, reason), candidate: count(candidate, reason) }))
    .filter((r) => (cellValue(r.parent) ?? 0) > 0 || (cellValue(r.candidate) ?? 0) > 0);
}

export type DebtStanding = { tone: "pass" | "fail" | "unavailable"; text: string; overBy: number };

/** Debt against the budget: over it is said as "over budget by N" whatever else is unknown (unknown reasons only add). */
export function debtStanding(side: RetrySide): DebtStanding {
  const overBy = Math.max(0, side.debt - side.budget);
  if (overBy > 0) return { tone: "fail", text: `over budget by ${overBy}`, overBy };
  if (side.status !== "available") {
    const unknown = Object.hasOwn(side.byReason, "unknown") ? side.byReason.unknown! : 0;
    return { tone: "unavailable", text: side.attempts === 0 ? "unavailable: no attempts" : `unavailable: ${unknown} ${unknown === 1 ? "retry has" : "retries have"} no recorded reason`, overBy };
  }
  return { tone: "pass", text: "within budget", overBy };
}
