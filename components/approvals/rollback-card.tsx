"use client";

// Rollback of the canary or the approved default: to the tested exact parent or an earlier approved default.
// Signed with a passkey and role-checked, but never blocked by stale evidence.
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { Fingerprint, Undo2 } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { Alert, Button, Field, Select, TextInput } from "@/components/ui/form";
import { shortDigest } from "@/components/ui/format";
import { errorText, signWithPasskey } from "./sign";
import type { RollbackOption } from "./types";

const NAMES = { canary: "Bounded canary", approved_default: "Approved default" } as const;

export function RollbackCard({ option, onDone }: { option: RollbackOption; onDone?: () => void }) {
  const trpc = useTRPC();
  const begin = useMutation(trpc.approvals.beginRollback.mutationOptions());
  const finish = useMutation(trpc.approvals.finishRollback.mutationOptions());
  const [to, setTo] = useState(option.targets[0]?.ref.digest ?? "");
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: "pass" | "fail"; text: string } | null>(null);
  const id = `${option.agent}-${option.pointer}`;
  const current = option.current;

  async function rollBack() {
    setBusy(true);
    setOutcome(null);
    try {
      const done = await signWithPasskey(
        () => begin.mutateAsync({ agent: option.agent, pointer: option.pointer, toDigest: to, reason }),
        (begun, response) => finish.mutateAsync({ agent: option.agent, payload: begun.payload, response }),
      );
      const target = done.to as { resourceId: string };
      setOutcome({ tone: "pass", text: `Rolled back: ${NAMES[option.pointer].toLowerCase()} of ${option.agent} now names ${target.resourceId}.` });
      setReason("");
    } catch (err) {
      setOutcome({ tone: "fail", text: `Not rolled back: ${errorText(err)}` });
    } finally {
      setBusy(false);
      onDone?.();
    }
  }

  return (
    <Card title={`${NAMES[option.pointer]} — ${option.agent}`} description="Rollback is allowed while evidence is stale: it must never be blocked by what made it necessary.">
      <div className="space-y-3 text-sm" data-testid={`rollback-${option.pointer}`}>
        <p className="text-ink-2">
          Now: <span className="font-mono text-xs text-ink">{current ? `${current.resourceId} v${current.version} (${shortDigest(current.digest)})` : "—"}</span>
        </p>
        {option.targets.length > 0 && (
          <>
            <Field label="Roll back to" htmlFor={`rb-to-${id}`}>
              <Select id={`rb-to-${id}`} value={to} onChange={(e) => setTo(e.target.value)}>
                {option.targets.map((t) => (
                  <option key={t.ref.digest} value={t.ref.digest}>
                    {t.ref.resourceId} v{t.ref.version} — {t.why}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Reason (required, signed)" htmlFor={`rb-reason-${id}`}>
              <TextInput id={`rb-reason-${id}`} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={2000} />
            </Field>
          </>
        )}
        <Button variant="secondary" onClick={rollBack} disabled={!!option.blocked || busy || reason.trim().length < 3 || !to} data-testid={`rollback-button-${option.pointer}`}>
          {busy ? <Fingerprint className="h-4 w-4" /> : <Undo2 className="h-4 w-4" />} {busy ? "Waiting for your passkey…" : "Sign with passkey and roll back"}
        </Button>
        {option.blocked && <p className="text-ink-2">Why disabled: {option.blocked}</p>}
        {outcome && (
          <Alert tone={outcome.tone} testId="rollback-outcome">
            {outcome.text}
          </Alert>
        )}
      </div>
    </Card>
  );
}
