// The hover readout of a curve chart: at one x, every series' raw and smoothed value, each series named even
// where it has no point (a parent's shorter run reads "—" there, not as missing from the list).

/** The chart keeps one row per x with `<name>` (raw) and `<name>~` (smoothed) columns, as Recharts wants. */
export const rawKey = (name: string) => name;
export const smoothedKey = (name: string) => `${name}~`;

export type ReadoutLine = { name: string; color: string; raw: string; smoothed: string };
export type Readout = { title: string; lines: ReadoutLine[] };

/** Three decimals read well for rewards; tiny figures (a KL of 0.0004) keep three significant digits. */
export function readoutNumber(v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return "—";
  if (v !== 0 && Math.abs(v) < 0.001) return v.toPrecision(3);
  return Math.abs(v) >= 1000 ? v.toFixed(0) : v.toFixed(3);
}

export function readout(row: Readonly<Record<string, number | undefined>> | undefined, series: readonly { name: string; color: string }[], xLabel: string): Readout | null {
  if (!row || row.x === undefined) return null;
  return {
    title: `${xLabel} ${row.x}`,
    lines: series.map((s) => ({ name: s.name, color: s.color, raw: readoutNumber(row[rawKey(s.name)]), smoothed: readoutNumber(row[smoothedKey(s.name)]) })),
  };
}
