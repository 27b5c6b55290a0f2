// Why a protected case counts as regressed, in the gate core's own terms (server/gate/evidence/compare.ts):
// a case regresses when the parent passed and the candidate failed, or when the candidate scored more than
// the policy's protected-score tolerance below the parent. The core records which clause held on each row
// and the tolerance it applied; these sentences only say it.

export type RegressionRow = {
  parent: { score: number; passed: boolean } | null;
  candidate: { score: number; passed: boolean } | null;
  delta: number | null;
  regressed: boolean | null;
  clauses: { stoppedPassing: boolean; droppedBeyondTolerance: boolean } | null;
};

/** Up to four decimals, trailing zeros dropped: 0.06, 0.005, 0. */
export function scoreNumber(x: number): string {
  const s = Math.abs(x).toFixed(4).replace(/\.?0+$/, "");
  return s === "" ? "0" : s;
}

/** The one-line rule under the protected cases card's title, with the tolerance the rows were judged with. */
export function regressionRule(tolerance: number): string {
  const drop = tolerance > 0 ? `more than ${scoreNumber(tolerance)} below the parent (the policy's protected-score tolerance)` : "below the parent by any amount (the policy's protected-score tolerance is 0)";
  return `Regressed = the parent passed and the candidate failed, or the candidate scored ${drop}.`;
}

/** Why this row reads regressed, held or missing. */
export function regressionReason(row: RegressionRow, tolerance: number): string {
  if (row.regressed === null || !row.clauses || row.delta === null) {
    const absent = [!row.parent && "the parent", !row.candidate && "the candidate"].filter(Boolean).join(" and ");
    return `Not compared: ${absent || "one side"} has no score for this case.`;
  }
  const change = row.delta < 0 ? `score fell by ${scoreNumber(row.delta)}` : row.delta > 0 ? `score rose by ${scoreNumber(row.delta)}` : "same score";
  if (!row.regressed) {
    const within = row.delta < 0 ? `, within the tolerance ${scoreNumber(tolerance)}` : "";
    return `Held: ${change}${within}${row.parent?.passed && row.candidate?.passed ? ", still passing" : ""}.`;
  }
  const why = [row.clauses.stoppedPassing && "the parent passed and the candidate failed", row.clauses.droppedBeyondTolerance && `${change}, more than the tolerance ${scoreNumber(tolerance)}`].filter(Boolean);
  return `Regressed: ${why.join("; ")}.`;
}
