// Per-rollout evidence rollups kept beside the store. A rollout's rollup (span families per attempt, attempt
// reasons, final reward) is recomputed only when what it was computed from changed (span sequence, attempts,
// status, end time), so the gate reads O(rollouts) rows and never scans spans per request. Stage 2 admits
// the rollouts that ran the candidate (internal runs) or the windows its HTTP declaration names.
import type { Database, Db, Tx } from "@/server/db/client";
import { rollupRollout, type StoreAttempt, type StoreSpan } from "@/server/gate/evidence/spans";
import type { RolloutRollup, Stage2 } from "@/server/gate/receipt/stage2";
import type { VersionSet } from "@/server/gate/versions";
import { declarationOfCandidate, type DeclarationRecord } from "./declarations";
import { receiptHoldReason } from "./evidence-holds";
import { storeFor } from "@/server/store";

const CHUNK = 200;

export type RolloutHead = { rolloutId: string; status: string; mode: string | null; startTime: number; endTime: number | null; spanSeq: number; attemptCount: number; resourcesId: string | null };

/** What a rollup was computed from: any new span, attempt, status or end time changes it. */
export const sourceKeyOf = (r: RolloutHead) => `${r.spanSeq}|${r.attemptCount}|${r.status}|${r.endTime ?? ""}`;

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

export const HEAD_COLUMNS = { rolloutId: true, status: true, mode: true, startTime: true, endTime: true, spanSeq: true, attemptCount: true, resourcesId: true } as const;

