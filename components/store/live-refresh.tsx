"use client";

// Live auto-refresh for the store pages: a toggle with an interval (kept in the URL as `live=<seconds>`)
// that feeds react-query's refetchInterval. react-query skips interval refetches while the tab is hidden
// (refetchIntervalInBackground is off), and the label says so; "updated Ns ago" ticks every second.
import { useEffect, useState } from "react";
import { Pause, Play, RefreshCw } from "lucide-react";
import { useUrlState } from "@/components/ui/url-state";

const INTERVALS = [2, 5, 10, 30] as const;

export function useLive() {
  const url = useUrlState();
  const raw = Number(url.get("live") ?? 0);
  const seconds = Number.isFinite(raw) && raw > 0 ? Math.max(1, Math.round(raw)) : 0;
  return {
    seconds,
    /** Pass as react-query's `refetchInterval`. */
    refetchInterval: seconds > 0 ? seconds * 1000 : (false as const),
    setSeconds: (s: number) => url.set({ live: s > 0 ? s : null }),
  };
}

/** The clock, ticking every `everyMs` (renders stay pure; ages update on their own). */
export function useNow(everyMs: number) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

function useTabHidden() {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    const on = () => setHidden(document.visibilityState === "hidden");
    document.addEventListener("visibilitychange", on);
    return () => document.removeEventListener("visibilitychange", on);
  }, []);
  return hidden;
}

export function LiveRefresh({ updatedAt, fetching, onRefresh }: { updatedAt: number; fetching: boolean; onRefresh: () => void }) {
  const live = useLive();
  const now = useNow(1000);
  const hidden = useTabHidden();
  const age = updatedAt ? Math.max(0, Math.round((now - updatedAt) / 1000)) : null;
  const on = live.seconds > 0;
  return (
    <div className="flex items-center gap-2 text-xs text-ink-3" data-testid="live-refresh">
      <span className="tabular-nums" data-testid="updated-ago" aria-live="off">
        {age === null ? "not loaded yet" : `updated ${age} s ago`}
        {on && hidden ? " · paused while the tab is hidden" : ""}
      </span>
      <button
        type="button"
        onClick={onRefresh}
        aria-label="refresh now"
        title="Refresh now"
        className="rounded-md border border-line bg-panel p-1.5 text-ink-2 hover:text-ink"
      >
        <RefreshCw className={`h-3.5 w-3.5 ${fetching ? "animate-spin" : ""}`} />
      </button>
      <div className="inline-flex items-center overflow-hidden rounded-md border border-line bg-panel">
        <button
          type="button"
          aria-pressed={on}
          onClick={() => live.setSeconds(on ? 0 : 5)}
          className={`inline-flex items-center gap-1 px-2 py-1 font-medium ${on ? "bg-accent/15 text-accent" : "text-ink-2 hover:text-ink"}`}
        >
          {on ? <Pause className="h-3 w-3" /> : <Play className="h-3 w-3" />}
          {on ? "Live" : "Live off"}
        </button>
        <select
          aria-label="refresh interval"
          value={on ? live.seconds : 5}
          disabled={!on}
          onChange={(e) => live.setSeconds(Number(e.target.value))}
          className="border-l border-line bg-panel px-1.5 py-1 text-ink-2 disabled:opacity-50"
        >
          {INTERVALS.map((s) => (
            <option key={s} value={s}>
              every {s} s
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
