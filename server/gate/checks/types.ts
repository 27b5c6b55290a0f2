// A check's result: one of four statuses, the evidence that decided it, one human sentence, and the versions
// it was computed against (for the stale-evidence rule).
import type { JsonObject } from "../digest";
import type { GateEvidence } from "../evidence/derive";
import type { ParentLoad } from "../parent-load";
import type { GatePolicy } from "../policy";
import type { SignedDecisions } from "../receipt/signed-decisions";
import type { Receipt } from "../receipt/view";
import type { CheckId, VersionKey, VersionSet } from "../versions";

export type CheckStatus = "pass" | "fail" | "unavailable" | "stale";
export type DecidedStatus = Exclude<CheckStatus, "stale">;

export type CheckOutcome = {
  status: DecidedStatus;
  explanation: string;
  evidence: JsonObject;
  /** Set on check 7 when everything holds except that no authorized approval was recorded yet. */
  waitingOn?: "approval";
};

export type StaleReason =
  | { input: VersionKey; recorded: string; current: string; sentence: string }
  | { input: "age"; ageSeconds: number; maxAgeSeconds: number; sentence: string }
  | { input: "late-evidence"; rollouts: string[]; sentence: string };

export type CheckResult = Omit<CheckOutcome, "status"> & {
  id: CheckId;
  title: string;
  status: CheckStatus;
  /** When the evidence behind this result was computed, and against which versions. */
  computedAt: string | null;
  versions: Partial<VersionSet>;
  /** What the check said before its evidence went stale (`said`: its sentence then). */
  stale?: { was: DecidedStatus; said?: string; reasons: StaleReason[] };
};

/** `parentLoad`: whether the exact parent loads now, as the database edge found it (absent: not looked up, e.g. offline). */
export type CheckInput = { receipt: Receipt; evidence: GateEvidence; policy: GatePolicy; now: Date; decisions: SignedDecisions; parentLoad?: ParentLoad };

export const CHECK_TITLES: Record<CheckId, string> = {
  1: "Resource, parent, snapshots and evaluator pinned",
  2: "Full expected-span coverage",
  3: "Unexpected retry debt within budget",
  4: "Beats its exact parent on the locked gate",
  5: "No protected case regressed",
  6: "Bounded canary verified, no harmful side effect",
  7: "Rollback tested and step approved",
};

export const pass = (explanation: string, evidence: JsonObject): CheckOutcome => ({ status: "pass", explanation, evidence });
export const fail = (explanation: string, evidence: JsonObject): CheckOutcome => ({ status: "fail", explanation, evidence });
export const unavailable = (explanation: string, evidence: JsonObject): CheckOutcome => ({ status: "unavailable", explanation, evidence });

export const fmt = (x: number, digits = 3) => x.toFixed(digits);
export const signed = (x: number, digits = 3) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(digits)}`;
export function plural(n: number, one: string, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}
