// News that rollouts ended, between the processes of one PostgreSQL database (LISTEN/NOTIFY), so a gate run
// stepped by one process moves on when a runner's attempt ends on another, instead of waiting out its poll.
// Like ended.ts, a hint: listeners re-read the database. NOTIFY is sent in a statement of its own after the
// store's write has committed, coalesced over a few milliseconds: a NOTIFY inside the queue's transactions
// would take PostgreSQL's notify-queue lock at each of their commits and serialize them.
import { randomUUID } from "node:crypto";
import type pg from "pg";

const CHANNEL = "lightgate_rollout_ended";
/** NOTIFY payloads must stay under 8,000 bytes. */
const PAYLOAD_MAX = 7_800;
const FLUSH_MS = 10;
const RECONNECT_MS = 1_000;

export type EndedChannel = {
  /** Tells the other processes this rollout ended (sent within FLUSH_MS, together with others). */
  publish(rolloutId: string): void;
  /** Starts hearing the other processes (idempotent); `deliver` gets the ids they published. */
  listen(): void;
  close(): Promise<void>;
};

/**
 * `notify(channel, payload)` sends one NOTIFY on a connection of the caller's (the store's pool, autocommit);
 * `connect()` opens the dedicated connection LISTEN needs.
 */
export function createEndedChannel(o: { notify: (channel: string, payload: string) => Promise<unknown>; connect: () => pg.Client; deliver: (ids: string[]) => void }): EndedChannel {
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
    publish(rolloutId) {
      if (closed) return;
      pending.add(rolloutId);
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
