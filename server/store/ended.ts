// In-process news that a rollout may have ended (an attempt or the rollout itself left the running states) or
// that its canary outcome was verified, for whoever in this process waits on rollouts — the gate orchestrator
// wakes on it instead of waiting out its poll.
// A hint, never the truth: listeners re-read the database, and changes made through another process arrive by
// their own polling.
import type { Database } from "@/server/db/client";

type Listener = (rolloutId: string) => void;
const listeners = new WeakMap<Database, Set<Listener>>();

/** Calls `fn` with the id of every rollout this process saw end or verified; returns the unsubscribe. */
export function onRolloutEnded(database: Database, fn: Listener): () => void {
  let set = listeners.get(database);
  if (!set) listeners.set(database, (set = new Set()));
  set.add(fn);
  return () => set.delete(fn);
}

export function rolloutEnded(database: Database, rolloutId: string): void {
  for (const fn of listeners.get(database) ?? []) {
    try {
      fn(rolloutId);
    } catch {
      // A listener's failure is its own; the store's write has happened.
    }
  }
}

/** A verification was recorded for this rollout: the gate run judging its canary may move on. */
export const rolloutVerified = rolloutEnded;
