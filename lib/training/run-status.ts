// How a run's status reads, in one sentence beside its badge: "stopped by Tess Trainer at …" is not "finished",
// and a run that ended by its family's own rule (early stopping, an accuracy threshold, an exhausted stream)
// says so instead of claiming its whole update budget. Shared by the runs list and the run page (pure).

/** The statusReason the worker records when the family ended before the update budget. */
export const FAMILY_ENDED_REASON = "the family finished early";

export type RunStatusFacts = {
  status: string;
  statusReason: string | null;
  updatesDone: number;
  updatesTotal: number;
  finishedAt: Date | null;
  /** When the run was paused, when known (the pause event). */
  pausedAt?: Date | null;
  /** The stop condition that ended it, when known (the monitor's "ended" condition), e.g. "Early stopping". */
  endedBy?: string | null;
};

export type RunStatusLine = { text: string; at: Date | null; tone: "pass" | "warn" | "fail" | "neutral" };

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const plural = (n: number, word: string) => `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;

/** The sentence (the caller adds " at <time>" when `at` is set); null while the run is queued or running. */
export function runStatusLine(r: RunStatusFacts): RunStatusLine | null {
  switch (r.status) {
    case "stopped":
      // The reason is "stopped by <name>" as changeRunStatus wrote it.
      return { text: r.statusReason?.startsWith("stopped") ? r.statusReason : "stopped", at: r.finishedAt, tone: "warn" };
    case "finished":
      if (r.statusReason === FAMILY_ENDED_REASON) return { text: `finished early after ${plural(r.updatesDone, "update")}: stopped by ${r.endedBy ? lowerFirst(r.endedBy) : "the family's own stop rule"}`, at: r.finishedAt, tone: "pass" };
      return { text: `finished all ${plural(r.updatesDone, "update")}`, at: r.finishedAt, tone: "pass" };
    case "paused": {
      const reason = r.statusReason ?? "";
      if (reason.startsWith("stop condition: ")) return { text: `paused by a stop condition: ${reason.slice("stop condition: ".length)}`, at: r.pausedAt ?? null, tone: "fail" };
      return { text: reason.startsWith("paused") ? reason : "paused", at: r.pausedAt ?? null, tone: "warn" };
    }
    case "failed":
      return { text: r.statusReason ? `failed: ${r.statusReason}` : "failed", at: r.finishedAt, tone: "fail" };
    default:
      return null;
  }
}

/** Retry debt against its budget: over budget is a failure to flag, not a number to read past. */
export function retryDebtStanding(debt: number, budget: number): { over: boolean; text: string } {
  return debt > budget ? { over: true, text: `${debt.toLocaleString("en")} — over budget (${budget.toLocaleString("en")})` } : { over: false, text: `${debt.toLocaleString("en")} of ${budget.toLocaleString("en")}` };
}
