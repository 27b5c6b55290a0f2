// Small, locale-stable formatters for times, durations and numbers used across the dashboard. Dates have one
// format, shared with server sentences (lib/format/time.ts); <Time> shows it with the relative time on hover.
export { relativeTime, timestamp } from "@/lib/format/time";

/** "850 ms", "12.4 s", "3 min 05 s", "2 h 10 min". */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "—";
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${String(Math.floor(seconds % 60)).padStart(2, "0")} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

export function signed(n: number, digits = 3): string {
  return `${n >= 0 ? "+" : "−"}${Math.abs(n).toFixed(digits)}`;
}

export function percent(n: number, digits = 0): string {
  return `${(n * 100).toFixed(digits)}%`;
}

/** Short form of a digest or id for tables: "sha256:3f2a9c…" keeps the prefix that identifies it. */
export function shortDigest(d: string, keep = 12): string {
  const [alg, hex] = d.includes(":") ? d.split(":", 2) : ["", d];
  return hex && hex.length > keep ? `${alg ? `${alg}:` : ""}${hex.slice(0, keep)}…` : d;
}
