/**
 * Lightgate's LightningStore: the Agent Lightning 0.3 store contract, durable on SQLite or PostgreSQL.
 *
 *   const store = createStore(database);          // database: server/db/client.ts Database
 *   await store.enqueueRollouts([{ input, mode: "train", config: { max_attempts: 3, retry_condition: ["failed"] } }]);
 *   const [claim] = await store.dequeueRollouts({ limit: 1, worker_id: "Worker-0" });
 *   await store.addSpans([span]);                 // a span is also the attempt's heartbeat
 *   await store.updateAttempt(claim.rollout_id, "latest", { status: "succeeded" });
 *
 * Every method mirrors a LightningStore operation (agentlightning/store/base.py) with the wire's snake_case
 * shapes; missing ids raise StoreNotFoundError, bad arguments StoreInputError. Reads are paginated
 * (`limit` -1 = all, `offset`, `sort_by`, `sort_order`) and return `{items, limit, offset, total}`;
 * `queryRollouts` also filters by `mode_in` for the dashboard. Lightgate's extensions: every attempt keeps
 * the `reason` it started (`queryAttempts`), resources keep every version with its digest
 * (`resourcesVersions`), `pruneFinishedRollouts` honours RetentionHold, and `scanWatchdog` runs the
 * timeout/unresponsive watchdog (startStoreBackground runs it on a timer).
 *
 * The hot paths run hand-written SQL through server/db/sql (one transaction per operation; SQLite runs
 * it synchronously, PostgreSQL claims queue rows with FOR UPDATE SKIP LOCKED).
 */
import type { Database } from "@/server/db/client";
import { sqlRunnerFor, closeSqlRunner } from "@/server/db/sql/runner";
import { all, placeholders, run, valuesSql } from "@/server/db/sql/program";
import { StoreNotFoundError } from "./errors";
import { newResourcesId, nowSeconds } from "./ids";
import { getWorker, latestAttempt, queryAttempts, queryRollouts, queryWorkers, type PageParams, type RolloutQuery, type WorkerQuery } from "./queries";
import { exactResources, getResources, getResourcesWithDigest, latestResources, pinResources, putResources, queryResources, resourcesVersion, resourcesVersions, type ResourcesQuery, type VersionSelector } from "./resources";
import { guardedPutResources, type PendingResourcesWrite } from "./lineage";
import { candidatesForPrune, pruneBatch, reclaimSpace, withinBudget } from "./retention";
import { dequeueRollouts, enqueueRollouts, finishedRollouts, getRollout, startAttempt, startRollout, updateAttempt, updateRollout, type AttemptPatch, type RolloutPatch } from "./rollouts";
import { attemptRecordFromRow, wireAttempt } from "./rows";
import { updateAttemptAtOnce, updateAttemptAtOnceApplies } from "./update-attempt-statement";
import { diffResourcesVersions, getSpan, maskedResourcesVersion, resourcesHistory, resourcesSummaries, spanOutline, workerCounts } from "./dashboard";
import { FreshAttempts, writeSpans } from "./add-spans-statement";
import { countSpans, nextSequenceIds, querySpansText, type SpanQuery } from "./spans";
import { applyVerdict, findUnhealthy, type Verdict } from "./watchdog";
import { heartbeatWorker } from "./workers";
import { viewerCond, type StoreViewer } from "./scope";
import { closeRolloutNews, rolloutEnded } from "./ended";
import { ROLLOUT_STATUSES, type Attempt, type AttemptedRollout, type EnqueueRolloutRequest, type JsonObject, type NamedResources, type PaginatedResult, type Span, type StoreStatistics } from "./types";

/** Writes receipts rely on wait for the disk (resource versions they pin, retention holds on their evidence). */
const DURABLE = { durable: true } as const;

export * from "./types";
export { StoreInputError, StoreNotFoundError } from "./errors";
export type { SpanOutline, ResourcesSummary, ResourcesVersionSummary, ResourcesDiff } from "./dashboard";
export type { RolloutQuery, WorkerQuery, PageParams, ResourcesQuery, SpanQuery, RolloutPatch, AttemptPatch, StoreViewer };

