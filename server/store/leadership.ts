// Which process runs the store's background work (the watchdog timer and retention) when several Lightgate
// processes share one PostgreSQL: the one holding a session-level advisory lock (`pg_try_advisory_lock`) on
// its own connection. The lock lives as long as that connection: a leader that dies (even by SIGKILL) drops
// it with its socket, and another process takes it on its next try. SQLite serves one process: always leader.
import pg from "pg";
import { pgPoolConfig } from "@/server/db/adapters";
import type { DbTarget } from "@/server/db/config";

export type Leadership = {
  /** Tries to become (or stay) leader; true while this process holds the lock. */
  acquire(): Promise<boolean>;
  /** Whether this process held the lock at the last try (no I/O: for hot paths). */
  held(): boolean;
  release(): Promise<void>;
};

/** The lock's name; hashed by PostgreSQL to the bigint key (the same way the audit sections name theirs). */
export const STORE_LEADER_LOCK = "lightgate.store.background";

export function createLeadership(target: DbTarget, onChange: (leader: boolean) => void = () => {}): Leadership {
  if (target.dialect === "sqlite") return { acquire: async () => true, held: () => true, release: async () => {} };
  const pgTarget = target; // narrowed for the closures below
  let client: pg.Client | null = null;
  let leader = false;
  let trying: Promise<boolean> | null = null;

  const lose = () => {
    client = null;
    if (leader) {
      leader = false;
      onChange(false);
    }
  };

  async function tryOnce(): Promise<boolean> {
    if (!client) {
      const { max: _max, ...config } = pgPoolConfig(pgTarget); // one connection of its own, not the pool's
      const c = new pg.Client({ ...config, keepAlive: true });
      c.on("error", () => lose()); // a lost connection lost the lock with it
      c.on("end", () => {
        if (client === c) lose();
      });
      await c.connect();
      client = c;
    }
    let ok = true;
    // Still ours? A round trip proves the session, and so the lock, is alive (a failure lands in acquire's catch).
    if (leader) await client.query("SELECT 1");
    else ok = Boolean((await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok", [STORE_LEADER_LOCK])).rows[0]?.ok);
    if (ok !== leader) {
      leader = ok;
      onChange(ok);
    }
    return ok;
  }

  return {
    acquire() {
      trying ??= tryOnce()
        .catch(() => {
          const stale = client;
          lose();
          void stale?.end().catch(() => {});
          return false;
        })
        .finally(() => (trying = null));
      return trying;
    },
    held: () => leader,
    async release() {
      const c = client;
      lose();
      await c?.end().catch(() => {}); // closing the session releases the lock
    },
  };
}
