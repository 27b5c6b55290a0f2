"use client";

// Reject / quarantine with a required comment, signed with the rejecter's passkey like an approval: the server
// issues the payload (receipt head, link, verdict, comment), the passkey signs its digest, and the decision is
// sealed on the receipt (check 7 then fails).
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { Fingerprint } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { Alert, Button, Field, TextInput } from "@/components/ui/form";
import { errorText, signWithPasskey } from "./sign";
import type { Panel } from "./types";

export function RejectForm({ panel, onDone }: { panel: Panel; onDone?: () => void }) {
  const trpc = useTRPC();
  const begin = useMutation(trpc.approvals.beginReject.mutationOptions());
  const finish = useMutation(trpc.approvals.finishReject.mutationOptions());
  const [comment, setComment] = useState("");
  const [outcome, setOutcome] = useState<{ tone: "pass" | "fail"; text: string } | null>(null);
  // After a rejection the panel refreshes and the form closes (the step is decided): its outcome stays in sight.
  if (!panel.canReject) {
    return outcome ? (
      <Alert tone={outcome.tone} testId="reject-outcome">
        {outcome.text}
      </Alert>
    ) : null;
  }

  async function submit() {
    setOutcome(null);
    try {
      await signWithPasskey(
        () => begin.mutateAsync({ agent: panel.agent, candidateId: panel.candidateId, comment }),
        (begun, response) => finish.mutateAsync({ agent: panel.agent, payload: begun.payload, response }),
      );
      setOutcome({ tone: "pass", text: "Rejected (signed): the candidate stays quarantined, with your comment on its receipt." });
    } catch (err) {
      setOutcome({ tone: "fail", text: errorText(err) });
    } finally {
      onDone?.();
    }
  }

  return (
    <div className="space-y-2 border-t border-line pt-3" data-testid="reject-form">
      <Field label="Reject / quarantine — why?" htmlFor={`reject-${panel.candidateId}`} hint="Required. Signed with your passkey; recorded on the receipt and in the audit log.">
        <TextInput id={`reject-${panel.candidateId}`} value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} />
      </Field>
      <Button variant="danger" onClick={submit} disabled={comment.trim().length < 3 || begin.isPending || finish.isPending} data-testid="sign-reject">
        <Fingerprint className="h-4 w-4" /> Sign and reject
      </Button>
      {outcome && (
        <Alert tone={outcome.tone} testId="reject-outcome">
          {outcome.text}
        </Alert>
      )}
    </div>
  );
}