/** Recomputes the rollups of `heads` whose stored source key (`known`) is not theirs; returns how many. */
async function refreshStale(database: Database, heads: readonly RolloutHead[], known: ReadonlyMap<string, string>): Promise<number> {
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

/** Brings the rollups of these rollouts up to date; returns how many were recomputed. */
export async function refreshRollupsOf(database: Database, heads: readonly RolloutHead[]): Promise<number> {
  const known = new Map<string, string>();
  for (let i = 0; i < heads.length; i += 500) {
    const ids = heads.slice(i, i + 500).map((h) => h.rolloutId);
    for (const r of await database.db.rolloutRollup.findMany({ where: { rolloutId: { in: ids } }, select: { rolloutId: true, sourceKey: true } })) known.set(r.rolloutId, r.sourceKey);
  }
  return refreshStale(database, heads, known);
}

/** Brings the rollups of every rollout that ran `resourcesId` up to date; returns how many were recomputed. */
export async function refreshRollups(database: Database, resourcesId: string): Promise<number> {
  const heads: RolloutHead[] = await database.db.storeRollout.findMany({ where: { resourcesId }, select: HEAD_COLUMNS });
  const known = new Map((await database.db.rolloutRollup.findMany({ where: { resourcesId }, select: { rolloutId: true, sourceKey: true } })).map((r) => [r.rolloutId, r.sourceKey]));
  return refreshStale(database, heads, known);
}

/** The stored rollups of every rollout that ran `resourcesId`, in start order. */
export async function readRollups(db: Db | Tx, resourcesId: string): Promise<RolloutRollup[]> {
  const rows = await db.rolloutRollup.findMany({ where: { resourcesId }, orderBy: [{ startTime: "asc" }, { rolloutId: "asc" }], select: { rollup: true, sourceKey: true } });
  return rows.map(withSource);
}

/** A stored rollup with the store state it was computed from (sealed with it, so later changes show). */
const withSource = (r: { rollup: string; sourceKey: string }): RolloutRollup => ({ ...(JSON.parse(r.rollup) as RolloutRollup), source: r.sourceKey });

type Window = { from: string; to: string };
const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();

function windowOf(rollouts: readonly RolloutRollup[], fallback: Date): Window {
  const starts = rollouts.flatMap((r) => r.attempts.map((a) => a.startTime));
  const ends = rollouts.map((r) => r.endTime ?? 0).filter((t) => t > 0);
  if (!starts.length) return { from: fallback.toISOString(), to: fallback.toISOString() };
  return { from: iso(Math.min(...starts)), to: iso(Math.max(...ends, ...starts)) };
}

/** The stored rollups of these rollouts, in start order. */
async function readRollupsOf(db: Db | Tx, rolloutIds: readonly string[]): Promise<RolloutRollup[]> {
  const rows: { rolloutId: string; startTime: number; rollup: string; sourceKey: string }[] = [];
  for (let i = 0; i < rolloutIds.length; i += 500) {
    rows.push(...(await db.rolloutRollup.findMany({ where: { rolloutId: { in: rolloutIds.slice(i, i + 500) } }, select: { rolloutId: true, startTime: true, rollup: true, sourceKey: true } })));
  }
  rows.sort((a, b) => a.startTime - b.startTime || (a.rolloutId < b.rolloutId ? -1 : a.rolloutId > b.rolloutId ? 1 : 0));
  return rows.map(withSource);
}

// A rollout the gate itself asked for (locked gate, canary, rollback probe) says so in its metadata.
const PHASE_KEY = "lightgate.phase";
function ranForTheGate(metadata: string | null): boolean {
  if (metadata === null || !metadata.includes(`"${PHASE_KEY}"`)) return false; // the common case, without a parse
  const parsed = JSON.parse(metadata) as unknown;
  return parsed !== null && typeof parsed === "object" && Object.hasOwn(parsed, PHASE_KEY);
}

/**
 * The rollouts a declared receipt admits to stage 2: train/val rollouts of no gate phase, started between
 * the declaration and the bind, that carry the receipt's tag (`lightgate.receipt`) or ran one of its
 * training resources ids or the candidate's own resources id.
 */
async function admittedHeads(db: Db | Tx, declaration: DeclarationRecord, candidateResourcesId: string): Promise<RolloutHead[]> {
  const from = declaration.declaredAt.getTime() / 1000;
  const to = (declaration.boundAt ?? new Date()).getTime() / 1000;
  const resourcesIds = [...new Set([...declaration.declaration.trainingResourcesIds, candidateResourcesId])];
  const rows = await db.storeRollout.findMany({
    where: { mode: { in: ["train", "val"] }, startTime: { gte: from, lte: to }, OR: [{ receiptTag: declaration.id }, { resourcesId: { in: resourcesIds } }] },
    select: { ...HEAD_COLUMNS, metadata: true },
  });
  return rows.filter((r) => !ranForTheGate(r.metadata)).map(({ metadata: _m, ...head }) => head);
}

/**
 * Holds from retention what a declared receipt's stage 2 will admit, from the moment its candidate is bound: the
 * windows are closed then, and a gate run may come much later. (Stage 2 holds them again when sealed.)
 */
export async function holdDeclaredEvidence(database: Database, candidate: Stage2Candidate): Promise<number> {
  const declaration = await declarationOfCandidate(database.db, candidate.id);
  if (!declaration) return 0;
  const heads = await admittedHeads(database.db, declaration, candidate.resourcesId);
  await storeFor(database).holdRollouts(heads.map((h) => h.rolloutId), receiptHoldReason(candidate.id));
  return heads.length;
}

/** Which candidate a stage 2 is for: its id (a declared receipt admits its own windows) and resources id. */
export type Stage2Candidate = { id: string; resourcesId: string };

/**
 * Stage 2 of a candidate from the store: fresh rollups of its admitted rollouts, with the versions in force.
 * A candidate bound from a declaration (`POST /v1/gate/receipts`) admits the windows its declaration names;
 * one registered directly (internal training runs) admits the rollouts that ran its resources id.
 */
export async function stage2FromStore(database: Database, candidate: Stage2Candidate, versions: VersionSet, now: Date = new Date()): Promise<Stage2> {
  const declaration = await declarationOfCandidate(database.db, candidate.id);
  let rollouts: RolloutRollup[];
  if (declaration) {
    const heads = await admittedHeads(database.db, declaration, candidate.resourcesId);
    // Held as soon as they are known (the seal holds them again in its transaction): a retention pass meanwhile keeps them.
    await storeFor(database).holdRollouts(heads.map((h) => h.rolloutId), receiptHoldReason(candidate.id));
    await refreshRollupsOf(database, heads);
    rollouts = await readRollupsOf(database.db, heads.map((h) => h.rolloutId));
  } else {
    await refreshRollups(database, candidate.resourcesId);
    rollouts = await readRollups(database.db, candidate.resourcesId);
    await storeFor(database).holdRollouts(rollouts.map((r) => r.rolloutId), receiptHoldReason(candidate.id));
  }
  const training = windowOf(rollouts.filter((r) => r.mode !== "val" && r.mode !== "test"), now);
  const validation = windowOf(rollouts.filter((r) => r.mode === "val"), now);
  const all = windowOf(rollouts, now);
  return { windows: { training, validation }, dataCutoff: all.to, rollouts, versions };
}
