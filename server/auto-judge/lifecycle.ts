// What becomes of a version published under a judged resources id, in one place: its states, the events that move
// it and the only code that writes `auto_judge_versions.state` — `recordSeen` (every version starts waiting) and
// `moveVersions` (a compare-and-set on the state each event starts from, so two processes never move one twice).
// A state write anywhere else fails tests/unit/auto-judge/state-writers.test.ts.
import type { Tx } from "@/server/db/client";

export const VERSION_STATES = ["waiting", "judging", "judged", "coalesced", "unjudgeable"] as const;
export type VersionState = (typeof VERSION_STATES)[number];

/**
 * The machine. The newest waiting version is claimed (judging) once none is open, and the ones before it are
 * coalesced into it; a judging version is judged when its gate run ended, or unjudgeable when it cannot be declared
 * or its claim lapsed before a gate run was asked for; turning the setting off closes what still waits.
 */
export const VERSION_RULES = {
  claim: { from: ["waiting"], to: "judging" },
  coalesce: { from: ["waiting"], to: "coalesced" },
  judged: { from: ["judging"], to: "judged" },
  cannotJudge: { from: ["judging"], to: "unjudgeable" },
  close: { from: ["waiting"], to: "unjudgeable" },
} as const satisfies Record<string, { from: readonly VersionState[]; to: VersionState }>;
export type VersionEvent = keyof typeof VERSION_RULES;

type Key = { agent: string; resourcesId: string };
type Which = { version: number } | { below: number } | "all";

/** Records versions as seen (waiting). */
export async function recordSeen(tx: Tx, key: Key, versions: readonly { version: number; digest: string }[], now: Date): Promise<void> {
  for (const v of versions) await tx.autoJudgeVersion.create({ data: { ...key, version: v.version, digest: v.digest, seenAt: now, state: "waiting", updatedAt: now } });
}

/** Moves the versions `which` names that are in the event's from-state; how many moved. */
export async function moveVersions(tx: Tx, key: Key, which: Which, event: VersionEvent, detail: { reason?: string; coalescedInto?: number; now: Date }): Promise<number> {
  const rule = VERSION_RULES[event];
  const version = which === "all" ? {} : "version" in which ? { version: which.version } : { version: { lt: which.below } };
  const moved = await tx.autoJudgeVersion.updateMany({
    where: { ...key, ...version, state: { in: [...rule.from] } },
    data: { state: rule.to, updatedAt: detail.now, ...(detail.reason === undefined ? {} : { reason: detail.reason.slice(0, 2000) }), ...(detail.coalescedInto === undefined ? {} : { coalescedInto: detail.coalescedInto }) },
  });
  return moved.count;
}
