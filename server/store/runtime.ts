// The store of this server process: one store over the process-wide database, its HTTP handler, and the
// background work (the watchdog timer and retention, started from instrumentation.ts). Kept on globalThis so
// Next.js route bundles and instrumentation share one instance. With several processes on one PostgreSQL,
// only the leader (leadership.ts: an advisory lock) runs the background work and the lazy watchdog scan.
import { getDatabase } from "@/server/db/client";
import { startAuditHeadExport } from "@/server/audit/head-export";
import { anonymousAllowed } from "./http/auth";
import type { StoreHandler } from "./http/exchange";
import { createStoreHandler } from "./http/handler";
import { toWebHandler } from "./http/exchange";
import { createStore, type LightningStore } from "./index";
import { createLeadership, type Leadership } from "./leadership";

/** `serve` is the store API for the node:http fast path; `handle` the same as a web handler (Next.js routes). */
type Runtime = {
  store: LightningStore;
  serve: StoreHandler;
  handle: (r: Request) => Promise<Response>;
  leadership: Leadership;
  timer?: ReturnType<typeof setInterval>;
  retention?: ReturnType<typeof setInterval>;
  stopHeadExport?: () => void;
};
const g = globalThis as unknown as { lightgateStore?: Promise<Runtime> };

export function getStoreRuntime(): Promise<Runtime> {
  g.lightgateStore ??= (async () => {
    const database = await getDatabase();
    const leadership = createLeadership(database.target, (leader) =>
      console.log(leader ? `store background: process ${process.pid} leads the watchdog and retention` : `store background: process ${process.pid} is no longer the leader`),
    );
    const store = createStore(database, {
      leader: leadership.held,
      onVerdict: (v) => console.log(`store watchdog: ${v.rollout_id}/${v.attempt_id} → ${v.status} (process ${process.pid})`),
    });
    const serve = createStoreHandler({ store, db: database.db, audit: database, allowAnonymous: anonymousAllowed(process.env) });
    return { store, serve, handle: toWebHandler(serve), leadership };
  })();
  return g.lightgateStore;
}

/** How often retention runs for a given age: a sixth of it, between 5 seconds and an hour. */
export const retentionEveryMs = (retentionSeconds: number) => Math.min(3_600_000, Math.max(5_000, (retentionSeconds * 1000) / 6));

/**
 * Every `LIGHTGATE_WATCHDOG_MS` (default 5 s) this process tries to be (or stay) the leader and, if it is,
 * runs the watchdog, so a stuck attempt is found even when nobody calls the store; retention
 * (`LIGHTGATE_RETENTION_SECONDS`) every sixth of that age on the leader alone.
 */
export async function startStoreBackground(): Promise<() => void> {
  const rt = await getStoreRuntime();
  if (!rt.timer) {
    const every = Math.max(250, Number(process.env.LIGHTGATE_WATCHDOG_MS ?? 5_000) || 5_000);
    let running = false;
    const tick = () => {
      if (running) return;
      running = true;
      rt.leadership
        .acquire()
        .then((leader) => (leader ? rt.store.scanWatchdog() : 0))
        .catch((e: unknown) => console.error("store watchdog:", (e as Error).message))
        .finally(() => (running = false));
    };
    rt.timer = setInterval(tick, every);
    rt.timer.unref(); // never keeps the process alive on its own
    tick(); // take leadership now, not one interval later
    // The audit log's signed heads, copied out of the database on the same leader (server/audit/head-export.ts).
    rt.stopHeadExport = startAuditHeadExport(await getDatabase(), rt.leadership);
    const retention = Number(process.env.LIGHTGATE_RETENTION_SECONDS ?? 0);
    if (retention > 0) {
      // Finished rollouts older than the configured age go; held ones (receipts) never do. A pass every sixth
      // of the age keeps no more than about 7/6 of the age's worth of finished rollouts stored.
      let pruning = false;
      const prune = async () => {
        if (pruning || !(await rt.leadership.acquire())) return;
        pruning = true;
        try {
          const out = await rt.store.pruneFinishedRollouts(retention);
          if (out.rollouts > 0) console.log(`store retention: deleted ${out.rollouts} finished rollouts older than ${retention} s (${out.attempts} attempts, ${out.spans} spans)`);
        } finally {
          pruning = false;
        }
      };
      rt.retention = setInterval(() => void prune().catch((e: unknown) => console.error("store retention:", (e as Error).message)), retentionEveryMs(retention));
      rt.retention.unref();
    }
  }
  const stop = () => {
    if (rt.timer) clearInterval(rt.timer);
    if (rt.retention) clearInterval(rt.retention);
    rt.stopHeadExport?.();
    rt.timer = rt.retention = rt.stopHeadExport = undefined;
    void rt.leadership.release();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  return stop;
}
