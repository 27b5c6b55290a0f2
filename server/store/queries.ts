// Paginated, filterable reads for rollouts, attempts and workers (the REST queries and the dashboard).
// Each returns one page; `total` counts every match before pagination.
import { all, one, type Program, type SqlDialect } from "@/server/db/sql/program";
import { checkPage, contains, exact, limitOffset, orderBy, whereClause, within, type Cond } from "./query";
import { ATTEMPT_COLUMNS, attemptRecordFromRow, ROLLOUT_COLUMNS, WORKER_COLUMNS, workerFromRow, type AttemptRow, type RolloutRow, type WorkerRow } from "./rows";
import { attachLatest } from "./rollouts";
import { viewerCond, type StoreViewer } from "./scope";
import type { AttemptedRollout, AttemptRecord, FilterLogic, PaginatedResult, Rollout, RolloutMode, RolloutStatus, SortOrder, Worker, WorkerStatus } from "./types";

export type PageParams = { limit?: number; offset?: number; sort_by?: string | null; sort_order?: SortOrder };

export type RolloutQuery = PageParams & {
  status_in?: RolloutStatus[] | null;
  rollout_id_in?: string[] | null;
  rollout_id_contains?: string | null;
  /** Lightgate's extension (the reference dashboard sends it but the reference server ignores it). */
  mode_in?: (RolloutMode | null)[] | null;
  filter_logic?: FilterLogic;
};

const ROLLOUT_SORT: Record<string, string> = {
  rollout_id: "rollout_id",
  input: "input",
  start_time: "start_time",
  end_time: "end_time",
  mode: "mode",
  resources_id: "resources_id",
  status: "status",
  config: "config",
  metadata: "metadata",
};

/** The columns that can hold NULL (query.ts orders them as the reference does). */
const ROLLOUT_NULLABLE: ReadonlySet<string> = new Set(["end_time", "mode", "resources_id", "metadata"]);

