"use client";

// Training curves: each series drawn raw (faint) and smoothed (debiased EMA, causal), with optional
// horizontal reference lines (e.g. the parent's level) whose labels are laid out so none overlaps another.
// Smoothing happens on full-resolution data and only then is the series downsampled (M4), so what you see
// does not change with the chart's width. Hovering reads out every series' raw and smoothed value at that x.
import { useMemo, useState } from "react";
import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { rawKey, readout, smoothedKey } from "@/lib/charts/readout";
import { debiasedEma, downsampleM4, type Point } from "@/lib/charts/smoothing";
import { ReferenceLabels } from "./reference-labels";

/** Two decimals read well for rewards; small figures (a KL of 0.04, a value loss of 0.043) need significant digits. */
/** An x tick as people write it: whole numbers plain (versions, updates), others to three significant digits (1.27 minutes). */
const xTick = (v: number) => (Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(3))));
const tick = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : v !== 0 && Math.abs(v) < 0.1 ? v.toPrecision(2) : v.toFixed(2));

export type CurveSeries = { name: string; points: Point[]; color: string };
export type CurveReference = { y: number; label: string; color?: string };

type Row = Record<string, number | undefined>;

function Readout({ active, payload, series, xLabel }: Pick<TooltipContentProps, "active" | "payload"> & { series: readonly CurveSeries[]; xLabel: string }) {
  const r = active ? readout(payload?.[0]?.payload as Row | undefined, series, xLabel) : null;
  if (!r) return null;
  return (
    <div className="rounded-md border border-line bg-panel px-2.5 py-1.5 text-xs text-ink shadow-sm" data-testid="curve-readout">
      <div className="mb-0.5 font-medium text-ink-2">{r.title}</div>
      <table>
        <thead className="text-ink-3">
          <tr>
            <th scope="col">
              <span className="sr-only">series</span>
            </th>
            <th scope="col" className="pr-2 text-right font-normal">
              raw
            </th>
            <th scope="col" className="text-right font-normal">
              smoothed
            </th>
          </tr>
        </thead>
        <tbody>
          {r.lines.map((l) => (
            <tr key={l.name}>
              <th scope="row" className="pr-2 text-left font-normal">
                <span className="mr-1.5 inline-block h-0.5 w-3 align-middle" style={{ background: l.color }} />
                {l.name}
              </th>
              <td className="pr-2 text-right tabular-nums">{l.raw}</td>
              <td className="text-right font-medium tabular-nums">{l.smoothed}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function CurveChart({
  series,
  references = [],
  height = 260,
  xLabel = "step",
  yDomain,
  defaultSmoothing = 0.8,
  showSmoothingControl = true,
  showLegend = true,
}: {
  series: CurveSeries[];
  references?: CurveReference[];
  height?: number;
  xLabel?: string;
  yDomain?: [number | "auto", number | "auto"];
  defaultSmoothing?: number;
  showSmoothingControl?: boolean;
  /** Off when the caller draws a richer legend of its own. */
  showLegend?: boolean;
}) {
  const [weight, setWeight] = useState(defaultSmoothing);
  const rows = useMemo(() => {
    // One row per x, with `<name>` (raw) and `<name>~` (smoothed) columns, as Recharts wants.
    const byX = new Map<number, Row>();
    for (const s of series) {
      for (const p of downsampleM4(debiasedEma(s.points, weight), 300)) {
        const row = byX.get(p.x) ?? { x: p.x };
        row[rawKey(s.name)] = p.y;
        row[smoothedKey(s.name)] = p.smoothed;
        byX.set(p.x, row);
      }
    }
    return [...byX.values()].sort((a, b) => a.x! - b.x!);
  }, [series, weight]);

  return (
    <div>
      {showSmoothingControl && (
        <label className="mb-2 flex items-center justify-end gap-2 text-xs text-ink-3">
          smoothing
          <input type="range" min={0} max={0.99} step={0.01} value={weight} onChange={(e) => setWeight(Number(e.target.value))} className="w-28 accent-[var(--lg-accent)]" aria-label="Smoothing" />
          <span className="w-8 text-right tabular-nums">{weight.toFixed(2)}</span>
        </label>
      )}
      <div style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
            <CartesianGrid stroke="var(--lg-line)" strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="x" type="number" domain={["dataMin", "dataMax"]} tickFormatter={xTick} tick={{ fill: "var(--lg-ink-3)", fontSize: 11 }} stroke="var(--lg-line)" label={{ value: xLabel, position: "insideBottomRight", offset: -2, fill: "var(--lg-ink-3)", fontSize: 11 }} />
            <YAxis domain={yDomain ?? ["auto", "auto"]} tick={{ fill: "var(--lg-ink-3)", fontSize: 11 }} stroke="var(--lg-line)" width={44} tickFormatter={tick} />
            <Tooltip content={({ active, payload }) => <Readout active={active} payload={payload} series={series} xLabel={xLabel} />} />
            {references.map((r) => (
              <ReferenceLine key={r.label} y={r.y} ifOverflow="extendDomain" stroke={r.color ?? "var(--lg-ink-3)"} strokeDasharray="6 4" />
            ))}
            {series.map((s) => (
              <Line key={s.name} dataKey={rawKey(s.name)} stroke={s.color} strokeOpacity={0.28} dot={false} isAnimationActive={false} strokeWidth={1} connectNulls />
            ))}
            {series.map((s) => (
              <Line key={`${s.name}~`} dataKey={smoothedKey(s.name)} stroke={s.color} dot={false} isAnimationActive={false} strokeWidth={2} connectNulls />
            ))}
            <ReferenceLabels references={references} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      {showLegend && (
        <div className="mt-2 flex flex-wrap gap-4 text-xs text-ink-2">
          {series.map((s) => (
            <span key={s.name} className="flex items-center gap-1.5">
              <span className="h-0.5 w-4 rounded" style={{ background: s.color }} />
              {s.name}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}
