"use client";

// Rollback of the canary or the approved default: to the tested exact parent or an earlier approved default.
// Signed with a passkey and role-checked, never blocked by stale evidence — and, like an approval, confirmed
// first: the pointer from → to, the reason and the digest being signed, then the passkey.
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { Fingerprint, Lock, Undo2 } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { Alert, Button, Field, Select, TextInput } from "@/components/ui/form";
import { ConfirmBox, pointerRef, WhyDisabled } from "./confirm-box";
import { errorText } from "./sign";
import type { RollbackOption } from "./types";

const NAMES = { canary: "Bounded canary", approved_default: "Approved default" } as const;

type Begun = Awaited<ReturnType<ReturnType<typeof useBeginRollback>["mutateAsync"]>>;
function useBeginRollback() {
  const trpc = useTRPC();
  return useMutation(trpc.approvals.beginRollback.mutationOptions());
}

export function RollbackCard({ option, onDone }: { option: RollbackOption; onDone?: () => void }) {
  const trpc = useTRPC();
  const begin = useBeginRollback();
  const finish = useMutation(trpc.approvals.finishRollback.mutationOptions());
  const [to, setTo] = useState(option.targets[0]?.ref.digest ?? "");
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [begun, setBegun] = useState<Begun | null>(null);
  const [outcome, setOutcome] = useState<{ tone: "pass" | "fail"; text: string } | null>(null);
  const id = `${option.agent}-${option.pointer}`;
  const current = option.current;
  const blocked = option.blocked;
  const ready = !blocked && reason.trim().length >= 3 && !!to;

  async function review() {
    setBusy(true);
    setOutcome(null);
    try {
      setBegun(await begin.mutateAsync({ agent: option.agent, pointer: option.pointer, toDigest: to, reason }));
    } catch (err) {
      setOutcome({ tone: "fail", text: `Cannot roll back: ${errorText(err)}` });
    } finally {
      setBusy(false);
    }
  }

  async function sign() {
    if (!begun) return;
    setBusy(true);
    try {
      if (!begun.options) throw new Error("this decision must be signed by a release bot's key, not a passkey");
      const response = await startAuthentication({ optionsJSON: begun.options as PublicKeyCredentialRequestOptionsJSON });
      const done = await finish.mutateAsync({ agent: option.agent, payload: begun.payload, response });
      const target = done.to as { resourceId: string };
      setOutcome({ tone: "pass", text: `Rolled back: ${NAMES[option.pointer].toLowerCase()} of ${option.agent} now names ${target.resourceId}.` });
      setReason("");
    } catch (err) {
      setOutcome({ tone: "fail", text: `Not rolled back: ${errorText(err)}` });
    } finally {
      setBegun(null);
      setBusy(false);
      onDone?.();
    }
  }

  const target = option.targets.find((t) => t.ref.digest === to) ?? null;
  return (
    <Card title={`${NAMES[option.pointer]} — ${option.agent}`} description="Rollback is allowed while evidence is stale: it must never be blocked by what made it necessary.">
      <div className="space-y-3 text-sm" data-testid={`rollback-${option.pointer}`}>
        <p className="break-words text-ink-2">
          Now: <span className="font-mono text-xs text-ink">{pointerRef(current)}</span>
        </p>
        {option.targets.length > 0 && !begun && (
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
        {option.unloadable.length > 0 && !begun && (
          <ul className="space-y-1 text-xs text-fail" data-testid={`rollback-unloadable-${option.pointer}`}>
            {option.unloadable.map((u) => (
              <li key={u.ref.digest} className="break-words">
                Not offered: {u.reason}.
              </li>
            ))}
          </ul>
        )}
        {!begun && (
          <Button variant="secondary" onClick={review} disabled={!ready || busy} className={blocked ? "!bg-panel-2 !text-ink-3" : ""} data-testid={`rollback-button-${option.pointer}`}>
            {blocked ? <Lock className="h-4 w-4" aria-hidden="true" /> : <Undo2 className="h-4 w-4" aria-hidden="true" />} Review rollback
          </Button>
        )}
        {blocked && (
          <WhyDisabled testId="rollback-disabled-reason" reason={blocked} needsPasskey={blocked.includes("passkey")} />
        )}
        {!blocked && !begun && reason.trim().length < 3 && option.targets.length > 0 && <p className="text-xs text-ink-3">Say why (at least 3 characters) to review the rollback.</p>}
        {begun && (
          <ConfirmBox
            testId="rollback-confirm"
            title={`Confirm: roll back the ${NAMES[option.pointer].toLowerCase()} of ${option.agent}`}
            rows={[
              ["Pointer", `${option.pointer}: ${pointerRef(current)} → ${pointerRef(target?.ref ?? null)}`],
              ["Why allowed", target?.why ?? "—"],
              ["Scope", `rollback:execute for ${option.agent}`],
              ["Reason", reason],
            ]}
            digest={begun.digest}
            note="Nothing moves until the server verifies your signature and finds the pointer where this page shows it."
            signLabel="Sign with passkey and roll back"
            signTestId={`sign-rollback-${option.pointer}`}
            busy={busy}
            onSign={sign}
            onCancel={() => setBegun(null)}
            icon={<Fingerprint className="h-4 w-4" aria-hidden="true" />}
          />
        )}
        {outcome && (
          <Alert tone={outcome.tone} testId="rollback-outcome">
            {outcome.text}
          </Alert>
        )}
      </div>
    </Card>
  );
}
