// Keeps a lineage's per-rollout rollups (rollout_rollups: final reward, attempts with reasons, span families —
// server/receipts/rollups.ts, the gate's) current before the figures are read from them. Only rollouts whose
// rollup is missing or older than the rollout are fetched, 500 at a time, so a 100k-rollout lineage costs one
// indexed pass and no span is re-parsed once its rollout's rollup is current.
import type { Database } from "@/server/db/client";
import { all } from "@/server/db/sql/program";
import { sqlRunnerFor } from "@/server/db/sql/runner";
import { refreshRollupsOf, type RolloutHead } from "@/server/receipts/rollups";
import { rolloutsOfSql, type Lineage } from "./trials";

const PAGE = 500;
/** A request refreshes at most this many rollouts; the next poll picks up the rest (figures say how many wait). */
const MAX_PER_REQUEST = 20_000;

type HeadRow = { rollout_id: string; status: string; mode: string | null; start_time: number; end_time: number | null; span_seq: number; attempt_count: number; resources_id: string | null };

// The stored source key is `span_seq|attempt_count|status|end_time` (receipts/rollups.ts sourceKeyOf). Its prefix and
// whether it ends the rollout are compared in SQL; a float's text differs between the dialects, so the end time's
// exact value is left to sourceKeyOf, which refreshRollupsOf applies to every head it is handed.
const STALE = `(rr.rollout_id IS NULL
  OR rr.source_key NOT LIKE CAST(r.span_seq AS TEXT) || '|' || CAST(r.attempt_count AS TEXT) || '|' || r.status || '|%'
  OR (r.end_time IS NULL) <> (rr.source_key LIKE '%|'))`;

/** Refreshes the stale rollups of the lineage's rollouts started at or after `fromSeconds` and its trials'; returns how many are still stale. */
export async function refreshLineageRollups(database: Database, lineage: Lineage, fromSeconds = 0): Promise<number> {
  const sql = sqlRunnerFor(database);
  const rollouts = rolloutsOfSql(lineage, fromSeconds);
  let done = 0;
  let afterId = "";
  for (;;) {
    // Keyset on rollout id: a rollout whose refresh is skipped (its exact key already matched) is not fetched again.
    const rows = await sql.read(() =>
      all<HeadRow>(
        `SELECT r.rollout_id, r.status, r.mode, r.start_time, r.end_time, r.span_seq, r.attempt_count, r.resources_id
         FROM store_rollouts r LEFT JOIN rollout_rollups rr ON rr.rollout_id = r.rollout_id
         WHERE ${rollouts.sql} AND r.rollout_id > ? AND ${STALE}
         ORDER BY r.rollout_id LIMIT ${PAGE}`,
        [...rollouts.params, afterId],
      ),
    );
    if (rows.length === 0) return 0;
    const heads: RolloutHead[] = rows.map((r) => ({
      rolloutId: r.rollout_id,
      status: r.status,
      mode: r.mode,
      startTime: Number(r.start_time),
      endTime: r.end_time === null ? null : Number(r.end_time),
      spanSeq: Number(r.span_seq),
      attemptCount: Number(r.attempt_count),
      resourcesId: r.resources_id,
    }));
    await refreshRollupsOf(database, heads);
    done += heads.length;
    afterId = heads.at(-1)!.rolloutId;
    if (rows.length < PAGE) return 0;
    if (done >= MAX_PER_REQUEST) return await countStale(database, lineage, fromSeconds);
  }
}

async function countStale(database: Database, lineage: Lineage, fromSeconds: number): Promise<number> {
  const rollouts = rolloutsOfSql(lineage, fromSeconds);
  const [row] = await sqlRunnerFor(database).read(() =>
    all<{ n: number }>(`SELECT COUNT(*) AS n FROM store_rollouts r LEFT JOIN rollout_rollups rr ON rr.rollout_id = r.rollout_id WHERE ${rollouts.sql} AND ${STALE}`, rollouts.params),
  );
  return Number(row?.n ?? 0);
}
