// The store of this server process: one store over the process-wide database, its HTTP handler, and the
// background watchdog timer (started from instrumentation.ts). Kept on globalThis so Next.js route bundles
// and instrumentation share one instance.
import { getDatabase } from "@/server/db/client";
import { anonymousAllowed } from "./http/auth";
import type { StoreHandler } from "./http/exchange";
import { createStoreHandler } from "./http/handler";
import { toWebHandler } from "./http/exchange";
import { createStore, type LightningStore } from "./index";

/** `serve` is the store API for the node:http fast path; `handle` the same as a web handler (Next.js routes). */
type Runtime = { store: LightningStore; serve: StoreHandler; handle: (r: Request) => Promise<Response>; timer?: ReturnType<typeof setInterval>; retention?: ReturnType<typeof setInterval> };
const g = globalThis as unknown as { lightgateStore?: Promise<Runtime> };

export function getStoreRuntime(): Promise<Runtime> {
  g.lightgateStore ??= (async () => {
    const database = await getDatabase();
    const store = createStore(database);
    const serve = createStoreHandler({ store, db: database.db, allowAnonymous: anonymousAllowed(process.env) });
    return { store, serve, handle: toWebHandler(serve) };
  })();
  return g.lightgateStore;
}

/** Runs the watchdog every `LIGHTGATE_WATCHDOG_MS` (default 5 s), so a stuck attempt is found even when nobody calls the store. */
export async function startStoreBackground(): Promise<() => void> {
  const rt = await getStoreRuntime();
  if (!rt.timer) {
    const every = Math.max(250, Number(process.env.LIGHTGATE_WATCHDOG_MS ?? 5_000) || 5_000);
    let running = false;
    rt.timer = setInterval(() => {
      if (running) return;
      running = true;
      rt.store
        .scanWatchdog()
        .catch((e: unknown) => console.error("store watchdog:", (e as Error).message))
        .finally(() => (running = false));
    }, every);
    rt.timer.unref(); // never keeps the process alive on its own
    const retention = Number(process.env.LIGHTGATE_RETENTION_SECONDS ?? 0);
    if (retention > 0) {
      // Finished rollouts older than the configured age go, hourly; held ones (receipts) never do.
      rt.retention = setInterval(() => void rt.store.pruneFinishedRollouts(retention).catch((e: unknown) => console.error("store retention:", (e as Error).message)), 3_600_000);
      rt.retention.unref();
    }
  }
  const stop = () => {
    if (rt.timer) clearInterval(rt.timer);
    if (rt.retention) clearInterval(rt.retention);
    rt.timer = rt.retention = undefined;
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  return stop;
}
