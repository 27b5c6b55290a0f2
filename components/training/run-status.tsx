// A run's status badge and the sentence beside it ("stopped by Tess Trainer at …" is not "finished"), its
// progress bar with the ETA and its range, retry debt against its budget (over budget in the fail tone), and the
// two separate signals: "active" (updates arriving) and "making useful progress" (beating the exact parent).
import { Badge, type Tone } from "@/components/ui/badge";
import { Time } from "@/components/ui/time";
import { etaText } from "@/lib/format/eta";
import { retryDebtStanding, runStatusLine, type RunStatusFacts } from "@/lib/training/run-status";

const TONE: Record<string, Tone> = { queued: "neutral", running: "accent", paused: "warn", finished: "pass", stopped: "warn", failed: "fail" };
const LINE_TONE = { pass: "text-ink-2", neutral: "text-ink-2", warn: "text-ink-2", fail: "text-fail" } as const;

export function RunStatusBadge({ status, reason }: { status: string; reason?: string | null }) {
  return (
    <span data-testid="run-status">
      <Badge tone={TONE[status] ?? "neutral"} title={reason ?? undefined}>
        {status}
      </Badge>
    </span>
  );
}

/** "stopped by Tess Trainer at 2026-12-05 18:02:11 UTC", "finished all 20 updates at …"; nothing while live. */
export function RunStatusLine({ run, className = "" }: { run: RunStatusFacts; className?: string }) {
  const line = runStatusLine(run);
  if (!line) return null;
  return (
    <span className={`text-xs [overflow-wrap:anywhere] ${LINE_TONE[line.tone]} ${className}`} data-testid="run-status-line">
      {line.text}
      {line.at && (
        <>
          {" "}at <Time at={line.at} />
        </>
      )}
    </span>
  );
}

export type Eta = { seconds: number; low: number; high: number };

export function RunProgress({ done, total, eta, status }: { done: number; total: number; eta: Eta | null; status: string }) {
  const pct = total ? Math.min(100, (done / total) * 100) : 0;
  return (
    <div className="min-w-40" data-testid="run-progress">
      <div className="h-2 overflow-hidden rounded-full bg-panel-2" role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} aria-label="Updates done">
        <div className={`h-full ${status === "failed" ? "bg-fail" : status === "paused" || status === "stopped" ? "bg-warn" : "bg-accent"} transition-[width]`} style={{ width: `${pct}%` }} />
      </div>
      <div className="mt-1 flex flex-wrap justify-between gap-x-2 text-xs tabular-nums text-ink-2">
        <span>
          {done} / {total} updates
        </span>
        {/* Nothing rather than a guess before two updates have given a pace. */}
        {eta && <span data-testid="run-eta" title="Median of the recent updates' durations; the range is how far their pace has varied">ETA {etaText(eta)}</span>}
      </div>
    </div>
  );
}

/** Retry debt with its budget; over the budget it reads "over budget" in the fail tone. */
export function RetryDebt({ debt, budget }: { debt: number; budget: number }) {
  const standing = retryDebtStanding(debt, budget);
  return (
    <span className={`tabular-nums ${standing.over ? "font-medium text-fail" : "text-ink-2"}`} data-testid="retry-debt" data-over={standing.over}>
      {standing.text}
    </span>
  );
}

export type Health = { active: boolean; usefulProgress: boolean | null; progressNote: string };

export function HealthBadges({ health }: { health: Health }) {
  return (
    <span className="inline-flex flex-wrap gap-1.5">
      <Badge tone={health.active ? "pass" : "neutral"} title="Updates arrived in the last minute">
        {health.active ? "active" : "idle"}
      </Badge>
      <Badge tone={health.usefulProgress === null ? "unavailable" : health.usefulProgress ? "pass" : "warn"} title={health.progressNote}>
        {health.usefulProgress === null ? "progress unknown" : health.usefulProgress ? "useful progress" : "no useful progress"}
      </Badge>
    </span>
  );
}
