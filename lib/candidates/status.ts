// The verdict as people read it. The gate quarantines a candidate whose evidence went stale (nothing stale
// may be approved), but "QUARANTINED" in red reads as "it failed": when the only checks standing in the way
// are stale — their evidence predates a changed evaluator, contract, parent… — the dashboard says STALE,
// in its own colour, and offers the re-run. A failed or unavailable check keeps QUARANTINED.
// After a rollback the candidate reads ROLLED BACK, never its former step (server/promotion decides which applies).
export const CANDIDATE_STATUSES = ["QUARANTINED", "STALE", "READY FOR APPROVAL", "PROMOTE TO BOUNDED CANARY", "PROMOTE TO DEFAULT", "ROLLED BACK"] as const;
export type CandidateStatus = (typeof CANDIDATE_STATUSES)[number];

/** `open`: the checks standing in the way (check 7 waiting only for the approval itself excluded). */
export function candidateStatus(verdict: string, open: readonly { status: string }[], promotion?: { name: string }): CandidateStatus {
  if (promotion?.name === "rolled-back") return "ROLLED BACK";
  if (verdict === "QUARANTINED" && open.length > 0 && open.every((c) => c.status === "stale")) return "STALE";
  return (CANDIDATE_STATUSES as readonly string[]).includes(verdict) ? (verdict as CandidateStatus) : "QUARANTINED";
}

type CheckLike = { id: number; title: string; status?: string; waitingOn?: string; stale?: { was: "pass" | "fail" | "unavailable"; said?: string } };
type ReportLike = {
  blocking: readonly { check: number; scope: string; status: string }[];
  checks: readonly CheckLike[];
  canaryStageChecks: readonly CheckLike[] | null;
};
/** `was`/`said`: a stale check's status and sentence before its evidence went stale (STALE hides nothing). */
export type OpenCheck = { check: number; title: string; status: "fail" | "unavailable" | "stale"; was?: "pass" | "fail" | "unavailable"; said?: string };

/** What stands between the candidate and its step, apart from check 7 waiting for the approval itself. */
/** "check 4 failed (…); check 5 failed (…)": what the stale checks said before they went stale. */
export function staleSaid(open: readonly (Pick<OpenCheck, "check" | "was" | "said"> & { status: string })[]): string {
  return open
    .filter((c) => c.status === "stale" && c.was)
    .map((c) => `check ${c.check} ${c.was === "fail" ? "failed" : c.was === "pass" ? "passed" : "was unavailable"}${c.said ? ` (${c.said})` : ""}`)
    .join("; ");
}

export function openChecks(report: ReportLike): OpenCheck[] {
  const out: OpenCheck[] = [];
  for (const b of report.blocking) {
    const result = (b.scope === "canary-stage" ? report.canaryStageChecks : report.checks)?.find((c) => c.id === b.check);
    if (b.status !== "fail" && b.status !== "unavailable" && b.status !== "stale") continue;
    if (b.check === 7 && b.status === "unavailable" && result?.waitingOn === "approval") continue;
    const before = b.status === "stale" && result?.stale ? { was: result.stale.was, ...(result.stale.said ? { said: result.stale.said } : {}) } : {};
    out.push({ check: b.check, title: result?.title ?? `check ${b.check}`, status: b.status, ...before });
  }
  return out;
}
