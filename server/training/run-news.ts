// News that a training run was queued, for idle trainer workers: on PostgreSQL the transaction that queues a run
// sends a NOTIFY, which PostgreSQL delivers to every listening process at its commit (never on rollback), so a
// worker in any process starts the run at once instead of at its next poll. A hint, never the truth: a worker
// that hears it claims through the run lifecycle as after any poll, and lost news costs one poll. On SQLite (one
// process; a transaction's news would arrive before its commit) the poll is the path.
import pg from "pg";
import { pgPoolConfig } from "@/server/db/adapters";
import { targetOf, type Database, type Db, type Tx } from "@/server/db/client";
import { createNotifyChannel, notifyPayload, type NotifyChannel } from "@/server/db/notify-channel";

const CHANNEL = "lightgate_run_queued";

type Listener = (runId: string) => void;
const news = new WeakMap<Database, { listeners: Set<Listener>; channel: NotifyChannel }>();

/** Calls `fn` with the id of every run queued (by any process) while subscribed; returns the unsubscribe. */
export function onRunQueued(database: Database, fn: Listener): () => void {
  const target = database.target;
  if (target.dialect !== "postgresql") return () => {};
  let n = news.get(database);
  if (!n) {
    const { max: _max, ...config } = pgPoolConfig(target);
    const listeners = new Set<Listener>();
    const channel = createNotifyChannel({
      channel: CHANNEL,
      notify: async () => {}, // only transactions announce runs (announceQueuedRun)
      connect: () => new pg.Client(config),
      deliver: (ids) => ids.forEach((id) => listeners.forEach((l) => l(id))),
    });
    news.set(database, (n = { listeners, channel }));
    channel.listen();
  }
  const current = n;
  current.listeners.add(fn);
  return () => {
    current.listeners.delete(fn);
    if (current.listeners.size > 0 || news.get(database) !== current) return;
    news.delete(database);
    void current.channel.close();
  };
}

/** Inside the transaction that queues `runId` (run lifecycle): heard by the listeners when, and if, it commits. */
export async function announceQueuedRun(client: Db | Tx, runId: string): Promise<void> {
  if (targetOf(client)?.dialect !== "postgresql") return;
  await client.$executeRaw`SELECT pg_notify(${CHANNEL}, ${notifyPayload(runId)})`;
}
