// Whether the approval button may be pressed, and the reason when not. Shared by the server (which refuses
// exactly these cases again, inside the transaction) and the UI (which only shows what the server decides).
// The reason names the first real blocker, in this order: checks that do not pass (failed, unavailable,
// stale), a promotion the machine has closed (rolled back, aborted, promoted), a decision already taken on the step, the viewer's scope, separation of duties, no passkey.
import { needsScope } from "@/lib/auth/not-allowed";
import { grantsAllow, type RoleGrant, type Scope } from "@/lib/auth/scopes";
import type { OpenCheck } from "@/lib/candidates/status";

export type ApprovalStepName = "canary" | "default";
export const STEP_SCOPES: Record<ApprovalStepName, Scope> = { canary: "approval:canary", default: "approval:default" };
const STEP_ACTIONS: Record<ApprovalStepName, string> = { canary: "Approving the bounded canary step", default: "Approving the approved-default step" };
export const STEP_LABELS: Record<ApprovalStepName, string> = { canary: "bounded canary", default: "approved default" };
/** The pointer each step moves. */
export const STEP_POINTERS: Record<ApprovalStepName, "canary" | "approved_default"> = { canary: "canary", default: "approved_default" };

export type StaleCheckSummary = { check: number; sentences: string[] };
export type StepDecision = { decision: "approve" | "reject"; by: string; at: string };

export type ApprovalSituation = {
  agent: string;
  verdict: string;
  /** The step the verdict is about. */
  verdictStep: ApprovalStepName;
  open: readonly OpenCheck[];
  stale: readonly StaleCheckSummary[];
  /** Identities that may never approve this candidate: who declared it, started its training, owns its key. */
  excluded: readonly string[];
  /** Default step: who approved the canary step in this promotion cycle (another person must make it the default). */
  canaryApprovers?: readonly string[];
  /** The promotion state machine's refusal of the pointer move itself (e.g. "the canary already names this candidate"). */
  pointer?: string | null;
  /** The decision already taken on this step of this receipt, with who took it and when. */
  decided: StepDecision | null;
  /** The promotion machine's state when no step is open in it (rolled back, promoted, superseded, aborted): its sentence says what comes next. */
  closed?: { state: string; next: string } | null;
};

/** People sign with a passkey (and need one registered); release bots sign with their registered key. */
export type Viewer = { id: string; grants: readonly RoleGrant[]; kind: "user" | "service"; hasPasskey: boolean } | null;

export type BlockerCode = "signed-out" | "checks" | "state" | "decided" | "verdict" | "pointer" | "scope" | "duties" | "passkey";
export type Availability =
  | { enabled: true; step: ApprovalStepName; scope: Scope }
  | { enabled: false; step: ApprovalStepName; scope: Scope; code: BlockerCode; reason: string };

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

/** "check 5 (No protected case regressed) failed; check 1 (…) is unavailable". */
function notPassing(open: readonly OpenCheck[]): string {
  return open.map((c) => `check ${c.check} (${c.title}) ${c.status === "fail" ? "failed" : "is unavailable"}`).join("; ");
}

/** The checks' share of the reason: failures first (a re-run alone cannot clear them), then stale evidence. */
export function checksReason(s: Pick<ApprovalSituation, "open" | "stale">): string | null {
  const decided = s.open.filter((c) => c.status !== "stale");
  const stale = s.stale.filter((x) => s.open.some((c) => c.check === x.check && c.status === "stale"));
  if (decided.length && stale.length) return `${notPassing(decided)}: the candidate stays quarantined. Also ${staleSentence(stale)}.`;
  if (decided.length) return `${notPassing(decided)}: the candidate stays quarantined until ${decided.length === 1 ? "it passes" : "they pass"}.`;
  if (s.open.length) return `Evidence went stale: ${staleSentence(stale.length ? stale : s.open.map((c) => ({ check: c.check, sentences: ["re-run needed"] })))}. Re-run the gate before approving.`;
  return null;
}

/** Can `viewer` approve the step the verdict is waiting for? */
export function approvalAvailability(s: ApprovalSituation, viewer: Viewer): Availability {
  const step = s.verdictStep;
  const scope = STEP_SCOPES[step];
  const no = (code: BlockerCode, reason: string): Availability => ({ enabled: false, step, scope, code, reason });
  if (!viewer) return no("signed-out", "sign in to approve");
  // A rejection fails check 7 itself: the rejection, not "check 7 failed", is then what blocks.
  const checks = checksReason(s.decided?.decision === "reject" ? { ...s, open: s.open.filter((c) => c.check !== 7) } : s);
  if (checks) return no("checks", checks);
  // After a rollback (or an abort, or once promoted) the decision taken on this receipt is history: the machine says why nothing is open.
  if (s.closed) return no("state", s.closed.next);
  if (s.decided) return no("decided", `the ${STEP_LABELS[step]} step of this receipt was ${s.decided.decision === "approve" ? "approved" : "rejected"} by ${s.decided.by} at ${s.decided.at}`);
  if (s.verdict !== "READY FOR APPROVAL") return no("verdict", `the verdict is ${s.verdict}; only READY FOR APPROVAL can be approved`);
  if (s.pointer) return no("pointer", s.pointer);
  if (!grantsAllow(viewer.grants, scope, s.agent)) return no("scope", needsScope(STEP_ACTIONS[step], scope, s.agent));
  if (step === "default" && s.canaryApprovers?.includes(viewer.id)) return no("duties", "you approved the canary step of this cycle: another person must approve the default step");
  if (s.excluded.includes(viewer.id)) return no("duties", "you started this candidate's training (or own its key): separation of duties forbids approving it");
  if (viewer.kind === "user" && !viewer.hasPasskey) return no("passkey", "you have no passkey to sign with: register one under Settings → Security");
  return { enabled: true, step, scope };
}
