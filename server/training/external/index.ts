// External trainings: what an Agent Lightning algorithm (APO, VERL, one's own) trains through our store,
// watched from the store alone. One per resources lineage written through /v1/agl that is not Lightgate's
// own (own.ts): its versions with time and, per version, train and validation reward, throughput, failure and
// retry rates, span coverage and retry debt beside the previous version; reward over time; the runners at
// work. Server-only; every figure is aggregated in the database (versions.ts, activity.ts).
import type { Database } from "@/server/db/client";
import { all } from "@/server/db/sql/program";
import { sqlRunnerFor } from "@/server/db/sql/runner";
import { DomainError } from "@/server/errors";
import { comparedToPrevious, perMinute, rate, type Compared } from "@/lib/training/external-figures";
import { externalLineageSql, likeText } from "./own";
import { refreshLineageRollups } from "./rollups";
import { aggregateVersions, lineageVersions, versionEvidence, type VersionAggregate } from "./versions";
import { rewardOverTime, runnersAtWork, type RunnerAtWork, type TimePoint } from "./activity";
import { lineageWithTrials, rolloutsOfSql, trialsOf } from "./trials";

type Head = { resources_id: string; create_time: number; update_time: number; version: number };

/** The lineage's head row when it is an external training; null when unknown or Lightgate's own. */
async function externalHead(database: Database, resourcesId: string): Promise<Head | null> {
  const [row] = await sqlRunnerFor(database).read(() =>
    all<Head>(`SELECT s.resources_id, s.create_time, s.update_time, s.version FROM store_resources s WHERE s.resources_id = ? AND ${externalLineageSql("s")}`, [resourcesId]),
  );
  return row ?? null;
}

export async function isExternalTraining(database: Database, resourcesId: string): Promise<boolean> {
  return (await externalHead(database, resourcesId)) !== null;
}

export type ExternalTrainingSummary = {
  resourcesId: string;
  createdAt: number;
  updatedAt: number;
  versions: number;
  rollouts: number;
  /** The newest version's figures (its rollouts only). */
  latest: { version: number; trainReward: number | null; valReward: number | null; rollouts: number; failureRate: number | null };
  lastActivity: number | null;
};

/**
 * Lineages first: an algorithm such as APO publishes every prompt it tries with `add_resources` (a new id, one
 * version) and the one it keeps with `update_resources` (the next version of one id). Listing each trial as a
 * training buries the training under its trials, so ids with a single version are listed apart (`one-off`), and
 * the list says how many of the other kind there are. A kept trial's rollouts count to its version (trials.ts).
 */
export async function listExternalTrainings(
  database: Database,
  q: { search?: string; kind?: "lineages" | "one-off"; offset: number; limit: number },
): Promise<{ items: ExternalTrainingSummary[]; total: number; otherKind: number }> {
  const base = `${externalLineageSql("s")}${q.search ? ` AND s.resources_id LIKE ? ESCAPE '\\'` : ""}`;
  const oneOff = q.kind === "one-off";
  const where = `${base} AND s.version ${oneOff ? "= 1" : "> 1"}`;
  const params = q.search ? [`%${likeText(q.search)}%`] : [];
  const sql = sqlRunnerFor(database);
  const [count] = await sql.read(() => all<{ n: number }>(`SELECT COUNT(*) AS n FROM store_resources s WHERE ${where}`, params));
  const [other] = await sql.read(() => all<{ n: number }>(`SELECT COUNT(*) AS n FROM store_resources s WHERE ${base} AND s.version ${oneOff ? "> 1" : "= 1"}`, params));
  const heads = await sql.read(() =>
    all<Head & { rollouts: number }>(
      `SELECT s.resources_id, s.create_time, s.update_time, s.version, (SELECT COUNT(*) FROM store_rollouts r WHERE r.resources_id = s.resources_id) AS rollouts
       FROM store_resources s WHERE ${where} ORDER BY s.update_time DESC, s.resources_id LIMIT ? OFFSET ?`,
      [...params, q.limit, q.offset],
    ),
  );
  const items: ExternalTrainingSummary[] = [];
  for (const h of heads) {
    const latest = await database.db.storeResourcesVersion.findUnique({ where: { resourcesId_version: { resourcesId: h.resources_id, version: Number(h.version) } }, select: { createdAt: true } });
    const from = latest?.createdAt ?? 0;
    // Only the newest version's rollouts (and its trials'): the list stays one bounded pass per row however long the training ran.
    const full = await lineageWithTrials(database, h.resources_id);
    const lineage = trialsOf(full, new Set([Number(h.version)]));
    await refreshLineageRollups(database, lineage, from);
    const agg = (await aggregateVersions(database, lineage, from)).get(Number(h.version));
    // Every rollout of the training, its kept trials' included (as its page counts them).
    const counted = rolloutsOfSql(full, 0);
    const [total] = await sql.read(() => all<{ n: number }>(`SELECT COUNT(*) AS n FROM store_rollouts r WHERE ${counted.sql}`, counted.params));
    items.push({
      resourcesId: h.resources_id,
      createdAt: Number(h.create_time),
      updatedAt: Number(h.update_time),
      versions: Number(h.version),
      rollouts: Number(total?.n ?? h.rollouts),
      latest: { version: Number(h.version), trainReward: agg?.train.meanReward ?? null, valReward: agg?.val.meanReward ?? null, rollouts: agg?.rollouts ?? 0, failureRate: agg ? rate(agg.failed, agg.failed + agg.succeeded) : null },
      lastActivity: agg?.lastActivity ?? null,
    });
  }
  return { items, total: Number(count?.n ?? 0), otherKind: Number(other?.n ?? 0) };
}

