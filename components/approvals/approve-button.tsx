"use client";

// The approve button: disabled with the reason visible until the verdict allows the step, the receipt is
// fresh and the viewer holds the role (the server decides with lib/approvals/availability.ts and decides
// again inside the commit). Clicking opens a confirmation naming what changes — pointer from → to, scope,
// canary boundary, and the digest being signed — and then the passkey prompt.
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { Fingerprint, Lock, ShieldCheck } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { Alert, Button, TextInput } from "@/components/ui/form";
import { shortDigest } from "@/components/ui/format";
import { STEP_LABELS } from "@/lib/approvals/availability";
import { startAuthentication } from "@simplewebauthn/browser";
import { errorText } from "./sign";
import type { Panel } from "./types";

const ref = (r: { resourceId: string; version: number; digest: string } | null) => (r ? `${r.resourceId} v${r.version} (${shortDigest(r.digest)})` : "nothing yet");

type Begun = Awaited<ReturnType<ReturnType<typeof useBegin>["mutateAsync"]>>;
function useBegin() {
  const trpc = useTRPC();
  return useMutation(trpc.approvals.begin.mutationOptions());
}

export function ApproveButton({ panel, onDone }: { panel: Panel; onDone?: () => void }) {
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
      {!begun && (
        <div className="flex flex-wrap items-end gap-2">
          <Button onClick={open} disabled={!a.enabled || busy} data-testid="approve-button" aria-describedby={a.enabled ? undefined : `why-${panel.candidateId}`}>
            {a.enabled ? <ShieldCheck className="h-4 w-4" /> : <Lock className="h-4 w-4" />} {label}
          </Button>
          {a.enabled && (
            <div className="min-w-64 flex-1">
              <TextInput aria-label="Comment (optional, signed with the approval)" placeholder="Comment (optional, signed with the approval)" value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} />
            </div>
          )}
        </div>
      )}
      {!a.enabled && !begun && (
        <p id={`why-${panel.candidateId}`} className="text-sm text-ink-2" data-testid="approve-disabled-reason">
          <span className="font-medium text-ink">Why disabled: </span>
          {a.reason}
        </p>
      )}
      {begun && (
        <div className="rounded-md border border-accent/40 bg-accent/5 p-3 text-sm" data-testid="approve-confirm">
          <p className="font-semibold text-ink">Confirm: {label.toLowerCase()}</p>
          <dl className="mt-2 grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1 text-ink-2">
            <dt>Pointer</dt>
            <dd className="font-mono text-xs" data-testid="confirm-pointer">
              {panel.confirm.pointer.kind}: {ref(panel.confirm.pointer.from)} → {ref(panel.confirm.pointer.to)}
            </dd>
            <dt>Scope</dt>
            <dd className="font-mono text-xs">
              {panel.confirm.scope} for {panel.agent}
            </dd>
            <dt>Canary boundary</dt>
            <dd data-testid="confirm-boundary">
              ≤ {b.maxTasks} tasks, ≤ {Math.round(b.maxWallTimeSeconds / 60)} min, ≤ ${b.maxCostUsd}; tools {b.allowedTools.join(", ") || "none"}; side effects {b.allowedSideEffects.join(", ") || "none"}
            </dd>
            <dt>Verdict now</dt>
            <dd>{panel.verdict}</dd>
            <dt>You sign</dt>
            <dd className="font-mono text-xs break-all" data-testid="confirm-digest">
              {begun.digest}
            </dd>
          </dl>
          <p className="mt-2 text-xs text-ink-3">The digest covers this receipt&apos;s chain head, its verdict and the versions each check used. If anything goes stale before the server commits, nothing moves.</p>
          <div className="mt-3 flex gap-2">
            <Button onClick={sign} disabled={busy} data-testid="sign-approve">
              <Fingerprint className="h-4 w-4" /> {busy ? "Waiting for your passkey…" : "Sign with passkey and approve"}
            </Button>
            <Button variant="ghost" onClick={() => setBegun(null)} disabled={busy}>
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
