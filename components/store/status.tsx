// Badges for the store's statuses, modes and attempt reasons, one colour language across the store pages.
import { Badge, type Tone } from "@/components/ui/badge";

const STATUS_TONE: Record<string, Tone> = {
  succeeded: "pass",
  failed: "fail",
  timeout: "fail",
  unresponsive: "warn",
  cancelled: "unavailable",
  requeuing: "warn",
  queuing: "neutral",
  preparing: "accent",
  running: "accent",
  busy: "accent",
  idle: "pass",
  unknown: "unavailable",
  OK: "pass",
  ERROR: "fail",
  UNSET: "neutral",
};

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONE[status] ?? "neutral"}>{status}</Badge>;
}

export const REASON_LABEL: Record<string, string> = {
  first: "first try",
  expected_resample: "expected resample",
  retry_after_failed: "retry after failed",
  retry_after_timeout: "retry after timeout",
  retry_after_unresponsive: "retry after unresponsive",
  manual: "manual",
};

/** Unplanned retries stand out: they are what the gate counts as retry debt. */
export function ReasonBadge({ reason }: { reason: string }) {
  const tone: Tone = reason === "first" ? "neutral" : reason === "expected_resample" ? "accent" : reason === "manual" ? "stale" : "warn";
  return <Badge tone={tone}>{REASON_LABEL[reason] ?? reason}</Badge>;
}

export function ModeBadge({ mode }: { mode: string | null }) {
  return mode ? <Badge tone="neutral">{mode}</Badge> : <span className="text-xs text-ink-3">—</span>;
}

/** A toggle chip for multi-select filters kept in the URL. */
export function FilterChip({ on, onClick, children, count }: { on: boolean; onClick: () => void; children: React.ReactNode; count?: number }) {
  return (
    <button
      type="button"
      aria-pressed={on}
      onClick={onClick}
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-medium ring-1 ring-inset transition ${
        on ? "bg-accent/15 text-accent ring-accent/40" : "bg-panel text-ink-2 ring-line hover:text-ink"
      }`}
    >
      {children}
      {count !== undefined && <span className="tabular-nums text-ink-3">{count.toLocaleString("en")}</span>}
    </button>
  );
}

/** Flips one value in a multi-valued URL filter. */
export function toggled(values: string[], value: string): string[] {
  return values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
}
