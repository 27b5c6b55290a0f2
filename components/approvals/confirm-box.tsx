"use client";

// What every signed decision shares (approval and rollback): why its button is disabled — with the way to
// Security when the blocker is a missing passkey — and the confirmation step: what changes, the digest being
// signed, then the passkey prompt, or cancel.
import type { ReactNode } from "react";
import Link from "next/link";
import { Button } from "@/components/ui/form";
import { shortDigest } from "@/components/ui/format";

export const pointerRef = (r: { resourceId: string; version: number; digest: string } | null) => (r ? `${r.resourceId} v${r.version} (${shortDigest(r.digest)})` : "nothing yet");

export function ConfirmBox({ testId, title, rows, digest, note, signLabel, signTestId, busy, onSign, onCancel, icon }: {
  testId: string;
  title: string;
  rows: [string, ReactNode][];
  digest: string;
  note: string;
  signLabel: string;
  signTestId: string;
  busy: boolean;
  onSign: () => void;
  onCancel: () => void;
  icon: ReactNode;
}) {
  return (
    <div className="rounded-md border border-accent/40 bg-accent/5 p-3 text-sm" data-testid={testId}>
      <p className="font-semibold text-ink">{title}</p>
      <dl className="mt-2 grid grid-cols-1 gap-x-3 gap-y-1 text-ink-2 sm:grid-cols-[9rem_1fr]">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-ink-3 sm:text-ink-2">{k}</dt>
            <dd className="font-mono text-xs break-all">{v}</dd>
          </div>
        ))}
        <div className="contents">
          <dt className="text-ink-3 sm:text-ink-2">You sign</dt>
          <dd className="font-mono text-xs break-all" data-testid="confirm-digest">
            {digest}
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-xs text-ink-3">{note}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button onClick={onSign} disabled={busy} data-testid={signTestId}>
          {icon} {busy ? "Waiting for your passkey…" : signLabel}
        </Button>
        <Button variant="ghost" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

export function WhyDisabled({ reason, needsPasskey, id, testId, code }: { reason: ReactNode; needsPasskey: boolean; id?: string; testId: string; code?: string }) {
  return (
    <p id={id} className="text-sm text-ink-2" data-testid={testId} data-code={code}>
      <span className="font-medium text-ink">Why disabled: </span>
      {reason}
      {needsPasskey && (
        <>
          {" "}
          <Link href="/settings/security" className="font-medium text-accent hover:underline">
            Add a passkey in Security
          </Link>
        </>
      )}
    </p>
  );
}
