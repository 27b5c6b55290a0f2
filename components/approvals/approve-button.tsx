"use client";

// The approve button: disabled — and looking disabled — with the first real blocker named, until the verdict
// allows the step, the receipt is fresh, the viewer holds the role, is not the candidate's author and has a
// passkey (the server decides with lib/approvals/availability.ts and decides again inside the commit). Once
// decided, it gives way to "Approved by <name> at <time>" and the next step. Clicking opens a confirmation
// naming what changes — pointer from → to, scope, canary boundary, the digest being signed — then the passkey.
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { startAuthentication } from "@simplewebauthn/browser";
import { CheckCircle2, Fingerprint, Lock, ShieldCheck, XCircle } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { Alert, Button, TextInput } from "@/components/ui/form";
import { STEP_LABELS } from "@/lib/approvals/availability";
import { ConfirmBox, pointerRef, WhyDisabled } from "./confirm-box";
import { errorText } from "./sign";
import type { Panel } from "./types";

type Begun = Awaited<ReturnType<ReturnType<typeof useBegin>["mutateAsync"]>>;
function useBegin() {
  const trpc = useTRPC();
  return useMutation(trpc.approvals.begin.mutationOptions());
}

/** The decision already taken on this step: who, when, and what happens next. */
export function DecidedStep({ panel }: { panel: Panel }) {
  const d = panel.decided;
  if (!d) return null;
  const approved = d.decision === "approve";
  return (
    <div className={`rounded-md border px-3 py-2 text-sm ${approved ? "border-pass/30 bg-pass/10" : "border-fail/30 bg-fail/10"}`} data-testid="step-decided">
      <p className="flex items-center gap-1.5 font-medium text-ink">
        {approved ? <CheckCircle2 className="h-4 w-4 text-pass" aria-hidden="true" /> : <XCircle className="h-4 w-4 text-fail" aria-hidden="true" />}
        {approved ? "Approved" : "Rejected"} by {d.by} at {d.at}
      </p>
      {panel.next && (
        <p className="mt-1 text-ink-2">
          <span className="font-medium text-ink">Next: </span>
          {panel.next}
        </p>
      )}
    </div>
  );
}

/** Why the button is disabled. On the candidate page the checks are listed above, so they are only named. */
function WhyApproveDisabled({ panel, compact }: { panel: Panel; compact: boolean }) {
  const a = panel.availability;
  if (a.enabled) return null;
  const text =
    compact && a.code === "checks"
      ? `${panel.open.map((c) => `check ${c.check} ${c.status === "fail" ? "failed" : `is ${c.status}`}`).join(", ")} — see the decision above${panel.status === "STALE" ? ": re-run the gate first" : ""}.`
      : a.reason;
  return <WhyDisabled id={`why-${panel.candidateId}`} testId="approve-disabled-reason" code={a.code} reason={text} needsPasskey={a.code === "passkey"} />;
}

export function ApproveButton({ panel, onDone, compact = false }: { panel: Panel; onDone?: () => void; compact?: boolean }) {
  const trpc = useTRPC();
  const begin = useBegin();
  const finish = useMutation(trpc.approvals.finish.mutationOptions());
  // The server issues the payload when the confirmation opens: it binds what this page shows (receipt head,
  // verdict, versions), so anything that changes before the passkey signs is caught at commit.
  const [begun, setBegun] = useState<Begun | null>(null);
  const [comment, setComment] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: "pass" | "fail"; text: string } | null>(null);
  const a = panel.availability;
  const b = panel.confirm.boundary;
  const label = `Approve the ${STEP_LABELS[panel.step]} step`;
  // A decision on the step is the news only when no check stands in the way (a quarantined receipt may carry one);
  // once the promotion moved on (promoted, rolled back, aborted) it still says who decided, with what comes next.
  const decided = !a.enabled && (a.code === "decided" || (a.code === "state" && panel.decided !== null));

  async function open() {
    setBusy(true);
    setOutcome(null);
    try {
      setBegun(await begin.mutateAsync({ agent: panel.agent, candidateId: panel.candidateId, step: panel.step, comment }));
    } catch (err) {
      setOutcome({ tone: "fail", text: `Cannot approve: ${errorText(err)}` });
      onDone?.();
    } finally {
      setBusy(false);
    }
  }

  async function sign() {
    if (!begun?.options) return;
    setBusy(true);
    setOutcome(null);
    try {
      const response = await startAuthentication({ optionsJSON: begun.options });
      const done = await finish.mutateAsync({ agent: panel.agent, payload: begun.payload, response });
      setOutcome({ tone: "pass", text: `Signed and committed: the ${panel.confirm.pointer.kind.replace("_", " ")} pointer now names ${panel.candidate.resourceId}. Verdict: ${done.verdict}.` });
    } catch (err) {
      setOutcome({ tone: "fail", text: `Not approved: ${errorText(err)}` });
    } finally {
      setBegun(null);
      setBusy(false);
      onDone?.();
    }
  }

  return (
    <div className="space-y-3" data-testid="approve-action">
      {decided ? (
        <DecidedStep panel={panel} />
      ) : (
        !begun && (
          <div className="flex flex-wrap items-end gap-2">
            <Button
              onClick={open}
              variant={a.enabled ? "primary" : "secondary"}
              disabled={!a.enabled || busy}
              data-testid="approve-button"
              aria-describedby={a.enabled ? undefined : `why-${panel.candidateId}`}
              className={a.enabled ? "" : "!bg-panel-2 !text-ink-3"}
            >
              {a.enabled ? <ShieldCheck className="h-4 w-4" aria-hidden="true" /> : <Lock className="h-4 w-4" aria-hidden="true" />} {label}
            </Button>
            {a.enabled && (
              <div className="min-w-0 flex-1 basis-56">
                <TextInput aria-label="Comment (optional, signed with the approval)" placeholder="Comment (optional, signed with the approval)" value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} />
              </div>
            )}
          </div>
        )
      )}
      {!decided && !begun && <WhyApproveDisabled panel={panel} compact={compact} />}
      {begun && (
        <ConfirmBox
          testId="approve-confirm"
          title={`Confirm: ${label.toLowerCase()}`}
          rows={[
            ["Pointer", <span key="p" data-testid="confirm-pointer">{panel.confirm.pointer.kind}: {pointerRef(panel.confirm.pointer.from)} → {pointerRef(panel.confirm.pointer.to)}</span>],
            ["Scope", `${panel.confirm.scope} for ${panel.agent}`],
            [
              "Canary boundary",
              <span key="b" data-testid="confirm-boundary">
                ≤ {b.maxTasks} tasks, ≤ {Math.round(b.maxWallTimeSeconds / 60)} min, ≤ ${b.maxCostUsd}; tools {b.allowedTools.join(", ") || "none"}; side effects {b.allowedSideEffects.join(", ") || "none"}
              </span>,
            ],
            ["Verdict now", panel.verdict],
            ["What signing costs you", <span key="c" data-testid="confirm-cost">{panel.cost}</span>],
          ]}
          digest={begun.digest}
          note="The digest covers this receipt's chain head, its verdict and the versions each check used. If anything goes stale before the server commits, nothing moves."
          signLabel="Sign with passkey and approve"
          signTestId="sign-approve"
          busy={busy}
          onSign={sign}
          onCancel={() => setBegun(null)}
          icon={<Fingerprint className="h-4 w-4" aria-hidden="true" />}
        />
      )}
      {outcome && (
        <Alert tone={outcome.tone} testId="approve-outcome">
          {outcome.text}
        </Alert>
      )}
    </div>
  );
}
