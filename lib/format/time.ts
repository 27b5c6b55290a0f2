// Dates: pages show each time in the viewer's locale and zone (`localTimestamp`, via components/ui/time.tsx);
// sentences the server writes, receipts and hover texts use one unambiguous form, ISO-like UTC
// ("2026-03-02 17:00:05 UTC"); the relative time ("3 h ago", "in 2 d") is offered on hover.

export function timestamp(at: number | Date | string | null | undefined): string {
  if (at === null || at === undefined) return "—";
  const d = at instanceof Date ? at : typeof at === "string" ? new Date(at) : new Date(at * 1000);
  if (Number.isNaN(d.getTime())) return "—";
  return d.toISOString().replace("T", " ").slice(0, 19) + " UTC";
}

/** The viewer's own date and time format with their zone's name ("5 Dec 2026, 18:05:33 CET"); `locale`/`timeZone` for tests. */
export function localTimestamp(d: Date, locale?: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "long", timeZone }).format(d);
}

/** "3 s ago", "5 min ago", "2 h ago", "4 d ago", "in 3 d" — from epoch seconds, a Date or an ISO string. */
export function relativeTime(at: number | Date | string | null | undefined, now = Date.now()): string {
  if (at === null || at === undefined) return "—";
  const ms = at instanceof Date ? at.getTime() : typeof at === "string" ? Date.parse(at) : at * 1000;
  if (Number.isNaN(ms)) return "—";
  const s = Math.round((now - ms) / 1000);
  const future = s < 0;
  const a = Math.abs(s);
  const span = a < 60 ? `${a} s` : a < 3600 ? `${Math.floor(a / 60)} min` : a < 86_400 ? `${Math.floor(a / 3600)} h` : a < 86_400 * 60 ? `${Math.floor(a / 86_400)} d` : `${Math.floor(a / (86_400 * 30))} mo`;
  if (a < 5) return "just now";
  return future ? `in ${span}` : `${span} ago`;
}
