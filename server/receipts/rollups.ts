// Per-rollout evidence rollups kept beside the store. A rollout's rollup (span families per attempt, attempt
// reasons, final reward) is recomputed only when what it was computed from changed (span sequence, attempts,
// status, end time), so the gate reads O(rollouts) rows and never scans spans per request.
import type { Database, Db, Tx } from "@/server/db/client";
import { rollupRollout, type StoreAttempt, type StoreSpan } from "@/server/gate/evidence/spans";
import type { RolloutRollup, Stage2 } from "@/server/gate/receipt/stage2";
import type { VersionSet } from "@/server/gate/versions";

const CHUNK = 200;

type RolloutHead = { rolloutId: string; status: string; mode: string | null; startTime: number; endTime: number | null; spanSeq: number; attemptCount: number; resourcesId: string | null };

const sourceKeyOf = (r: RolloutHead) => `${r.spanSeq}|${r.attemptCount}|${r.status}|${r.endTime ?? ""}`;

async function computeRollups(db: Db | Tx, heads: readonly RolloutHead[]): Promise<Map<string, RolloutRollup>> {
  const ids = heads.map((h) => h.rolloutId);
  const [attempts, spans] = await Promise.all([
    db.storeAttempt.findMany({ where: { rolloutId: { in: ids } } }),
    db.storeSpan.findMany({ where: { rolloutId: { in: ids } }, select: { rolloutId: true, attemptId: true, sequenceId: true, name: true, endTime: true, body: true } }),
  ]);
  const attemptsBy = new Map<string, StoreAttempt[]>();
  for (const a of attempts) {
    const list = attemptsBy.get(a.rolloutId) ?? [];
    list.push({
      rollout_id: a.rolloutId,
      attempt_id: a.attemptId,
      sequence_id: a.sequenceId,
      status: a.status as StoreAttempt["status"],
      worker_id: a.workerId,
      start_time: a.startTime,
      end_time: a.endTime,
      reason: a.reason as StoreAttempt["reason"],
    });
    attemptsBy.set(a.rolloutId, list);
  }
  const spansBy = new Map<string, StoreSpan[]>();
  for (const s of spans) {
    const body = JSON.parse(s.body) as { attributes?: Record<string, unknown> };
    const list = spansBy.get(s.rolloutId) ?? [];
    list.push({ rollout_id: s.rolloutId, attempt_id: s.attemptId, sequence_id: s.sequenceId, name: s.name, attributes: body.attributes ?? {}, end_time: s.endTime });
    spansBy.set(s.rolloutId, list);
  }
  const out = new Map<string, RolloutRollup>();
  for (const h of heads) {
    const rollout = { rollout_id: h.rolloutId, mode: h.mode as RolloutRollup["mode"], status: h.status as RolloutRollup["status"], end_time: h.endTime };
    out.set(h.rolloutId, rollupRollout(rollout, attemptsBy.get(h.rolloutId) ?? [], spansBy.get(h.rolloutId) ?? []));
  }
  return out;
}

/** Brings the rollups of every rollout that ran `resourcesId` up to date; returns how many were recomputed. */
export async function refreshRollups(database: Database, resourcesId: string): Promise<number> {
  const heads: RolloutHead[] = await database.db.storeRollout.findMany({
    where: { resourcesId },
    select: { rolloutId: true, status: true, mode: true, startTime: true, endTime: true, spanSeq: true, attemptCount: true, resourcesId: true },
  });
  const known = new Map((await database.db.rolloutRollup.findMany({ where: { resourcesId }, select: { rolloutId: true, sourceKey: true } })).map((r) => [r.rolloutId, r.sourceKey]));
  const stale = heads.filter((h) => known.get(h.rolloutId) !== sourceKeyOf(h));
  for (let i = 0; i < stale.length; i += CHUNK) {
    const chunk = stale.slice(i, i + CHUNK);
    const rollups = await computeRollups(database.db, chunk);
    const now = new Date();
    await database.transaction(async (tx) => {
      await tx.rolloutRollup.deleteMany({ where: { rolloutId: { in: chunk.map((h) => h.rolloutId) } } });
      await tx.rolloutRollup.createMany({
        data: chunk.map((h) => ({ rolloutId: h.rolloutId, resourcesId: h.resourcesId, sourceKey: sourceKeyOf(h), rollup: JSON.stringify(rollups.get(h.rolloutId)), startTime: h.startTime, computedAt: now })),
      });
    });
  }
  return stale.length;
}

/** The stored rollups of every rollout that ran `resourcesId`, in start order. */
export async function readRollups(db: Db | Tx, resourcesId: string): Promise<RolloutRollup[]> {
  const rows = await db.rolloutRollup.findMany({ where: { resourcesId }, orderBy: [{ startTime: "asc" }, { rolloutId: "asc" }], select: { rollup: true } });
  return rows.map((r) => JSON.parse(r.rollup) as RolloutRollup);
}

type Window = { from: string; to: string };
const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();

function windowOf(rollouts: readonly RolloutRollup[], fallback: Date): Window {
  const starts = rollouts.flatMap((r) => r.attempts.map((a) => a.startTime));
  const ends = rollouts.map((r) => r.endTime ?? 0).filter((t) => t > 0);
  if (!starts.length) return { from: fallback.toISOString(), to: fallback.toISOString() };
  return { from: iso(Math.min(...starts)), to: iso(Math.max(...ends, ...starts)) };
}

/** Stage 2 of a candidate from the store: fresh rollups of the rollouts that ran it, with the versions in force. */
export async function stage2FromStore(database: Database, resourcesId: string, versions: VersionSet, now: Date = new Date()): Promise<Stage2> {
  await refreshRollups(database, resourcesId);
  const rollouts = await readRollups(database.db, resourcesId);
  const training = windowOf(rollouts.filter((r) => r.mode !== "val" && r.mode !== "test"), now);
  const validation = windowOf(rollouts.filter((r) => r.mode === "val"), now);
  const all = windowOf(rollouts, now);
  return { windows: { training, validation }, dataCutoff: all.to, rollouts, versions };
}
