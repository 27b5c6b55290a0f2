// Verdict and check-status badges. A verdict is never "safe": the colours say how far the candidate may go.
import { Badge, type Tone } from "@/components/ui/badge";

export type VerdictName = "QUARANTINED" | "READY FOR APPROVAL" | "PROMOTE TO BOUNDED CANARY" | "PROMOTE TO DEFAULT";
export type CheckStatusName = "pass" | "fail" | "unavailable" | "stale";

export const VERDICT_TONE: Record<VerdictName, Tone> = {
  QUARANTINED: "fail",
  "READY FOR APPROVAL": "warn",
  "PROMOTE TO BOUNDED CANARY": "accent",
  "PROMOTE TO DEFAULT": "pass",
};

export function VerdictBadge({ verdict }: { verdict: VerdictName | null }) {
  if (!verdict) return <Badge tone="unavailable">NOT JUDGED</Badge>;
  return (
    <span data-testid="verdict">
      <Badge tone={VERDICT_TONE[verdict]}>{verdict}</Badge>
    </span>
  );
}

const STATUS_TONE: Record<CheckStatusName, Tone> = { pass: "pass", fail: "fail", unavailable: "unavailable", stale: "stale" };

export function CheckStatusBadge({ status }: { status: CheckStatusName }) {
  return <Badge tone={STATUS_TONE[status]}>{status}</Badge>;
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
          <Badge tone={STATUS_TONE[c.status]}>
            {c.id} {c.status}
          </Badge>
        </span>
      ))}
    </span>
  );
}
