// Small, locale-stable formatters for times, durations and numbers used across the dashboard.

/** "3 s ago", "5 min ago", "2 h ago", "Nov 12" — from epoch seconds or a Date. */
export function relativeTime(at: number | Date | null | undefined, now = Date.now()): string {
  if (at === null || at === undefined) return "—";
  const ms = at instanceof Date ? at.getTime() : at * 1000;
  const s = Math.round((now - ms) / 1000);
  if (s < 0) return "just now";
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(ms).toLocaleDateString("en", { month: "short", day: "numeric" });
}

/** "850 ms", "12.4 s", "3 min 05 s", "2 h 10 min". */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "—";
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${String(Math.floor(seconds % 60)).padStart(2, "0")} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

export function timestamp(at: number | Date | null | undefined): string {
  if (at === null || at === undefined) return "—";
  const d = at instanceof Date ? at : new Date(at * 1000);
  return d.toISOString().replace("T", " ").slice(0, 19) + " UTC";
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