const FIGURES = ["trainReward", "valReward", "rollouts", "failureRate", "retryRate", "coverage", "retryDebt", "throughput"] as const;
type Figure = (typeof FIGURES)[number];

export type ExternalVersion = {
  version: number;
  createdAt: number;
  /** Until the next version was written; null for the newest. */
  until: number | null;
  trainRollouts: number;
  trainRewarded: number;
  valRollouts: number;
  valRewarded: number;
  finished: number;
  failed: number;
  retried: number;
  coverageConsidered: number;
  figures: Record<Figure, Compared<number | null>>;
};

export type ExternalTraining = {
  resourcesId: string;
  createdAt: number;
  updatedAt: number;
  rollouts: number;
  versions: ExternalVersion[];
  /** Versions older than the newest 500 are not shown. */
  olderVersions: number;
  overTime: { bucketSeconds: number; points: TimePoint[] };
  runners: RunnerAtWork[];
  /** Rollouts whose rollup is still being computed (a very large backlog is caught up over the next polls). */
  pendingRollups: number;
  /** Trial ids whose rollouts count to the version they ran (trials.ts). */
  trials: number;
  now: number;
};

const emptyAggregate = (version: number): VersionAggregate => ({
  version,
  rollouts: 0,
  finished: 0,
  succeeded: 0,
  failed: 0,
  retried: 0,
  train: { rollouts: 0, rewarded: 0, meanReward: null },
  val: { rollouts: 0, rewarded: 0, meanReward: null },
  firstStart: null,
  lastActivity: null,
  fingerprint: "0",
});

export async function getExternalTraining(database: Database, resourcesId: string, now = Date.now() / 1000): Promise<ExternalTraining> {
  const head = await externalHead(database, resourcesId);
  if (!head) throw new DomainError("NOT_FOUND", `no external training has the resources id ${JSON.stringify(resourcesId.slice(0, 200))}`, "resourcesId");
  const lineage = await lineageWithTrials(database, resourcesId);
  const pendingRollups = await refreshLineageRollups(database, lineage);
  const [versions, aggregates, overTime] = await Promise.all([lineageVersions(database, resourcesId), aggregateVersions(database, lineage), rewardOverTime(database, lineage)]);
  const rows: (Record<Figure, number | null> & { base: Omit<ExternalVersion, "figures"> })[] = [];
  for (const [i, v] of versions.entries()) {
    const next = versions[i + 1] ?? null;
    const agg = aggregates.get(v.version) ?? emptyAggregate(v.version);
    const window = { from: v.version === 1 ? 0 : v.createdAt, to: next?.createdAt ?? null };
    const ev = agg.rollouts > 0 ? await versionEvidence(database, trialsOf(lineage, new Set([v.version])), window, agg.fingerprint) : null;
    // Throughput over the version's own window: from its first rollout to the next version (or its last activity).
    const finishedUntil = next?.createdAt ?? agg.lastActivity;
    rows.push({
      trainReward: agg.train.meanReward,
      valReward: agg.val.meanReward,
      rollouts: agg.rollouts,
      failureRate: rate(agg.failed, agg.failed + agg.succeeded),
      retryRate: rate(agg.retried, agg.rollouts),
      coverage: ev?.coverage ?? null,
      retryDebt: ev ? ev.retryDebt : null,
      throughput: perMinute(agg.finished, agg.firstStart, finishedUntil),
      base: {
        version: v.version,
        createdAt: v.createdAt,
        until: next?.createdAt ?? null,
        trainRollouts: agg.train.rollouts,
        trainRewarded: agg.train.rewarded,
        valRollouts: agg.val.rollouts,
        valRewarded: agg.val.rewarded,
        finished: agg.finished,
        failed: agg.failed,
        retried: agg.retried,
        coverageConsidered: ev?.coverageConsidered ?? 0,
      },
    });
  }
  const compared = comparedToPrevious(rows, FIGURES);
  const latestFrom = versions.at(-1)?.createdAt ?? 0;
  return {
    resourcesId,
    createdAt: Number(head.create_time),
    updatedAt: Number(head.update_time),
    rollouts: [...aggregates.values()].reduce((n, a) => n + a.rollouts, 0),
    versions: rows.map((r, i) => ({ ...r.base, figures: compared[i]! })),
    olderVersions: Math.max(0, Number(head.version) - versions.length),
    overTime,
    runners: await runnersAtWork(database, trialsOf(lineage, new Set([versions.at(-1)?.version ?? 0])), versions.length === 1 ? 0 : latestFrom),
    trials: lineage.trials.size,
    pendingRollups,
    now,
  };
}