function* page<T>(table: string, columns: string, where: Cond, order: string, limit: number, offset: number): Program<{ rows: T[]; total: number }> {
  const lo = limitOffset(limit, offset);
  const rows = yield* all<T>(`SELECT ${columns} FROM ${table}${where.sql}${order}${lo.sql}`, [...where.params, ...lo.params]);
  // Skip the COUNT when the page already shows everything.
  const total = offset === 0 && (limit === -1 || rows.length < limit) ? rows.length : Number((yield* one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}${where.sql}`, where.params))!.n);
  return { rows, total };
}

export function rolloutWhere(d: SqlDialect, q: RolloutQuery, viewer?: StoreViewer): Cond {
  const pool: Cond[] = [];
  if (q.status_in) pool.push(within("status", q.status_in));
  if (q.rollout_id_in) pool.push(within("rollout_id", q.rollout_id_in));
  if (q.rollout_id_contains !== undefined && q.rollout_id_contains !== null) pool.push(contains(d, "rollout_id", q.rollout_id_contains));
  if (q.mode_in) {
    const modes = q.mode_in.filter((m): m is RolloutMode => m !== null);
    const parts: Cond[] = modes.length ? [within("mode", modes)] : [];
    if (q.mode_in.includes(null)) parts.push({ sql: "mode IS NULL", params: [] });
    pool.push(parts.length ? { sql: parts.map((p) => `(${p.sql})`).join(" OR "), params: parts.flatMap((p) => p.params) } : { sql: "1 = 0", params: [] });
  }
  const only = viewerCond(viewer);
  return whereClause(only ? [only] : [], pool, q.filter_logic ?? "and");
}

/** Rollouts a viewer may not see are left out, of the page and of its total. */
export function* queryRollouts(d: SqlDialect, q: RolloutQuery, viewer?: StoreViewer): Program<PaginatedResult<Rollout | AttemptedRollout>> {
  const { limit, offset } = checkPage(q);
  const order = orderBy(q.sort_by, q.sort_order ?? "asc", ROLLOUT_SORT, "created_pos", "created_pos", ROLLOUT_NULLABLE);
  const { rows, total } = yield* page<RolloutRow>("store_rollouts", ROLLOUT_COLUMNS, rolloutWhere(d, q, viewer), order, limit, offset);
  return { items: yield* attachLatest(rows), limit, offset, total };
}

const ATTEMPT_SORT: Record<string, string> = {
  rollout_id: "rollout_id",
  attempt_id: "attempt_id",
  sequence_id: "sequence_id",
  start_time: "start_time",
  end_time: "end_time",
  status: "status",
  worker_id: "worker_id",
  last_heartbeat_time: "last_heartbeat_time",
  metadata: "metadata",
};
const ATTEMPT_NULLABLE: ReadonlySet<string> = new Set(["end_time", "worker_id", "last_heartbeat_time", "metadata"]);

/**
 * Attempts or spans of `rolloutId` only if the viewer may see that rollout. Uncorrelated, so both databases
 * evaluate it once per statement rather than once per span row.
 */
export function visibleRollout(viewer: StoreViewer | undefined, rolloutId: string): Cond | null {
  const only = viewerCond(viewer, "vr.");
  return only && { sql: `EXISTS (SELECT 1 FROM store_rollouts vr WHERE vr.rollout_id = ? AND ${only.sql})`, params: [rolloutId, ...only.params] };
}

/** query_attempts, with Lightgate's `reason` on each attempt (the HTTP layer drops it). */
export function* queryAttempts(rolloutId: string, q: PageParams, viewer?: StoreViewer): Program<PaginatedResult<AttemptRecord>> {
  const { limit, offset } = checkPage(q);
  const order = orderBy(q.sort_by === undefined ? "sequence_id" : q.sort_by, q.sort_order ?? "asc", ATTEMPT_SORT, "sequence_id", "sequence_id", ATTEMPT_NULLABLE);
  const only = visibleRollout(viewer, rolloutId);
  const { rows, total } = yield* page<AttemptRow>("store_attempts", ATTEMPT_COLUMNS, whereClause([exact("rollout_id", rolloutId), ...(only ? [only] : [])], []), order, limit, offset);
  return { items: rows.map(attemptRecordFromRow), limit, offset, total };
}

export function* latestAttempt(rolloutId: string, viewer?: StoreViewer): Program<AttemptRecord | null> {
  const only = visibleRollout(viewer, rolloutId);
  const row = yield* one<AttemptRow>(
    `SELECT ${ATTEMPT_COLUMNS} FROM store_attempts WHERE rollout_id = ?${only ? ` AND ${only.sql}` : ""} ORDER BY sequence_id DESC LIMIT 1`,
    [rolloutId, ...(only?.params ?? [])],
  );
  return row ? attemptRecordFromRow(row) : null;
}

export type WorkerQuery = PageParams & { status_in?: WorkerStatus[] | null; worker_id_contains?: string | null; filter_logic?: FilterLogic };

const WORKER_SORT: Record<string, string> = Object.fromEntries(WORKER_COLUMNS.split(", ").map((c) => [c, c]));
const WORKER_NOT_NULL: ReadonlySet<string> = new Set(["worker_id", "status"]);
const WORKER_NULLABLE: ReadonlySet<string> = new Set(Object.values(WORKER_SORT).filter((c) => !WORKER_NOT_NULL.has(c)));

export function* queryWorkers(d: SqlDialect, q: WorkerQuery): Program<PaginatedResult<Worker>> {
  const { limit, offset } = checkPage(q);
  const pool: Cond[] = [];
  if (q.status_in) pool.push(within("status", q.status_in));
  if (q.worker_id_contains !== undefined && q.worker_id_contains !== null) pool.push(contains(d, "worker_id", q.worker_id_contains));
  const order = orderBy(q.sort_by, q.sort_order ?? "asc", WORKER_SORT, "created_pos", "created_pos", WORKER_NULLABLE);
  const { rows, total } = yield* page<WorkerRow>("store_workers", WORKER_COLUMNS, whereClause([], pool, q.filter_logic ?? "and"), order, limit, offset);
  return { items: rows.map(workerFromRow), limit, offset, total };
}

export function* getWorker(workerId: string): Program<Worker | null> {
  const row = yield* one<WorkerRow>(`SELECT ${WORKER_COLUMNS} FROM store_workers WHERE worker_id = ?`, [workerId]);
  return row ? workerFromRow(row) : null;
}

export { page as pageOf };
