"use client";

// A point in time as the dashboard shows every date: in the viewer's own locale and time zone once the page
// runs in their browser (the server renders the UTC form, which the browser replaces after hydration), with
// the exact UTC time and the relative time on hover.
import { useSyncExternalStore } from "react";
import { localTimestamp, relativeTime, timestamp } from "@/lib/format/time";

const subscribe = () => () => undefined;

/** False while the server renders and during hydration, true afterwards: the viewer's locale is known only then. */
export function useInBrowser(): boolean {
  return useSyncExternalStore(subscribe, () => true, () => false);
}

export function toDate(at: number | Date | string | null | undefined): Date | null {
  const d = at === null || at === undefined ? null : at instanceof Date ? at : typeof at === "string" ? new Date(at) : new Date(at * 1000);
  return d && !Number.isNaN(d.getTime()) ? d : null;
}

export function Time({ at, className = "" }: { at: number | Date | string | null | undefined; className?: string }) {
  const inBrowser = useInBrowser();
  const d = toDate(at);
  if (!d) return <span className={className}>—</span>;
  return (
    <time dateTime={d.toISOString()} title={`${timestamp(d)} · ${relativeTime(d)}`} className={`tabular-nums ${className}`} suppressHydrationWarning>
      {inBrowser ? localTimestamp(d) : timestamp(d)}
    </time>
  );
}
