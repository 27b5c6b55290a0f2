// An algorithm that tries each candidate under its own resources id (`add_resources`) and keeps the best as the
// next version of one id (`update_resources`) — the quickstart's hill-climber, APO's beam with a published best —
// ran the kept version's exact content before it was a version. Those rollouts are that version's evidence: its
// reward is what made the algorithm keep it. A trial is an external id with a single version whose content digest
// equals one of the lineage's versions; its rollouts count to the lowest such version. Gate pins and Lightgate's
// own resources are never trials (own.ts), so a gate run's copies of a version never count as its training.
import type { Database } from "@/server/db/client";
import { all } from "@/server/db/sql/program";
import { sqlRunnerFor } from "@/server/db/sql/runner";
import { externalLineageSql } from "./own";

/** A lineage with its kept trials: trial id → the lineage version whose content it ran. */
export type Lineage = { id: string; trials: ReadonlyMap<string, number> };

/** Beyond this many trials the oldest are left out (a page of figures stays one bounded query). */
const MAX_TRIALS = 900;

export async function lineageWithTrials(database: Database, resourcesId: string): Promise<Lineage> {
  const rows = await sqlRunnerFor(database).read(() =>
    all<{ id: string; version: number }>(
      `SELECT s.resources_id AS id, MIN(l.version) AS version
       FROM store_resources_versions l
       JOIN store_resources_versions t ON t.digest = l.digest AND t.resources_id <> l.resources_id
       JOIN store_resources s ON s.resources_id = t.resources_id AND s.version = 1
       WHERE l.resources_id = ? AND ${externalLineageSql("s")}
       GROUP BY s.resources_id ORDER BY MIN(l.version) DESC, s.resources_id LIMIT ${MAX_TRIALS}`,
      [resourcesId],
    ),
  );
  return { id: resourcesId, trials: new Map(rows.map((r) => [r.id, Number(r.version)])) };
}

/** Only the trials of these versions (the list reads the newest version alone). */
export function trialsOf(lineage: Lineage, versions: ReadonlySet<number>): Lineage {
  return { id: lineage.id, trials: new Map([...lineage.trials].filter(([, v]) => versions.has(v))) };
}

/**
 * The rollouts of `lineage` as a SQL condition on alias `r`: the lineage's own started at or after `fromSeconds`,
 * and every rollout of its trials (they ran before their version existed). With its parameters, in order.
 */
export function rolloutsOfSql(lineage: Lineage, fromSeconds: number, r = "r"): { sql: string; params: (string | number)[] } {
  const trials = [...lineage.trials.keys()];
  const own = `(${r}.resources_id = ? AND ${r}.start_time >= ?)`;
  if (trials.length === 0) return { sql: own, params: [lineage.id, fromSeconds] };
  return { sql: `(${own} OR ${r}.resources_id IN (${trials.map(() => "?").join(", ")}))`, params: [lineage.id, fromSeconds, ...trials] };
}

/** The version a rollout of `lineage` ran, as SQL on alias `r` (its own: the newest created by its start; a trial's: the kept one). */
export function versionOfSql(lineage: Lineage, r = "r"): { sql: string; params: (string | number)[] } {
  const own = `COALESCE((SELECT MAX(x.version) FROM store_resources_versions x WHERE x.resources_id = ${r}.resources_id AND x.created_at <= ${r}.start_time), 1)`;
  if (lineage.trials.size === 0) return { sql: own, params: [] };
  const cases = [...lineage.trials].map(() => `WHEN ? THEN CAST(? AS INTEGER)`).join(" ");
  return { sql: `CASE ${r}.resources_id ${cases} ELSE ${own} END`, params: [...lineage.trials].flatMap(([id, v]) => [id, v]) };
}
