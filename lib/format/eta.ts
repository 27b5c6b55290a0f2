// An ETA as a person reads it: "about 30 min (20–45)" — the central estimate and the range the recent pace
// allows, rounded to steps that do not pretend to more precision than the range has (server/training/eta.ts
// computes the figures). Pure.

type Unit = { name: string; seconds: number; step: number };

/** The unit and rounding step for a central estimate of `seconds`. */
function unitFor(seconds: number): Unit {
  if (seconds < 90) return { name: "s", seconds: 1, step: seconds < 20 ? 1 : 5 };
  if (seconds < 10 * 60) return { name: "min", seconds: 60, step: 1 };
  if (seconds < 90 * 60) return { name: "min", seconds: 60, step: 5 };
  if (seconds < 10 * 3600) return { name: "h", seconds: 3600, step: 0.5 };
  return { name: "h", seconds: 3600, step: 1 };
}

const roundTo = (x: number, step: number, how: (v: number) => number) => how(x / step) * step;
const show = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

/** "about 30 min (20–45)"; "about 4 min" when the range rounds to one value; "finishing" at 0. */
export function etaText(eta: { seconds: number; low: number; high: number }): string {
  if (eta.seconds <= 0) return "finishing";
  const u = unitFor(eta.seconds);
  const mid = Math.max(u.step, roundTo(eta.seconds / u.seconds, u.step, Math.round));
  const low = Math.min(mid, roundTo(Math.max(0, eta.low) / u.seconds, u.step, Math.floor));
  const high = Math.max(mid, roundTo(eta.high / u.seconds, u.step, Math.ceil));
  const range = low === high ? "" : ` (${show(low)}–${show(high)})`;
  return `about ${show(mid)} ${u.name}${range}`;
}
