// Per-version figures of one external training, aggregated in the database. A rollout ran the version of its
// resources id in force when it started (the store names the id, not the version: Agent Lightning's runners
// fetch the id's latest), i.e. the highest version created at or before its start; one before the first
// version counts to version 1; a kept trial's rollouts count to the version whose content they ran (trials.ts). Span coverage and retry debt are the gate's own functions
// (server/gate/evidence/), fed the version's stored rollups 500 at a time and remembered per version until
// its rollouts change, so only the version still running is re-read.
import type { Database } from "@/server/db/client";
import { all, type SqlDialect } from "@/server/db/sql/program";
import { sqlRunnerFor } from "@/server/db/sql/runner";
import { computeCoverage } from "@/server/gate/evidence/coverage";
import { computeRetryDebt } from "@/server/gate/evidence/retry-debt";
import type { RolloutRollup } from "@/server/gate/receipt/stage2";
import { rolloutsOfSql, versionOfSql, type Lineage } from "./trials";

/** The retry reasons the gate counts as debt (retry-debt.ts UNEXPECTED). */
export const RETRY_REASONS = ["retry_after_failed", "retry_after_timeout", "retry_after_unresponsive", "manual"] as const;
/** An external training declares no span families; coverage asks what every training needs: a reward span. */
export const EXTERNAL_EXPECTED_FAMILIES = ["reward"] as const;

/** The final reward from a stored rollup (rollout_rollups.rollup, JSON text), as SQL of each dialect. */
export const rewardSql = (d: SqlDialect, rr = "rr") => (d.name === "sqlite" ? `json_extract(${rr}.rollup, '$.reward')` : `CAST((${rr}.rollup::json ->> 'reward') AS DOUBLE PRECISION)`);

export type VersionRow = { version: number; createdAt: number };

export type VersionAggregate = {
  version: number;
  rollouts: number;
  finished: number;
  succeeded: number;
  failed: number;
  /** Rollouts with at least one retry the gate counts as debt (after a failure, timeout, silence, or by hand). */
  retried: number;
  train: { rollouts: number; rewarded: number; meanReward: number | null };
  val: { rollouts: number; rewarded: number; meanReward: number | null };
  firstStart: number | null;
  lastActivity: number | null;
  /** Moves whenever a rollout of the version gains a span, an attempt or a status: the evidence cache's key. */
  fingerprint: string;
};

type AggRow = Record<string, number | string | null>;
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** One row per version that has rollouts, from one grouped query over the lineage's rollouts and its trials' (trials.ts). */
export async function aggregateVersions(database: Database, lineage: Lineage, fromSeconds = 0): Promise<Map<number, VersionAggregate>> {
  const reasons = RETRY_REASONS.map((r) => `'${r}'`).join(", ");
  const version = versionOfSql(lineage);
  const rollouts = rolloutsOfSql(lineage, fromSeconds);
  const rows = await sqlRunnerFor(database).read((d) =>
    all<AggRow>(
      `SELECT t.v AS version, COUNT(*) AS rollouts,
         SUM(CASE WHEN t.status IN ('succeeded', 'failed', 'cancelled') THEN 1 ELSE 0 END) AS finished,
         SUM(CASE WHEN t.status = 'succeeded' THEN 1 ELSE 0 END) AS succeeded,
         SUM(CASE WHEN t.status = 'failed' THEN 1 ELSE 0 END) AS failed,
         SUM(t.retried) AS retried,
         SUM(CASE WHEN t.train = 1 THEN 1 ELSE 0 END) AS train_rollouts,
         COUNT(CASE WHEN t.train = 1 THEN t.reward END) AS train_rewarded,
         AVG(CASE WHEN t.train = 1 THEN t.reward END) AS train_reward,
         SUM(CASE WHEN t.mode = 'val' THEN 1 ELSE 0 END) AS val_rollouts,
         COUNT(CASE WHEN t.mode = 'val' THEN t.reward END) AS val_rewarded,
         AVG(CASE WHEN t.mode = 'val' THEN t.reward END) AS val_reward,
         MIN(t.start_time) AS first_start,
         MAX(CASE WHEN t.end_time IS NULL OR t.end_time < t.start_time THEN t.start_time ELSE t.end_time END) AS last_activity,
         SUM(t.span_seq) AS span_seq, SUM(t.attempt_count) AS attempts
       FROM (SELECT r.mode, r.status, r.start_time, r.end_time, r.span_seq, r.attempt_count,
               CASE WHEN r.mode IS NULL OR r.mode = 'train' THEN 1 ELSE 0 END AS train,
               ${version.sql} AS v,
               CASE WHEN EXISTS (SELECT 1 FROM store_attempts a WHERE a.rollout_id = r.rollout_id AND a.reason IN (${reasons})) THEN 1 ELSE 0 END AS retried,
               ${rewardSql(d)} AS reward
             FROM store_rollouts r LEFT JOIN rollout_rollups rr ON rr.rollout_id = r.rollout_id
             WHERE ${rollouts.sql}) t
       GROUP BY t.v ORDER BY t.v`,
      [...version.params, ...rollouts.params],
    ),
  );
  const out = new Map<number, VersionAggregate>();
  for (const r of rows) {
    const version = num(r.version);
    out.set(version, {
      version,
      rollouts: num(r.rollouts),
      finished: num(r.finished),
      succeeded: num(r.succeeded),
      failed: num(r.failed),
      retried: num(r.retried),
      train: { rollouts: num(r.train_rollouts), rewarded: num(r.train_rewarded), meanReward: numOrNull(r.train_reward) },
      val: { rollouts: num(r.val_rollouts), rewarded: num(r.val_rewarded), meanReward: numOrNull(r.val_reward) },
      firstStart: numOrNull(r.first_start),
      lastActivity: numOrNull(r.last_activity),
      fingerprint: [r.rollouts, r.finished, r.span_seq, r.attempts, r.last_activity, r.train_rewarded, r.val_rewarded].map(String).join("|"),
    });
  }
  return out;
}

