// News of ids between the processes of one PostgreSQL database (LISTEN/NOTIFY): that rollouts ended (the store,
// so a gate run stepped by one process moves on when a runner's attempt ends on another) and that training runs
// were queued (so an idle trainer worker starts one at once instead of at its next poll). Always a hint: listeners
// re-read the database. `publish` sends NOTIFY in a statement of its own after the write has committed, coalesced
// over a few milliseconds — a NOTIFY inside the store queue's transactions would take PostgreSQL's notify-queue
// lock at each of their commits and serialize them. Rare writers (a run queued) may instead NOTIFY inside their
// own transaction, which PostgreSQL delivers at its commit only (`notifyPayload`).
import { randomUUID } from "node:crypto";
import type pg from "pg";

/** NOTIFY payloads must stay under 8,000 bytes. */
const PAYLOAD_MAX = 7_800;
const FLUSH_MS = 10;
const RECONNECT_MS = 1_000;

export type NotifyChannel = {
  /** Tells the other processes about this id (sent within FLUSH_MS, together with others). */
  publish(id: string): void;
  /** Starts hearing the other processes (idempotent); `deliver` gets the ids they published. */
  listen(): void;
  close(): Promise<void>;
};

/**
 * `channel`: a fixed identifier (LISTEN takes no parameter). `notify(channel, payload)` sends one NOTIFY on a
 * connection of the caller's (the store's pool, autocommit); `connect()` opens the dedicated connection LISTEN needs.
 */
export function createNotifyChannel(o: {
  channel: string;
  notify: (channel: string, payload: string) => Promise<unknown>;
  connect: () => pg.Client;
  deliver: (ids: string[]) => void;
}): NotifyChannel {
  const CHANNEL = o.channel;
  if (!/^[a-z_]+$/.test(CHANNEL)) throw new Error(`channel: lower-case letters and _ only, not ${CHANNEL}`);
  const origin = randomUUID().slice(0, 8); // this channel's own messages come back to it: skipped
  let pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let listener: pg.Client | null = null;
  let listening = false;
  let closed = false;

  const flush = () => {
    timer = null;
    const ids = [...pending];
    pending = new Set();
    for (const payload of payloads(origin, ids)) void o.notify(CHANNEL, payload).catch(() => {}); // a lost hint costs one poll
  };

  const connect = () => {
    if (closed || !listening) return;
    const client = o.connect();
    listener = client;
    const retry = (e?: unknown) => {
      if (listener !== client) return;
      listener = null;
      void client.end().catch(() => {});
      if ((e as { code?: string } | undefined)?.code === "3D000") return; // the database is gone (dropped): nothing to hear
      const t = setTimeout(connect, RECONNECT_MS);
      t.unref();
    };
    client.on("error", retry);
    client.on("end", () => retry());
    client.on("notification", (n) => {
      if (n.channel !== CHANNEL || !n.payload) return;
      const [from, list] = [n.payload.slice(0, n.payload.indexOf("|")), n.payload.slice(n.payload.indexOf("|") + 1)];
      if (from !== origin && list) o.deliver(list.split(","));
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${CHANNEL}`))
      .then(() => (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.()) // never keeps a process alive
      .catch(retry);
  };

  return {
    publish(id) {
      if (closed) return;
      pending.add(id);
      if (!timer) {
        timer = setTimeout(flush, FLUSH_MS);
        timer.unref();
      }
    },
    listen() {
      if (listening || closed) return;
      listening = true;
      connect();
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const client = listener;
      listener = null;
      await client?.end().catch(() => {});
    },
  };
}

/** A message from outside any channel (`notifyPayload`): no origin, so every listener hears it. */
const NO_ORIGIN = "-";

/** `origin|id,id,…` messages, each under the payload limit. */
export function payloads(origin: string, ids: string[]): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let size = origin.length + 1;
  for (const id of ids) {
    if (!/^[\w.:-]{1,200}$/.test(id)) continue; // the separators never appear in an id; anything odd is left to polling
    if (current.length && size + id.length + 1 > PAYLOAD_MAX) {
      out.push(`${origin}|${current.join(",")}`);
      current = [];
      size = origin.length + 1;
    }
    current.push(id);
    size += id.length + 1;
  }
  if (current.length) out.push(`${origin}|${current.join(",")}`);
  return out;
}

/** The payload a transaction sends with `SELECT pg_notify(channel, payload)`, delivered at its commit. */
export function notifyPayload(id: string): string {
  return `${NO_ORIGIN}|${id}`;
}