export type StoreOptions = {
  /** The lazy watchdog scan runs at most this often (ms) before queue and query calls; 0 disables it. */
  scanDebounceMs?: number;
  /**
   * Whether this process may run the lazy scan (several processes on one PostgreSQL: only the leader —
   * runtime.ts — whose timer scans anyway). Default: always.
   */
  leader?: () => boolean;
  /** Told of every watchdog verdict this process applied (the server logs them: rare, and worth seeing). */
  onVerdict?: (v: Verdict) => void;
  /** Upper bound for wait_for_rollouts with `timeout: null` (the reference would wait forever). */
  maxWaitSeconds?: number;
};

export type LightningStore = ReturnType<typeof createStore>;

/** Statuses that do not end an attempt or a rollout (anything else may: listeners are told, and re-read). */
const UNENDED: ReadonlySet<string> = new Set(["queuing", "preparing", "running", "requeuing"]);

export function createStore(database: Database, options: StoreOptions = {}) {
  const sql = sqlRunnerFor(database);
  const launched = nowSeconds();
  const debounceMs = options.scanDebounceMs ?? 10_000;
  const maxWait = options.maxWaitSeconds ?? 25;
  let lastScan = 0;
  let scanning: Promise<number> | null = null;
  // PostgreSQL: attempts started here whose first spans are still to come (add-spans-statement.ts).
  const fresh = sql.dialect.name === "postgresql" ? new FreshAttempts() : undefined;
  const started = <T extends AttemptedRollout>(r: T): T => (fresh?.add(r.rollout_id, r.attempt.attempt_id), r);

  async function scanWatchdog(now = nowSeconds()): Promise<number> {
    const verdicts = await sql.read(() => findUnhealthy(now));
    let applied = 0;
    for (const v of verdicts) {
      if (!(await sql.write((d) => applyVerdict(d, v, now)))) continue;
      applied++;
      rolloutEnded(database, v.rollout_id);
      options.onVerdict?.(v);
    }
    return applied;
  }

  /** The reference's lazy healthcheck: at most once per debounce window, before queue and query calls. */
  async function maybeScan(): Promise<void> {
    if (debounceMs <= 0 || Date.now() - lastScan < debounceMs || (options.leader && !options.leader())) return;
    lastScan = Date.now();
    scanning ??= scanWatchdog().finally(() => (scanning = null));
    await scanning;
  }

  const store = {
    database,
    dialect: sql.dialect.name,

    /** Counts of what `viewer` may see (rollouts, their attempts and spans); workers and resources in full. */
    async statistics(viewer?: StoreViewer): Promise<StoreStatistics> {
      const only = viewerCond(viewer, "r.");
      return sql.read(function* () {
        const count = function* (table: string) {
          return Number((yield* all<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0]!.n);
        };
        const countSeen = function* (table: string) {
          if (!only) return yield* count(table === "store_rollouts r" ? "store_rollouts" : table);
          const join = table === "store_rollouts r" ? table : `${table} x JOIN store_rollouts r ON r.rollout_id = x.rollout_id`;
          return Number((yield* all<{ n: number }>(`SELECT COUNT(*) AS n FROM ${join} WHERE ${only.sql}`, only.params))[0]!.n);
        };
        const byStatus = yield* all<{ status: string; n: number }>(`SELECT r.status, COUNT(*) AS n FROM store_rollouts r${only ? ` WHERE ${only.sql}` : ""} GROUP BY r.status`, only?.params ?? []);
        const rollouts_by_status = Object.fromEntries(ROLLOUT_STATUSES.map((s) => [s, Number(byStatus.find((r) => r.status === s)?.n ?? 0)]));
        return {
          name: "LightgateStore",
          total_rollouts: yield* countSeen("store_rollouts r"),
          total_attempts: yield* countSeen("store_attempts"),
          total_spans: yield* countSeen("store_spans"),
          total_resources: yield* count("store_resources"),
          total_workers: yield* count("store_workers"),
          uptime: nowSeconds() - launched,
          rollouts_by_status,
        };
      });
    },

    // ── Rollouts and attempts ──
    // `viewer` (scope.ts): who asks over HTTP — what it may see, serve and write. In-process callers pass none.
    async enqueueRollouts(reqs: EnqueueRolloutRequest[], viewer?: StoreViewer) {
      if (reqs.length === 0) return [];
      return sql.write((d) => enqueueRollouts(d, reqs, nowSeconds(), viewer));
    },
    async startRollout(req: EnqueueRolloutRequest & { worker_id?: string | null }, viewer?: StoreViewer) {
      return started(await sql.write(() => startRollout(req, nowSeconds(), viewer)));
    },
    async dequeueRollouts(opts: { limit?: number; worker_id?: string | null; viewer?: StoreViewer } = {}) {
      const limit = opts.limit ?? 1;
      if (limit <= 0) return [];
      await maybeScan();
      const claimed = await sql.write((d) => dequeueRollouts(d, limit, opts.worker_id ?? null, nowSeconds(), opts.viewer));
      claimed.forEach(started);
      return claimed;
    },
    async startAttempt(rolloutId: string, workerId: string | null = null, viewer?: StoreViewer) {
      return started(await sql.write((d) => startAttempt(d, rolloutId, workerId, nowSeconds(), viewer)));
    },
    async updateRollout(rolloutId: string, patch: RolloutPatch, viewer?: StoreViewer) {
      const rollout = await sql.write((d) => updateRollout(d, rolloutId, patch, nowSeconds(), viewer));
      if (patch.status && !UNENDED.has(patch.status)) rolloutEnded(database, rolloutId);
      return rollout;
    },
    /** update_attempt; `attemptId` may be "latest". Returns the wire attempt. */
    async updateAttempt(rolloutId: string, attemptId: string, patch: AttemptPatch, viewer?: StoreViewer): Promise<Attempt> {
      // PostgreSQL: a runner's usual report in one statement; whatever it leaves (not found, gate work, a retry
      // policy to apply) the careful program decides (update-attempt-statement.ts). Each stamps the time it runs.
      const quick = sql.dialect.name === "postgresql" && updateAttemptAtOnceApplies(patch) ? await sql.write(() => updateAttemptAtOnce(rolloutId, attemptId, patch, nowSeconds())) : null;
      const record = quick ? attemptRecordFromRow(quick) : await sql.write((d) => updateAttempt(d, rolloutId, attemptId, patch, nowSeconds(), undefined, viewer));
      if (patch.status && !UNENDED.has(patch.status)) rolloutEnded(database, rolloutId);
      return wireAttempt(record!);
    },
    async queryRollouts(q: RolloutQuery = {}, viewer?: StoreViewer) {
      await maybeScan();
      return sql.read((d) => queryRollouts(d, q, viewer));
    },
    async getRollout(rolloutId: string, viewer?: StoreViewer) {
      return sql.read(() => getRollout(rolloutId, viewer));
    },
    /** query_attempts; each item also carries Lightgate's `reason`. */
    async queryAttempts(rolloutId: string, q: PageParams = {}, viewer?: StoreViewer) {
      return sql.read(() => queryAttempts(rolloutId, q, viewer));
    },
    async getLatestAttempt(rolloutId: string, viewer?: StoreViewer) {
      return sql.read(() => latestAttempt(rolloutId, viewer));
    },
    /** wait_for_rollouts: the terminal ones among `ids` by the deadline (unknown ids — and unseen ones — are left out). */
    async waitForRollouts(ids: string[], timeoutSeconds: number | null, viewer?: StoreViewer) {
      const deadline = Date.now() + Math.min(timeoutSeconds ?? maxWait, maxWait) * 1000;
      let delay = 20;
      for (;;) {
        await maybeScan();
        const done = await sql.read(() => finishedRollouts(ids, viewer));
        if (done.length === new Set(ids).size || Date.now() >= deadline) return done;
        await new Promise((r) => setTimeout(r, Math.min(delay, Math.max(1, deadline - Date.now()))));
        delay = Math.min(delay * 2, 250);
      }
    },

    // ── Spans ──
    /** add_many_spans: returns the spans actually added (duplicates are skipped). `sequence_id < 0` = allocate. */
    async addSpans(spans: Span[], viewer?: StoreViewer) {
      return writeSpans(sql, spans, nowSeconds, viewer, fresh);
    },
    async addSpan(span: Span, viewer?: StoreViewer): Promise<Span | null> {
      return (await store.addSpans([span], viewer))[0] ?? null;
    },
    async nextSpanSequenceIds(rolloutIds: string[], viewer?: StoreViewer) {
      return sql.write(() => nextSequenceIds(rolloutIds, viewer));
    },
    async querySpansText(q: SpanQuery, viewer?: StoreViewer): Promise<PaginatedResult<string>> {
      return sql.read((d) => querySpansText(d, q, viewer));
    },
    async querySpans(q: SpanQuery): Promise<PaginatedResult<Span>> {
      const page = await store.querySpansText(q);
      return { ...page, items: page.items.map((t) => JSON.parse(t) as Span) };
    },
    /** All matching spans' stored JSON texts, a page of `chunk` at a time: memory stays bounded whatever the rollout's size. */
    async *streamSpansText(q: SpanQuery, chunk = 1000, viewer?: StoreViewer): AsyncGenerator<string[]> {
      const { limit, offset } = { limit: q.limit ?? -1, offset: q.offset ?? 0 };
      let got = 0;
      for (;;) {
        const want = limit === -1 ? chunk : Math.min(chunk, limit - got);
        if (want <= 0) return;
        const page = await store.querySpansText({ ...q, limit: want, offset: offset + got }, viewer);
        if (page.items.length) yield page.items;
        got += page.items.length;
        if (page.items.length < want) return;
      }
    },
    async countSpans(q: SpanQuery) {
      return sql.read((d) => countSpans(d, q));
    },
    /** Spans without their bodies, in time order (the dashboard's tree and waterfall). */
    async spanOutline(q: { rollout_id: string; attempt_id?: string | null; limit: number; offset: number }) {
      return sql.read((d) => spanOutline(d, q));
    },
    async getSpan(rolloutId: string, attemptId: string, spanId: string) {
      return sql.read(() => getSpan(rolloutId, attemptId, spanId));
    },

    // ── Resources ──
    async addResources(resources: NamedResources) {
      return sql.write(() => putResources(newResourcesId(), resources, nowSeconds()), DURABLE);
    },
    /** update_resources: an upsert (unknown id → version 1), as in the reference. */
    async updateResources(resourcesId: string, resources: NamedResources) {
      return sql.write(() => putResources(resourcesId, resources, nowSeconds()), DURABLE);
    },
    /** update_resources after `refuse` judged the write against the id's lineage, in one transaction (lineage.ts). */
    async updateResourcesGuarded<R>(resourcesId: string, resources: NamedResources, refuse: (write: PendingResourcesWrite) => R | null) {
      return sql.write(() => guardedPutResources(resourcesId, resources, nowSeconds(), refuse), DURABLE);
    },
    /** The gate's pin of an exact version under an immutable id (never "latest"); see `pinResources`. */
    async pinResources(resourcesId: string, resources: NamedResources) {
      return sql.write(() => pinResources(resourcesId, resources, nowSeconds()), DURABLE);
    },
    async getResources(resourcesId: string) {
      return sql.read(() => getResources(resourcesId));
    },
    async getResourcesWithDigest(resourcesId: string) {
      return sql.read(() => getResourcesWithDigest(resourcesId));
    },
    /** One exact version by number and/or digest, or why there is none (never another version). */
    async exactResources(resourcesId: string, selector: VersionSelector) {
      return sql.read(() => exactResources(resourcesId, selector));
    },
    async getLatestResources() {
      return sql.read(() => latestResources());
    },
    async queryResources(q: ResourcesQuery = {}) {
      return sql.read((d) => queryResources(d, q));
    },
    async resourcesVersions(resourcesId: string) {
      return sql.read(() => resourcesVersions(resourcesId));
    },
    async resourcesVersion(resourcesId: string, version: number) {
      return sql.read(() => resourcesVersion(resourcesId, version));
    },
    /** One page of versions (newest first) with digests and resource names, without the bodies. */
    async resourcesHistory(resourcesId: string, q: PageParams = {}) {
      return sql.read(() => resourcesHistory(resourcesId, q));
    },
    /** Resources ids with digest and resource names, without the bodies (the dashboard's list). */
    async resourcesSummaries(q: PageParams & { resources_id_contains?: string | null } = {}) {
      return sql.read((d) => resourcesSummaries(d, q));
    },
    async maskedResourcesVersion(resourcesId: string, version: number) {
      return sql.read(() => maskedResourcesVersion(resourcesId, version));
    },
    /** A key diff between two versions, secret values masked. */
    async diffResources(resourcesId: string, fromVersion: number, toVersion: number) {
      return sql.read(() => diffResourcesVersions(resourcesId, fromVersion, toVersion));
    },

    // ── Workers ──
    async queryWorkers(q: WorkerQuery = {}) {
      await maybeScan();
      return sql.read((d) => queryWorkers(d, q));
    },
    async workerCounts() {
      return sql.read(() => workerCounts());
    },
    async getWorker(workerId: string) {
      return sql.read(() => getWorker(workerId));
    },
    async updateWorker(workerId: string, heartbeatStats?: JsonObject) {
      return sql.write(() => heartbeatWorker(workerId, heartbeatStats, nowSeconds()));
    },

    // ── Watchdog and retention ──
    scanWatchdog,
    /**
     * Deletes finished rollouts that ended more than `olderThanSeconds` ago, with their attempts and spans,
     * in batches; never one under a RetentionHold or listed in `keep`.
     */
    async pruneFinishedRollouts(olderThanSeconds: number, opts: { keep?: readonly string[]; batchSize?: number; spanBudget?: number } = {}) {
      const cutoff = nowSeconds() - olderThanSeconds;
      const keep = opts.keep ?? [];
      const batch = opts.batchSize ?? 200;
      const total = { rollouts: 0, attempts: 0, spans: 0 };
      const skipped = new Set<string>();
      for (;;) {
        const candidates = (await sql.read(() => candidatesForPrune(cutoff, batch, [...keep, ...skipped]))).filter((c) => !skipped.has(c.rollout_id));
        const ids = withinBudget(candidates, opts.spanBudget ?? 5_000);
        if (ids.length === 0) {
          // Outside any transaction (VACUUM cannot run in one): a read runs on a plain connection.
          if (total.rollouts > 0) await sql.read(reclaimSpace);
          return total;
        }
        // Between deletes, whatever waits for the writer (ingest, the queue) goes first.
        if (total.rollouts > 0) await new Promise((r) => setImmediate(r));
        const out = await sql.write((d) => pruneBatch(d, ids, cutoff));
        total.rollouts += out.rollouts;
        total.attempts += out.attempts;
        total.spans += out.spans;
        if (out.rollouts < ids.length) for (const id of ids) skipped.add(id); // raced with a hold: leave them
      }
    },
    /** Marks rollouts as referenced (e.g. by a receipt): retention never deletes them while held. */
    async holdRollouts(rolloutIds: string[], reason: string) {
      if (rolloutIds.length === 0) return;
      // Multi-row inserts: a gate run holds its 125 rollouts at once, and a row per statement was a round trip each.
      await sql.write(function* () {
        for (let i = 0; i < rolloutIds.length; i += 500) {
          const ids = rolloutIds.slice(i, i + 500);
          yield* run(valuesSql("INSERT INTO retention_holds (rollout_id, reason)", 2, ids.length, " ON CONFLICT DO NOTHING"), ids.flatMap((id) => [id, reason]));
        }
      }, DURABLE);
    },
    async releaseHold(rolloutIds: string[], reason: string) {
      if (rolloutIds.length === 0) return;
      await sql.write(() => run(`DELETE FROM retention_holds WHERE reason = ? AND rollout_id IN (${placeholders(rolloutIds.length)})`, [reason, ...rolloutIds]));
    },

    async close() {
      await closeRolloutNews(database);
      await closeSqlRunner(database);
    },
  };
  return store;
}

/** Throws StoreNotFoundError unless the rollout exists (for routes that need it). */
export async function requireRollout(store: LightningStore, rolloutId: string) {
  const r = await store.getRollout(rolloutId);
  if (!r) throw new StoreNotFoundError(`Rollout ${rolloutId} not found`);
  return r;
}

const stores = new WeakMap<Database, LightningStore>();
/** The one store of an open Database (keeps its watchdog debounce and SQL runner across calls). */
export function storeFor(database: Database): LightningStore {
  let store = stores.get(database);
  if (!store) {
    store = createStore(database);
    stores.set(database, store);
  }
  return store;
}
