// News a transaction sends at its commit: `pg_notify` inside it, which PostgreSQL delivers to every listening
// process when — and only if — the transaction commits. For rare writes that queue work (a training run, a gate
// run), so an idle loop in any process starts it at once instead of at its next poll. Always a hint: a listener
// re-reads the database, and lost news costs one poll. On SQLite (one process; news sent inside a transaction would
// arrive before its commit) the loops' polls are the path.
import pg from "pg";
import { pgPoolConfig } from "./adapters";
import { targetOf, type Database, type Db, type Tx } from "./client";
import { createNotifyChannel, notifyPayload, type NotifyChannel } from "./notify-channel";

export type CommitNews = {
  /** Inside the transaction that queues `id`: heard by the listeners when, and if, it commits. */
  announce(client: Db | Tx, id: string): Promise<void>;
  /** Calls `fn` with every id announced (by any process) while subscribed; returns the unsubscribe. */
  listen(database: Database, fn: (id: string) => void): () => void;
};

export function commitNews(channel: string): CommitNews {
  const news = new WeakMap<Database, { listeners: Set<(id: string) => void>; channel: NotifyChannel }>();
  return {
    async announce(client, id) {
      if (targetOf(client)?.dialect !== "postgresql") return;
      await client.$executeRaw`SELECT pg_notify(${channel}, ${notifyPayload(id)})`;
    },
    listen(database, fn) {
      const target = database.target;
      if (target.dialect !== "postgresql") return () => {};
      let n = news.get(database);
      if (!n) {
        const { max: _max, ...config } = pgPoolConfig(target);
        const listeners = new Set<(id: string) => void>();
        const notify = createNotifyChannel({
          channel,
          notify: async () => {}, // only transactions announce (announce)
          connect: () => new pg.Client(config),
          deliver: (ids) => ids.forEach((id) => listeners.forEach((l) => l(id))),
        });
        news.set(database, (n = { listeners, channel: notify }));
        notify.listen();
      }
      const current = n;
      current.listeners.add(fn);
      return () => {
        current.listeners.delete(fn);
        if (current.listeners.size > 0 || news.get(database) !== current) return;
        news.delete(database);
        void current.channel.close();
      };
    },
  };
}