export type VersionEvidence = {
  /** Succeeded rollouts whose latest attempt carries every expected family; null: none succeeded yet. */
  coverage: number | null;
  coverageConsidered: number;
  /** Unexpected retries (the gate's retry debt; resamples the rollout planned are not debt). */
  retryDebt: number;
  attempts: number;
};

const PAGE = 500;
const CACHE_LIMIT = 2_000;
const cache = new Map<string, VersionEvidence>();

/** Coverage and retry debt of the lineage's rollouts started in [from, to) and its trials', from their stored rollups, a page at a time. */
export async function versionEvidence(database: Database, lineage: Lineage, window: { from: number; to: number | null }, fingerprint: string): Promise<VersionEvidence> {
  const trials = [...lineage.trials.keys()];
  const key = JSON.stringify([database.target.url, lineage.id, trials, window.from, window.to, fingerprint]);
  const hit = cache.get(key);
  if (hit) return hit;
  let considered = 0;
  let covered = 0;
  let retryDebt = 0;
  let attempts = 0;
  let after = { start: -1, id: "" };
  const sql = sqlRunnerFor(database);
  for (;;) {
    const rows = await sql.read(() =>
      all<{ rollout_id: string; start_time: number; rollup: string }>(
        `SELECT rollout_id, start_time, rollup FROM rollout_rollups
         WHERE ((resources_id = ? AND start_time >= ? ${window.to === null ? "" : "AND start_time < ?"})${trials.length ? ` OR resources_id IN (${trials.map(() => "?").join(", ")})` : ""})
           AND (start_time > ? OR (start_time = ? AND rollout_id > ?))
         ORDER BY start_time, rollout_id LIMIT ${PAGE}`,
        [lineage.id, window.from, ...(window.to === null ? [] : [window.to]), ...trials, after.start, after.start, after.id],
      ),
    );
    const rollups = rows.map((r) => JSON.parse(r.rollup) as RolloutRollup);
    const coverage = computeCoverage(rollups, EXTERNAL_EXPECTED_FAMILIES);
    // Planned resamples are labelled by the store from the rollout's own plan, so none is in excess here.
    const debt = computeRetryDebt(rollups, { expectedResamplesPerRollout: Number.MAX_SAFE_INTEGER, unexpectedRetryBudget: 0 });
    considered += coverage.considered;
    covered += coverage.fullyCovered;
    retryDebt += debt.debt;
    attempts += debt.attempts;
    if (rows.length < PAGE) break;
    const last = rows.at(-1)!;
    after = { start: Number(last.start_time), id: last.rollout_id };
  }
  const evidence = { coverage: considered > 0 ? covered / considered : null, coverageConsidered: considered, retryDebt, attempts };
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, evidence);
  return evidence;
}

/** Every version of the lineage, oldest first (at most `limit`, the newest ones). */
export async function lineageVersions(database: Database, resourcesId: string, limit = 500): Promise<VersionRow[]> {
  const rows = await database.db.storeResourcesVersion.findMany({ where: { resourcesId }, orderBy: { version: "desc" }, take: limit, select: { version: true, createdAt: true } });
  return rows.reverse();
}
