// Who served a gate rollout, and whether what it served may count. The gate asks runners for its exam; a
// result counts only when a runner identity served it that had no hand in the candidate (issue 23: the
// learner must never sit its own exam). Pure: the caller reads the attempt's `served_by`, that key's role
// and the identities separation of duties excludes (server/receipts/duties.ts).

/** The identity an attempt records as having started it, and its API key's role (null: not a key we hold). */
export type ServedBy = { identity: string | null; role: string | null };

/** The role whose keys serve the gate's exam (lib/auth/scopes.ts). */
export const EXAM_SERVER_ROLE = "runner";

/**
 * Why a result served by `served` does not count (a sentence starting "served by …"), or null when it counts.
 * `excluded` maps each identity separation of duties excludes to what it did ("declared this candidate").
 */
export function servingDisqualification(served: ServedBy, excluded: ReadonlyMap<string, string>): string | null {
  const who = served.identity;
  if (who === null || who === "") return "served by no recorded identity (the attempt names none)";
  const did = excluded.get(who);
  if (did) return `served by ${who}, which ${did}`;
  if (served.role === null) return `served by ${who}, which is not a runner (not an API key)`;
  if (served.role !== EXAM_SERVER_ROLE) return `served by ${who}, which is not a runner (its role is ${served.role})`;
  return null;
}

/** One identity's share of a set of served gate rollouts: what the candidate page lists. */
export type ServerShare = { identity: string; rollouts: number; counted: boolean; reason: string | null };

/** The identities that served `results` (served: `servedBy` present, null when none was recorded), most rollouts first. */
export function servingShares(results: readonly { servedBy?: string | null; notCounted?: string | null }[]): ServerShare[] {
  const by = new Map<string, ServerShare>();
  for (const r of results) {
    if (r.servedBy === undefined) continue; // never started: nobody served it
    const identity = r.servedBy ?? "(none recorded)";
    const share = by.get(identity) ?? { identity, rollouts: 0, counted: true, reason: null };
    share.rollouts += 1;
    if (r.notCounted) {
      share.counted = false;
      share.reason ??= r.notCounted;
    }
    by.set(identity, share);
  }
  return [...by.values()].sort((a, b) => b.rollouts - a.rollouts || a.identity.localeCompare(b.identity));
}
