// Pure figures of an external (Agent Lightning) training's versions: rates that say "unknown" rather than 0
// when nothing was counted, throughput over a version's window, and each figure beside the previous
// version's with its change. Shared by the server (server/training/external/) and the page.

/** n / d, or null when there is nothing to divide by (a version with no finished rollout has no failure rate). */
export function rate(n: number, d: number): number | null {
  return d > 0 ? n / d : null;
}

/** The change from `previous` to `current`; null when either is unknown (never a made-up 0). */
export function delta(current: number | null, previous: number | null): number | null {
  return current === null || previous === null ? null : current - previous;
}

/**
 * Rollouts per minute over a window of epoch seconds. A window shorter than a second counts as one second,
 * so a burst written in one instant reads as fast rather than infinite; null with no window or no rollout.
 */
export function perMinute(count: number, fromSeconds: number | null, toSeconds: number | null): number | null {
  if (fromSeconds === null || toSeconds === null || count === 0) return null;
  return (count * 60) / Math.max(1, toSeconds - fromSeconds);
}

export type Compared<T> = { value: T; previous: T | null; delta: number | null };

/** Each figure of each version beside the same figure of the version before it (the first has none). */
export function comparedToPrevious<K extends string>(rows: readonly Record<K, number | null>[], keys: readonly K[]): Record<K, Compared<number | null>>[] {
  return rows.map((row, i) => {
    const prev = i > 0 ? rows[i - 1]! : null;
    const out = {} as Record<K, Compared<number | null>>;
    for (const k of keys) out[k] = { value: row[k], previous: prev ? prev[k] : null, delta: prev ? delta(row[k], prev[k]) : null };
    return out;
  });
}

/** Bucket width (seconds) so a time range draws as at most `maxPoints` points, never below `minSeconds`. */
export function bucketSeconds(rangeSeconds: number, maxPoints = 200, minSeconds = 1): number {
  if (!(rangeSeconds > 0)) return minSeconds;
  return Math.max(minSeconds, Math.ceil(rangeSeconds / maxPoints));
}
