"use client";

// Reject / quarantine with a required comment: sealed as a decision on the receipt (check 7 then fails).
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { Ban } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { Alert, Button, Field, TextInput } from "@/components/ui/form";
import { errorText } from "./sign";
import type { Panel } from "./types";

export function RejectForm({ panel, onDone }: { panel: Panel; onDone?: () => void }) {
  const trpc = useTRPC();
  const reject = useMutation(trpc.approvals.reject.mutationOptions());
  const [comment, setComment] = useState("");
  const [outcome, setOutcome] = useState<{ tone: "pass" | "fail"; text: string } | null>(null);
  if (!panel.canReject) return null;

  async function submit() {
    setOutcome(null);
    try {
      await reject.mutateAsync({ agent: panel.agent, candidateId: panel.candidateId, comment });
      setOutcome({ tone: "pass", text: "Rejected: the candidate stays quarantined, with your comment on its receipt." });
    } catch (err) {
      setOutcome({ tone: "fail", text: errorText(err) });
    } finally {
      onDone?.();
    }
  }

  return (
    <div className="space-y-2 border-t border-line pt-3" data-testid="reject-form">
      <Field label="Reject / quarantine — why?" htmlFor={`reject-${panel.candidateId}`} hint="Required. Recorded on the receipt and in the audit log.">
        <TextInput id={`reject-${panel.candidateId}`} value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} />
      </Field>
      <Button variant="danger" onClick={submit} disabled={comment.trim().length < 3 || reject.isPending}>
        <Ban className="h-4 w-4" /> Reject
      </Button>
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
    </div>
  );
}
