// News that a rollout may have ended (an attempt or the rollout itself left the running states) or that its canary
// outcome was verified, for whoever waits on rollouts — the gate orchestrator wakes on it instead of waiting out
// its poll. Within a process directly; between the processes of one PostgreSQL database over LISTEN/NOTIFY
// (server/db/notify-channel.ts), started when this process first listens. A hint, never the truth: listeners re-read the
// database, and on SQLite (one server process) changes made by another process arrive by their own polling.
import pg from "pg";
import { pgPoolConfig } from "@/server/db/adapters";
import type { Database } from "@/server/db/client";
import { one } from "@/server/db/sql/program";
import { sqlRunnerFor } from "@/server/db/sql/runner";
import { createNotifyChannel, type NotifyChannel } from "@/server/db/notify-channel";

type Listener = (rolloutId: string) => void;
type News = { listeners: Set<Listener>; channel: NotifyChannel | null };
const news = new WeakMap<Database, News>();

function newsOf(database: Database): News {
  let n = news.get(database);
  if (!n) {
    const created: News = { listeners: new Set(), channel: null };
    const target = database.target;
    if (target.dialect === "postgresql") {
      const { max: _max, ...config } = pgPoolConfig(target);
      created.channel = createNotifyChannel({
        channel: "lightgate_rollout_ended",
        notify: (channel, payload) => sqlRunnerFor(database).read(() => one("SELECT pg_notify(?, ?)", [channel, payload])),
        connect: () => new pg.Client(config),
        deliver: (ids) => ids.forEach((id) => tell(created, id)),
      });
    }
    news.set(database, (n = created));
  }
  return n;
}

function tell(n: News, rolloutId: string): void {
  for (const fn of n.listeners) {
    try {
      fn(rolloutId);
    } catch {
      // A listener's failure is its own; the store's write has happened.
    }
  }
}

/** Calls `fn` with the id of every rollout seen to end or verified (on PostgreSQL by any process); returns the unsubscribe. */
export function onRolloutEnded(database: Database, fn: Listener): () => void {
  const n = newsOf(database);
  n.listeners.add(fn);
  n.channel?.listen();
  return () => n.listeners.delete(fn);
}

export function rolloutEnded(database: Database, rolloutId: string): void {
  const n = newsOf(database);
  tell(n, rolloutId);
  n.channel?.publish(rolloutId);
}

/** A verification was recorded for this rollout: the gate run judging its canary may move on. */
export const rolloutVerified = rolloutEnded;

/** Stops hearing other processes (the database is closing). */
export async function closeRolloutNews(database: Database): Promise<void> {
  await news.get(database)?.channel?.close();
  news.delete(database);
}
