// Status of an evaluation / A/B-test job: a badge, and a progress bar with what it is doing now.
import { Badge, type Tone } from "@/components/ui/badge";

export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "interrupted";

const TONE: Record<JobStatus, Tone> = { queued: "neutral", running: "accent", succeeded: "pass", failed: "fail", interrupted: "warn" };

export function JobStatusBadge({ status }: { status: JobStatus }) {
  return <Badge tone={TONE[status]}>{status}</Badge>;
}

export function JobProgress({ progress, note }: { progress: number; note: string }) {
  return (
    <div className="space-y-1" data-testid="job-progress">
      <div className="h-2 overflow-hidden rounded bg-panel-2" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress * 100)}>
        <div className="h-full bg-accent transition-all" style={{ width: `${Math.max(2, progress * 100)}%` }} />
      </div>
      <div className="flex justify-between text-xs text-ink-3">
        <span>{note || "waiting to start"}</span>
        <span className="tabular-nums">{Math.round(progress * 100)} %</span>
      </div>
    </div>
  );
}

export const isActive = (s: JobStatus) => s === "queued" || s === "running";
