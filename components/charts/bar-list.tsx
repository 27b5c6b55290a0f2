// Horizontal bars for a handful of labelled values (per fold, per domain): zero-based, negatives to the
// left of the zero line, each bar labelled with its value — easier to compare at a glance than a table.

export type Bar = { label: string; value: number; display: string; tone?: "accent" | "pass" | "fail" | "warn" | "neutral" };

const TONE: Record<NonNullable<Bar["tone"]>, string> = { accent: "bg-accent", pass: "bg-pass", fail: "bg-fail", warn: "bg-warn", neutral: "bg-ink-3" };

export function BarList({ bars, domain, testId }: { bars: Bar[]; domain?: [number, number]; testId?: string }) {
  const lo = Math.min(0, domain?.[0] ?? Math.min(...bars.map((b) => b.value)));
  const hi = Math.max(0, domain?.[1] ?? Math.max(...bars.map((b) => b.value)));
  const span = hi - lo || 1;
  const zero = ((0 - lo) / span) * 100;
  return (
    <div className="space-y-1.5" data-testid={testId}>
      {bars.map((b) => {
        const start = b.value >= 0 ? zero : zero - ((0 - b.value) / span) * 100;
        const width = (Math.abs(b.value) / span) * 100;
        return (
          <div key={b.label} className="grid grid-cols-[8rem_1fr_5rem] items-center gap-3 text-xs">
            <span className="truncate text-ink-2" title={b.label}>{b.label}</span>
            <div className="relative h-4 rounded bg-panel-2">
              {lo < 0 && <div className="absolute top-0 bottom-0 w-px bg-ink-3" style={{ left: `${zero}%` }} />}
              <div className={`absolute top-0.5 bottom-0.5 rounded-sm ${TONE[b.tone ?? "accent"]}`} style={{ left: `${start}%`, width: `${Math.max(width, 0.5)}%` }} />
            </div>
            <span className="text-right tabular-nums text-ink">{b.display}</span>
          </div>
        );
      })}
    </div>
  );
}
