// Verdicts come only out of the checks. None of them means "safe": the strongest says the approved default
// may move, after the bounded canary's own receipt passed.
import type { CheckResult } from "./checks/types";
import type { CheckScope } from "./freshness";
import type { ApprovalStep } from "./receipt/refs";
import type { CheckId } from "./versions";

export const VERDICTS = ["QUARANTINED", "READY FOR APPROVAL", "PROMOTE TO BOUNDED CANARY", "PROMOTE TO DEFAULT"] as const;
export type Verdict = (typeof VERDICTS)[number];

export type VerdictDecision = {
  verdict: Verdict;
  /** The step the verdict is about: entering the bounded canary, or becoming the approved default. */
  step: ApprovalStep;
  blocking: { check: CheckId; scope: CheckScope; status: CheckResult["status"] }[];
  sentence: string;
};

const waitsOnlyForApproval = (open: readonly CheckResult[]) =>
  open.length === 1 && open[0]!.id === 7 && open[0]!.status === "unavailable" && open[0]!.waitingOn === "approval";

function quarantined(open: readonly CheckResult[], scope: CheckScope, step: ApprovalStep): VerdictDecision {
  const list = open.map((c) => `check ${c.id} ${c.status === "fail" ? "failed" : `is ${c.status}`}`).join(", ");
  const where = scope === "canary-stage" ? " in the bounded canary's own receipt" : "";
  return {
    verdict: "QUARANTINED",
    step,
    blocking: open.map((c) => ({ check: c.id, scope, status: c.status })),
    sentence: `Quarantined: ${list}${where}.`,
  };
}

const decided = (verdict: Verdict, step: ApprovalStep, sentence: string, blocking: VerdictDecision["blocking"] = []): VerdictDecision => ({
  verdict,
  step,
  blocking,
  sentence,
});

export function decideVerdict(admission: readonly CheckResult[], canaryStage: readonly CheckResult[] | null): VerdictDecision {
  if (admission.length !== 7) throw new Error("a verdict needs all seven checks");
  const open = admission.filter((c) => c.status !== "pass");
  if (open.length) {
    if (!waitsOnlyForApproval(open)) return quarantined(open, "admission", "canary");
    const sentence = "Checks 1–6 pass; entering the bounded canary waits for an authorized approval.";
    return decided("READY FOR APPROVAL", "canary", sentence, [{ check: 7, scope: "admission", status: "unavailable" }]);
  }
  if (!canaryStage) {
    return decided("PROMOTE TO BOUNDED CANARY", "canary", "All seven checks pass: run the candidate in its bounded canary; the approved default does not move.");
  }
  const stageOpen = canaryStage.filter((c) => c.status !== "pass");
  if (!stageOpen.length) {
    const sentence = "All seven checks pass and the bounded canary's own receipt passed: the approved default may move to this candidate.";
    return decided("PROMOTE TO DEFAULT", "default", sentence);
  }
  if (!waitsOnlyForApproval(stageOpen)) return quarantined(stageOpen, "canary-stage", "default");
  const sentence = "The bounded canary passed; becoming the approved default waits for an authorized approval.";
  return decided("READY FOR APPROVAL", "default", sentence, [{ check: 7, scope: "canary-stage", status: "unavailable" }]);
}
