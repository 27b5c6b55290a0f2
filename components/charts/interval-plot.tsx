// Intervals on one horizontal axis: per row, the individual values as dots, the mean as a diamond and its
// confidence interval as a whisker — both arms of an A/B test, or a difference against a zero line.
// Plain SVG so it renders on the server, prints, and needs no layout pass.

export type IntervalRow = { label: string; values?: number[]; mean: number; ci: [number, number]; color: string; secondary?: { label: string; ci: [number, number] } };

function niceTicks(lo: number, hi: number, count = 5): number[] {
  const span = hi - lo || 1;
  const step0 = span / count;
  const mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= step0)!;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + 1e-12; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

const fmt = (v: number) => (Math.abs(v) >= 10 ? v.toFixed(1) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toFixed(3));

export function IntervalPlot({ rows, zeroLine = false, axisLabel, testId }: { rows: IntervalRow[]; zeroLine?: boolean; axisLabel: string; testId?: string }) {
  const W = 520;
  const left = 120;
  const right = 20;
  const rowH = 44;
  const top = 10;
  const H = top + rows.length * rowH + 34;
  const all = rows.flatMap((r) => [...(r.values ?? []), r.ci[0], r.ci[1], r.mean, ...(r.secondary ? r.secondary.ci : [])]).filter(Number.isFinite);
  if (zeroLine) all.push(0);
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  const pad = (hi - lo || Math.abs(hi) || 1) * 0.08;
  lo -= pad;
  hi += pad;
  const x = (v: number) => left + ((v - lo) / (hi - lo)) * (W - left - right);
  const ticks = niceTicks(lo, hi);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="w-full" role="img" aria-label={axisLabel} data-testid={testId}>
      {ticks.map((t) => (
        <g key={t}>
          <line x1={x(t)} x2={x(t)} y1={top} y2={H - 28} stroke="var(--lg-line)" strokeDasharray="3 3" />
          <text x={x(t)} y={H - 14} textAnchor="middle" fontSize={12} fill="var(--lg-ink-3)">
            {fmt(t)}
          </text>
        </g>
      ))}
      {zeroLine && <line x1={x(0)} x2={x(0)} y1={top} y2={H - 28} stroke="var(--lg-ink-2)" strokeWidth={1.5} />}
      <text x={W - right} y={H - 1} textAnchor="end" fontSize={11} fill="var(--lg-ink-3)">
        {axisLabel}
      </text>
      {rows.map((r, i) => {
        const cy = top + i * rowH + rowH / 2;
        const finite = Number.isFinite(r.ci[0]) && Number.isFinite(r.ci[1]);
        return (
          <g key={r.label}>
            <text x={left - 10} y={cy + 4} textAnchor="end" fontSize={12} fill="var(--lg-ink)">
              {r.label.length > 16 ? `${r.label.slice(0, 15)}…` : r.label}
            </text>
            {r.secondary && (
              <line x1={x(r.secondary.ci[0])} x2={x(r.secondary.ci[1])} y1={cy + 9} y2={cy + 9} stroke={r.color} strokeOpacity={0.45} strokeWidth={3}>
                <title>{`${r.secondary.label}: ${fmt(r.secondary.ci[0])} … ${fmt(r.secondary.ci[1])}`}</title>
              </line>
            )}
            {(r.values ?? []).map((v, j) => (
              // Deterministic vertical jitter so equal values stay visible.
              <circle key={j} cx={x(v)} cy={cy - 8 + ((j * 7) % 13) - 6} r={3} fill={r.color} fillOpacity={0.45}>
                <title>{fmt(v)}</title>
              </circle>
            ))}
            {finite && (
              <g stroke={r.color} strokeWidth={2}>
                <line x1={x(r.ci[0])} x2={x(r.ci[1])} y1={cy + 2} y2={cy + 2} />
                <line x1={x(r.ci[0])} x2={x(r.ci[0])} y1={cy - 3} y2={cy + 7} />
                <line x1={x(r.ci[1])} x2={x(r.ci[1])} y1={cy - 3} y2={cy + 7} />
              </g>
            )}
            <path d={`M ${x(r.mean)} ${cy - 4} l 6 6 l -6 6 l -6 -6 z`} fill={r.color}>
              <title>{`mean ${fmt(r.mean)}; interval ${fmt(r.ci[0])} … ${fmt(r.ci[1])}`}</title>
            </path>
          </g>
        );
      })}
    </svg>
  );
}
