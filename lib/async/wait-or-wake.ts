/**
 * Sleeps `ms`, or less: until `signal` aborts or the wake function handed to `onWake` is called (it is handed
 * null again once the wait is over, so news arriving between waits finds nobody to wake and the caller's own
 * flag must catch it). The idle loops' wait: a poll as the fallback, news as the fast path.
 */
export function waitOrWake(ms: number, signal: AbortSignal, onWake: (wake: (() => void) | null) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      onWake(null);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    onWake(done);
  });
}
