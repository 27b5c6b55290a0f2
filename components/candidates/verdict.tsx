// Verdict and check-status badges. A verdict is never "safe": the colours say how far the candidate may go;
// STALE (only stale evidence in the way, lib/candidates/status.ts) has its own colour.
import { Badge, type Tone } from "@/components/ui/badge";
import type { CandidateStatus } from "@/lib/candidates/status";

export type CheckStatusName = "pass" | "fail" | "unavailable" | "stale";

export const STATUS_TONE: Record<CandidateStatus, Tone> = {
  QUARANTINED: "fail",
  STALE: "stale",
  "READY FOR APPROVAL": "warn",
  "PROMOTE TO BOUNDED CANARY": "accent",
  "PROMOTE TO DEFAULT": "pass",
  "ROLLED BACK": "unavailable",
};

export function VerdictBadge({ verdict, testId = "verdict" }: { verdict: CandidateStatus | null; testId?: string }) {
  if (!verdict) return <Badge tone="unavailable">NOT JUDGED</Badge>;
  return (
    <span data-testid={testId}>
      <Badge tone={STATUS_TONE[verdict]}>{verdict}</Badge>
    </span>
  );
}

const CHECK_TONE: Record<CheckStatusName, Tone> = { pass: "pass", fail: "fail", unavailable: "unavailable", stale: "stale" };

export function CheckStatusBadge({ status, label }: { status: CheckStatusName; label?: string }) {
  return <Badge tone={CHECK_TONE[status]}>{label ?? status}</Badge>;
}

/** Checks that did not pass, as compact chips: "2 fail", "7 unavailable". */
export function OpenChecks({ checks }: { checks: { id: number; title: string; status: CheckStatusName }[] }) {
  const open = checks.filter((c) => c.status !== "pass");
  if (!checks.length) return <span className="text-xs text-ink-3">—</span>;
  if (!open.length) return <span className="text-xs text-pass">all 7 pass</span>;
  return (
    <span className="flex flex-wrap gap-1" data-testid="open-checks">
      {open.map((c) => (
        <span key={c.id} title={`${c.title}: ${c.status}`}>
          <Badge tone={CHECK_TONE[c.status]}>
            {c.id} {c.status}
          </Badge>
        </span>
      ))}
    </span>
  );
}
