// A run's status badge (with the pause reason as its title), its progress bar with ETA, and the two
// separate signals: "active" (updates arriving) and "making useful progress" (beating the exact parent).
import { Badge, type Tone } from "@/components/ui/badge";
import { duration } from "@/components/ui/format";

const TONE: Record<string, Tone> = { queued: "neutral", running: "accent", paused: "warn", finished: "pass", failed: "fail" };

export function RunStatusBadge({ status, reason }: { status: string; reason?: string | null }) {
  return (
    <span data-testid="run-status">
      <Badge tone={TONE[status] ?? "neutral"} title={reason ?? undefined}>
        {status}
      </Badge>
    </span>
  );
}

export function RunProgress({ done, total, etaSeconds, status }: { done: number; total: number; etaSeconds: number | null; status: string }) {
  const pct = total ? Math.min(100, (done / total) * 100) : 0;
  return (
    <div className="min-w-40" data-testid="run-progress">
      <div className="h-2 overflow-hidden rounded-full bg-panel-2" role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} aria-label="Updates done">
        <div className={`h-full ${status === "failed" ? "bg-fail" : status === "paused" ? "bg-warn" : "bg-accent"} transition-[width]`} style={{ width: `${pct}%` }} />
      </div>
      <div className="mt-1 flex justify-between text-xs tabular-nums text-ink-3">
        <span>
          {done} / {total} updates
        </span>
        <span>{etaSeconds !== null ? `ETA ${duration(etaSeconds)}` : status === "running" ? "ETA …" : ""}</span>
      </div>
    </div>
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
