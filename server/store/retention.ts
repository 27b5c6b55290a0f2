// Retention: finished rollouts older than a given age are deleted with their attempts and spans, in
// batches, except rollouts under a hold (RetentionHold: the gate adds one for every rollout a receipt
// references) or named in `keep`. Memory stays bounded: ids are read one batch at a time, and each delete is
// sized by the spans it removes, so a pass running beside ingest never holds the writer for long.
import { all, placeholders, run, type Program, type SqlDialect } from "@/server/db/sql/program";

/** The oldest finished, unheld rollouts, with their span sequence (≈ how many spans each holds). */
export function* candidatesForPrune(cutoff: number, batch: number, keep: readonly string[]): Program<{ rollout_id: string; spans: number }[]> {
  const keepSql = keep.length ? ` AND r.rollout_id NOT IN (${placeholders(keep.length)})` : "";
  const rows = yield* all<{ rollout_id: string; span_seq: number | string }>(
    `SELECT r.rollout_id, r.span_seq FROM store_rollouts r
     WHERE r.status IN ('failed', 'succeeded', 'cancelled') AND r.end_time IS NOT NULL AND r.end_time < ?
       AND NOT EXISTS (SELECT 1 FROM retention_holds h WHERE h.rollout_id = r.rollout_id)${keepSql}
     ORDER BY r.end_time LIMIT ?`,
    [cutoff, ...keep, batch],
  );
  return rows.map((r) => ({ rollout_id: r.rollout_id, spans: Number(r.span_seq) || 0 }));
}

/**
 * The first candidates whose spans fit one transaction's budget (always at least one): a delete holds the
 * writer for its length, so ingest running meanwhile waits at most about one budget's worth.
 */
export function withinBudget(candidates: readonly { rollout_id: string; spans: number }[], spanBudget: number): string[] {
  const ids: string[] = [];
  let spans = 0;
  for (const c of candidates) {
    if (ids.length > 0 && spans + c.spans > spanBudget) break;
    ids.push(c.rollout_id);
    spans += c.spans;
  }
  return ids;
}

/**
 * Deletes one batch of rollouts with their spans and attempts in one transaction, re-checking under it that
 * each is still finished, old enough and not held (a hold added meanwhile wins; nothing is half-deleted).
 */
export function* pruneBatch(d: SqlDialect, ids: string[], cutoff: number): Program<{ rollouts: number; spans: number; attempts: number }> {
  if (ids.length === 0) return { rollouts: 0, spans: 0, attempts: 0 };
  const rows = yield* all<{ rollout_id: string }>(
    `SELECT rollout_id FROM store_rollouts WHERE rollout_id IN (${placeholders(ids.length)})
       AND status IN ('failed', 'succeeded', 'cancelled') AND end_time < ?
       AND NOT EXISTS (SELECT 1 FROM retention_holds h WHERE h.rollout_id = store_rollouts.rollout_id)${d.forUpdate}`,
    [...ids, cutoff],
  );
  const eligible = rows.map((r) => r.rollout_id);
  if (eligible.length === 0) return { rollouts: 0, spans: 0, attempts: 0 };
  const list = placeholders(eligible.length);
  const spans = yield* run(`DELETE FROM store_spans WHERE rollout_id IN (${list})`, eligible);
  const attempts = yield* run(`DELETE FROM store_attempts WHERE rollout_id IN (${list})`, eligible);
  const rollouts = yield* run(`DELETE FROM store_rollouts WHERE rollout_id IN (${list})`, eligible);
  return { rollouts, spans, attempts };
}

/**
 * PostgreSQL keeps a deleted row's space until VACUUM marks it reusable, and autovacuum may be off or far
 * behind deletes at ingest rates, so a pass that deleted reclaims what it freed. SQLite reuses freed pages
 * on its own (the file keeps its size and stops growing).
 */
export function* reclaimSpace(d: SqlDialect): Program<void> {
  if (d.name === "postgresql") yield* run("VACUUM store_spans, store_attempts, store_rollouts", []);
}
