"use client";

// The approve button: disabled with the reason visible until the verdict allows the step, the receipt is
// fresh and the viewer holds the role (the server decides with lib/approvals/availability.ts and decides
// again inside the commit). Clicking opens a confirmation naming what changes — pointer from → to, scope,
// canary boundary — and then the passkey prompt.
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { Fingerprint, Lock, ShieldCheck } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { Alert, Button, Field, TextInput } from "@/components/ui/form";
import { shortDigest } from "@/components/ui/format";
import { STEP_LABELS } from "@/lib/approvals/availability";
import { errorText, signWithPasskey } from "./sign";
import type { Panel } from "./types";

const ref = (r: { resourceId: string; version: number; digest: string } | null) => (r ? `${r.resourceId} v${r.version} (${shortDigest(r.digest)})` : "nothing yet");

export function ApproveButton({ panel, onDone }: { panel: Panel; onDone?: () => void }) {
  const trpc = useTRPC();
  const begin = useMutation(trpc.approvals.begin.mutationOptions());
  const finish = useMutation(trpc.approvals.finish.mutationOptions());
  const [confirming, setConfirming] = useState(false);
  const [comment, setComment] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: "pass" | "fail"; text: string } | null>(null);
  const a = panel.availability;
  const b = panel.confirm.boundary;
  const label = `Approve the ${STEP_LABELS[panel.step]} step`;

  async function sign() {
    setBusy(true);
    setOutcome(null);
    try {
      const done = await signWithPasskey(
        () => begin.mutateAsync({ agent: panel.agent, candidateId: panel.candidateId, step: panel.step, comment }),
        (begun, response) => finish.mutateAsync({ agent: panel.agent, payload: begun.payload, response }),
      );
      setOutcome({ tone: "pass", text: `Signed and committed: the ${panel.confirm.pointer.kind.replace("_", " ")} pointer now names ${panel.candidate.resourceId}. Verdict: ${done.verdict}.` });
      setConfirming(false);
    } catch (err) {
      setOutcome({ tone: "fail", text: `Not approved: ${errorText(err)}` });
      setConfirming(false);
    } finally {
      setBusy(false);
      onDone?.();
    }
  }

  return (
    <div className="space-y-3" data-testid="approve-action">
      {(!confirming || !a.enabled) && (
        <Button onClick={() => setConfirming(true)} disabled={!a.enabled} data-testid="approve-button" aria-describedby={a.enabled ? undefined : `why-${panel.candidateId}`}>
          {a.enabled ? <ShieldCheck className="h-4 w-4" /> : <Lock className="h-4 w-4" />} {label}
        </Button>
      )}
      {!a.enabled && (
        <p id={`why-${panel.candidateId}`} className="text-sm text-ink-2" data-testid="approve-disabled-reason">
          <span className="font-medium text-ink">Why disabled: </span>
          {a.reason}
        </p>
      )}
      {confirming && a.enabled && (
        <div className="rounded-md border border-accent/40 bg-accent/5 p-3 text-sm" data-testid="approve-confirm">
          <p className="font-semibold text-ink">Confirm: {label.toLowerCase()}</p>
          <dl className="mt-2 grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1 text-ink-2">
            <dt>Pointer</dt>
            <dd className="font-mono text-xs" data-testid="confirm-pointer">
              {panel.confirm.pointer.kind}: {ref(panel.confirm.pointer.from)} → {ref(panel.confirm.pointer.to)}
            </dd>
            <dt>Scope</dt>
            <dd className="font-mono text-xs">{panel.confirm.scope} for {panel.agent}</dd>
            <dt>Canary boundary</dt>
            <dd data-testid="confirm-boundary">
              ≤ {b.maxTasks} tasks, ≤ {Math.round(b.maxWallTimeSeconds / 60)} min, ≤ ${b.maxCostUsd}; tools {b.allowedTools.join(", ") || "none"}; side effects {b.allowedSideEffects.join(", ") || "none"}
            </dd>
            <dt>Verdict now</dt>
            <dd>{panel.verdict}</dd>
          </dl>
          <div className="mt-3">
            <Field label="Comment (optional, signed with the approval)" htmlFor={`comment-${panel.candidateId}`}>
              <TextInput id={`comment-${panel.candidateId}`} value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} />
            </Field>
          </div>
          <p className="mt-2 text-xs text-ink-3">Your passkey signs the digest of this receipt, its verdict and the versions each check used. If anything goes stale before the server commits, nothing moves.</p>
          <div className="mt-3 flex gap-2">
            <Button onClick={sign} disabled={busy} data-testid="sign-approve">
              <Fingerprint className="h-4 w-4" /> {busy ? "Waiting for your passkey…" : "Sign with passkey and approve"}
            </Button>
            <Button variant="ghost" onClick={() => setConfirming(false)} disabled={busy}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {outcome && (
        <Alert tone={outcome.tone} testId="approve-outcome">
          {outcome.text}
        </Alert>
      )}
    </div>
  );
}
