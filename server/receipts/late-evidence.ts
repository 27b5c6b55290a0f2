// Late evidence: an admitted rollout whose store state (spans, attempts, status, end) moved on after stage 2 was
// sealed with its rollup. The gate core marks checks 2 and 3 stale on it (freshness.ts); a gate re-run seals a
// new stage 2 from the store as it now is. One indexed read per 500 admitted rollouts.
import type { Db, Tx } from "@/server/db/client";
import type { LateEvidence } from "@/server/gate/freshness";
import type { Stage2 } from "@/server/gate/receipt/stage2";
import { HEAD_COLUMNS, sourceKeyOf, type RolloutHead } from "./rollups";

function describe(sealed: string, head: RolloutHead): string {
  const [spans, attempts, status, end] = sealed.split("|");
  const changes: string[] = [];
  if (Number(attempts) !== head.attemptCount) changes.push(`attempts ${attempts} → ${head.attemptCount}`);
  if (status !== head.status) changes.push(`status ${status} → ${head.status}`);
  if (Number(spans) !== head.spanSeq) changes.push("new spans");
  if (!changes.length && end !== String(head.endTime ?? "")) changes.push("end time changed");
  return changes.join(", ") || "changed";
}

export async function lateEvidenceOf(db: Db | Tx, stage2: Stage2 | undefined): Promise<LateEvidence[]> {
  const sealed = new Map((stage2?.rollouts ?? []).filter((r) => r.source).map((r) => [r.rolloutId, r.source!]));
  if (sealed.size === 0) return [];
  const ids = [...sealed.keys()];
  const heads = new Map<string, RolloutHead>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const h of await db.storeRollout.findMany({ where: { rolloutId: { in: ids.slice(i, i + 500) } }, select: HEAD_COLUMNS })) heads.set(h.rolloutId, h);
  }
  const late: LateEvidence[] = [];
  for (const [rolloutId, source] of sealed) {
    const head = heads.get(rolloutId);
    if (!head) late.push({ rolloutId, change: "gone from the store" });
    else if (sourceKeyOf(head) !== source) late.push({ rolloutId, change: describe(source, head) });
  }
  return late;
}
