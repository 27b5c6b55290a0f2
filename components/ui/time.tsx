// A point in time as the dashboard shows every date: ISO-like UTC, the relative time on hover.
import { relativeTime, timestamp } from "@/lib/format/time";

export function Time({ at, className = "" }: { at: number | Date | string | null | undefined; className?: string }) {
  const d = at === null || at === undefined ? null : at instanceof Date ? at : typeof at === "string" ? new Date(at) : new Date(at * 1000);
  if (!d || Number.isNaN(d.getTime())) return <span className={className}>—</span>;
  // The hover text depends on the clock, so server and browser may differ by a second.
  return (
    <time dateTime={d.toISOString()} title={relativeTime(d)} className={`tabular-nums ${className}`} suppressHydrationWarning>
      {timestamp(d)}
    </time>
  );
}
