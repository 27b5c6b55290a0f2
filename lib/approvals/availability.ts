// Whether the approval button may be pressed, and the reason when not. Shared by the server (which refuses
// exactly these cases again, inside the transaction) and the UI (which only shows what the server decides).
import { grantsAllow, type RoleGrant, type Scope } from "@/lib/auth/scopes";

export type ApprovalStepName = "canary" | "default";
export const STEP_SCOPES: Record<ApprovalStepName, Scope> = { canary: "approval:canary", default: "approval:default" };
export const STEP_LABELS: Record<ApprovalStepName, string> = { canary: "bounded canary", default: "approved default" };
/** The pointer each step moves. */
export const STEP_POINTERS: Record<ApprovalStepName, "canary" | "approved_default"> = { canary: "canary", default: "approved_default" };

export type StaleCheckSummary = { check: number; sentences: string[] };

export type ApprovalSituation = {
  agent: string;
  verdict: string;
  /** The step the verdict is about. */
  verdictStep: ApprovalStepName;
  stale: readonly StaleCheckSummary[];
  /** Identities that may never approve this candidate: who declared it, started its training, owns its key. */
  excluded: readonly string[];
  /** The step is already decided on this receipt (approved or rejected). */
  decided: "approve" | "reject" | null;
};

export type Viewer = { id: string; grants: readonly RoleGrant[] } | null;

export type Availability = { enabled: true; step: ApprovalStepName; scope: Scope } | { enabled: false; step: ApprovalStepName; scope: Scope; reason: string };

const list = (xs: readonly number[]) => (xs.length === 1 ? `check ${xs[0]}` : `checks ${xs.slice(0, -1).join(", ")} and ${xs.at(-1)}`);

/** "checks 1, 4 and 5 are stale (evaluator changed from … to …)": checks that went stale for the same reasons together. */
export function staleSentence(stale: readonly StaleCheckSummary[]): string {
  const groups = new Map<string, number[]>();
  for (const s of stale) {
    const why = s.sentences.join("; ");
    groups.set(why, [...(groups.get(why) ?? []), s.check]);
  }
  return [...groups].map(([why, checks]) => `${list(checks)} ${checks.length === 1 ? "is" : "are"} stale (${why})`).join("; ");
}

/** Can `viewer` approve the step the verdict is waiting for? */
export function approvalAvailability(s: ApprovalSituation, viewer: Viewer): Availability {
  const step = s.verdictStep;
  const scope = STEP_SCOPES[step];
  const no = (reason: string): Availability => ({ enabled: false, step, scope, reason });
  if (!viewer) return no("sign in to approve");
  if (!grantsAllow(viewer.grants, scope, s.agent)) return no(`your roles do not hold "${scope}" for ${s.agent}`);
  if (s.excluded.includes(viewer.id)) return no("you started this candidate's training (or own its key): separation of duties forbids approving it");
  if (s.stale.length) return no(`Evidence went stale: ${staleSentence(s.stale)}. Re-run the gate before approving.`);
  if (s.decided === "approve") return no(`the ${STEP_LABELS[step]} step of this receipt is already approved`);
  if (s.decided === "reject") return no(`the ${STEP_LABELS[step]} step of this receipt was rejected`);
  if (s.verdict !== "READY FOR APPROVAL") return no(`the verdict is ${s.verdict}; only READY FOR APPROVAL can be approved`);
  return { enabled: true, step, scope };
}
