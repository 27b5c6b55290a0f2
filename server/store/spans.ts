// Spans: ingest (REST and OTLP), per-rollout sequence ids, and queries that return the stored JSON text
// as it was received (unknown keys included), so serving 1,000 spans is a string join, not a re-encode.
// A span counts as a heartbeat of its attempt (preparing/unresponsive → running; the rollout follows).
import { all, column, one, placeholders, run, valuesSql, type Program, type SqlDialect } from "@/server/db/sql/program";
import { StoreNotFoundError } from "./errors";
import { visibleRollout } from "./queries";
import { checkServer, viewerCond, type StoreViewer } from "./scope";
import { checkPage, contains, exact, limitOffset, orderBy, whereClause, type Cond } from "./query";
import type { FilterLogic, PaginatedResult, SortOrder, Span } from "./types";

/** A span to store; `sequence_id < 0` asks the store to allocate one (OTLP spans without the attribute). */
export type IncomingSpan = Span;

const SPAN_WIDTH = 11;
const INSERT_SPANS = "INSERT INTO store_spans (rollout_id, attempt_id, span_id, sequence_id, trace_id, parent_id, name, start_time, end_time, status_code, body)";
const INSERT_SPANS_TAIL = " ON CONFLICT DO NOTHING RETURNING rollout_id, attempt_id, span_id";
const INSERT_SPANS_SQLITE_TAIL = " ON CONFLICT DO NOTHING";
const CHUNK = 150;

/** Heartbeats closer together than this are not written again (the watchdog works in seconds). */
export const HEARTBEAT_RESOLUTION_SECONDS = 1;
/** The attempt statuses a span moves to running (it is a heartbeat), as SQL and as a check. */
export const REVIVED_BY_SPAN_SQL = "('preparing', 'unresponsive')";
const revivedBySpan = (status: string) => status === "preparing" || status === "unresponsive";

type LockedSpanRollout = { latest_attempt_id: string | null; span_seq: number; phase: string | null };

function* lockRollouts(d: SqlDialect, ids: string[]): Program<Map<string, LockedSpanRollout>> {
  const rows = yield* all<LockedSpanRollout & { rollout_id: string }>(
    `SELECT rollout_id, latest_attempt_id, span_seq, phase FROM store_rollouts WHERE rollout_id IN (${placeholders(ids.length)}) ORDER BY rollout_id${d.forUpdate}`,
    ids,
  );
  return new Map(rows.map((r) => [r.rollout_id, r]));
}

type AttemptState = { rollout_id: string; attempt_id: string; status: string; last_heartbeat_time: number | null; served_by: string | null };
type Claimed = { rollouts: Map<string, LockedSpanRollout>; known: Map<string, AttemptState> };

/**
 * The usual call — spans of one attempt, all with sequence ids or all without (REST, one OTLP resource) —
 * in one statement on PostgreSQL: lock the rollout, move its counter and read the attempt (every round trip
 * costs both processes CPU; this was three of them).
 */
function* claimOneAttempt(d: SqlDialect, spans: IncomingSpan[], missing: number): Program<Claimed> {
  const { rollout_id, attempt_id } = spans[0]!;
  const set = missing > 0 ? "span_seq = span_seq + ?" : `span_seq = ${d.greatest("span_seq", "?")}`;
  const row = yield* one<{ latest_attempt_id: string | null; span_seq: number; phase: string | null; attempt_status: string | null; attempt_heartbeat: number | null; attempt_served_by: string | null }>(
    `UPDATE store_rollouts SET ${set} WHERE rollout_id = ?
     RETURNING latest_attempt_id, span_seq, phase,
       (SELECT a.status FROM store_attempts a WHERE a.rollout_id = store_rollouts.rollout_id AND a.attempt_id = ?) AS attempt_status,
       (SELECT a.last_heartbeat_time FROM store_attempts a WHERE a.rollout_id = store_rollouts.rollout_id AND a.attempt_id = ?) AS attempt_heartbeat,
       (SELECT a.served_by FROM store_attempts a WHERE a.rollout_id = store_rollouts.rollout_id AND a.attempt_id = ?) AS attempt_served_by`,
    [missing > 0 ? missing : spans.reduce((m, s) => Math.max(m, s.sequence_id), 0), rollout_id, attempt_id, attempt_id, attempt_id],
  );
  if (!row) throw new StoreNotFoundError(`Rollout ${rollout_id} not found`);
  // Throwing rolls the counter back with the rest of the transaction.
  if (row.attempt_status === null) throw new StoreNotFoundError(`Attempt ${attempt_id} not found for rollout ${rollout_id}`);
  const end = Number(row.span_seq);
  if (missing > 0) spans.forEach((s, i) => (s.sequence_id = end - missing + 1 + i));
  const state = { rollout_id, attempt_id, status: row.attempt_status, last_heartbeat_time: row.attempt_heartbeat, served_by: row.attempt_served_by };
  return { rollouts: new Map([[rollout_id, { latest_attempt_id: row.latest_attempt_id, span_seq: end, phase: row.phase }]]), known: new Map([[`${rollout_id}\u0000${attempt_id}`, state]]) };
}

/** Spans of several attempts: lock the rollouts in id order, check every attempt, then move the counters. */
function* claimMany(d: SqlDialect, spans: IncomingSpan[], rolloutIds: string[], attemptIds: string[]): Program<Claimed> {
  const rollouts = yield* lockRollouts(d, rolloutIds);
  for (const id of rolloutIds) if (!rollouts.has(id)) throw new StoreNotFoundError(`Rollout ${id} not found`);
  const attempts = yield* all<AttemptState>(
    `SELECT rollout_id, attempt_id, status, last_heartbeat_time, served_by FROM store_attempts WHERE rollout_id IN (${placeholders(rolloutIds.length)}) AND attempt_id IN (${placeholders(attemptIds.length)})`,
    [...rolloutIds, ...attemptIds],
  );
  const known = new Map(attempts.map((a) => [`${a.rollout_id}\u0000${a.attempt_id}`, a]));
  for (const s of spans) if (!known.has(`${s.rollout_id}\u0000${s.attempt_id}`)) throw new StoreNotFoundError(`Attempt ${s.attempt_id} not found for rollout ${s.rollout_id}`);

  // Allocate sequence ids where missing, then raise each counter to the highest explicit id.
  const missing = new Map<string, IncomingSpan[]>();
  const highest = new Map<string, number>();
  for (const s of spans) {
    if (s.sequence_id < 0) {
      const list = missing.get(s.rollout_id);
      if (list) list.push(s);
      else missing.set(s.rollout_id, [s]);
    } else highest.set(s.rollout_id, Math.max(highest.get(s.rollout_id) ?? 0, s.sequence_id));
  }
  for (const id of rolloutIds) {
    const need = missing.get(id);
    if (need) {
      const end = Number((yield* one<{ span_seq: number }>("UPDATE store_rollouts SET span_seq = span_seq + ? WHERE rollout_id = ? RETURNING span_seq", [need.length, id]))!.span_seq);
      need.forEach((s, i) => (s.sequence_id = end - need.length + 1 + i));
    }
    const max = highest.get(id);
    if (max !== undefined && max > Number(rollouts.get(id)!.span_seq)) yield* run(`UPDATE store_rollouts SET span_seq = ${d.greatest("span_seq", "?")} WHERE rollout_id = ?`, [max, id]);
  }
  return { rollouts, known };
}

/**
 * add_many_spans in one transaction: every span's rollout and attempt must exist (else nothing is written),
 * duplicates (same rollout, attempt, span id) are skipped, sequence counters move to at least the highest
 * id seen, and each attempt that got a span gets a heartbeat. Returns the spans actually added, in order.
 */
export function* addSpans(d: SqlDialect, spans: IncomingSpan[], now: number, viewer?: StoreViewer, o: AddSpansOptions = {}): Program<Span[]> {
  if (spans.length === 0) return [];
  const rolloutIds = [...new Set(spans.map((s) => s.rollout_id))].sort();
  const attemptIds = [...new Set(spans.map((s) => s.attempt_id))];
  const missingCount = spans.reduce((n, s) => n + (s.sequence_id < 0 ? 1 : 0), 0);
  const { rollouts, known } =
    // On SQLite a statement is a function call, not a round trip: the general path costs nothing more there.
    d.name === "postgresql" && rolloutIds.length === 1 && attemptIds.length === 1 && (missingCount === 0 || missingCount === spans.length)
      ? yield* claimOneAttempt(d, spans, missingCount)
      : yield* claimMany(d, spans, rolloutIds, attemptIds);
  // Gate work is written only by the identity that served the attempt; throwing rolls the counters back.
  if (viewer) for (const a of known.values()) checkServer(viewer, a.rollout_id, rollouts.get(a.rollout_id)!, a.served_by);

  // Which spans went in. PostgreSQL says so with RETURNING. On SQLite RETURNING cost ~2 µs a row (the rows
  // are buffered, then handed to JS one object at a time), so the insert only counts its rows; when a chunk
  // fell short (duplicates), its new rows are read back: those past the table's highest rowid before the
  // insert. That is exact because a SQLite program runs alone under the write lock and new rowids only grow
  // (SQLite picks random ones only once the largest is 2^63 - 1).
  const key = (s: { rollout_id: string; attempt_id: string; span_id: string }) => `${s.rollout_id}\u0000${s.attempt_id}\u0000${s.span_id}`;
  // With no heartbeat due, the insert is the program's last statement: COMMIT travels with it (PostgreSQL).
  const anyBeatDue = [...known.values()].some((a) => beatDue(a, now));
  const inserted = new Set<string>();
  let every = true; // every span went in (then they are also pairwise distinct: a repeat conflicts)
  for (let i = 0; i < spans.length; i += CHUNK) {
    const chunk = spans.slice(i, i + CHUNK);
    const params: unknown[] = [];
    for (const s of chunk) {
      params.push(s.rollout_id, s.attempt_id, s.span_id, s.sequence_id, s.trace_id, s.parent_id, s.name, s.start_time, s.end_time, s.status.status_code, JSON.stringify(s));
    }
    if (d.name === "sqlite") {
      const before = Number((yield* one<{ m: number | null }>("SELECT MAX(rowid) AS m FROM store_spans"))?.m ?? 0);
      const count = yield* run(valuesSql(INSERT_SPANS, SPAN_WIDTH, chunk.length, INSERT_SPANS_SQLITE_TAIL), params);
      if (count === chunk.length) {
        if (!every) for (const s of chunk) inserted.add(key(s));
        continue;
      }
      if (every) for (const s of spans.slice(0, i)) inserted.add(key(s));
      every = false;
      if (count > 0) for (const r of yield* all<Parameters<typeof key>[0]>("SELECT rollout_id, attempt_id, span_id FROM store_spans WHERE rowid > ?", [before])) inserted.add(key(r));
      continue;
    }
    const last = !anyBeatDue && i + CHUNK >= spans.length;
    if (o.plain) {
      // No duplicate expected: every row goes in or the statement fails (23505) and the caller runs again without `plain`.
      yield* run(valuesSql(INSERT_SPANS, SPAN_WIDTH, chunk.length), params, { last });
      continue;
    }
    const rows = yield* all<{ rollout_id: string; attempt_id: string; span_id: string }>(valuesSql(INSERT_SPANS, SPAN_WIDTH, chunk.length, INSERT_SPANS_TAIL), params, { last });
    if (rows.length === chunk.length && every) continue;
    if (every) for (const s of spans.slice(0, i)) inserted.add(key(s));
    every = false;
    for (const r of rows) inserted.add(key(r));
  }
  const beating = new Map<string, IncomingSpan>();
  let added: Span[];
  if (every) {
    added = spans;
    for (const s of spans) beating.set(`${s.rollout_id}\u0000${s.attempt_id}`, s);
  } else {
    added = [];
    const seen = new Set<string>();
    for (const s of spans) {
      const k = key(s);
      // Within one batch a repeated span id is a duplicate too: only its first occurrence was stored.
      if (!inserted.has(k) || seen.has(k)) continue;
      seen.add(k);
      added.push(s);
      beating.set(`${s.rollout_id}\u0000${s.attempt_id}`, s);
    }
  }
  for (const s of [...beating.values()].sort((a, b) => (a.rollout_id < b.rollout_id ? -1 : a.rollout_id > b.rollout_id ? 1 : 0))) {
    if (!beatDue(known.get(`${s.rollout_id}\u0000${s.attempt_id}`)!, now)) continue; // nothing would change
    yield* heartbeat(s.rollout_id, s.attempt_id, rollouts.get(s.rollout_id)!.latest_attempt_id, now);
  }
  return added;
}

/**
 * `plain` (PostgreSQL): insert without ON CONFLICT and without RETURNING — a speculative insert per row and the
 * rows sent back cost the database ~20 % of a span's insert and the server the rows' parsing, to learn what is
 * almost always "all of them". A duplicate then fails the whole program with a unique violation (`isDuplicate`),
 * and the caller runs it again the careful way.
 */
export type AddSpansOptions = { plain?: boolean };

/** The unique violation a `plain` insert fails with when a span is already stored (or repeated in the batch). */
export const isDuplicate = (e: unknown) => (e as { code?: string } | null)?.code === "23505";

/** Whether a span now would change its attempt: a heartbeat older than the resolution, or a status it moves. */
function beatDue(a: AttemptState, now: number): boolean {
  const fresh = a.last_heartbeat_time !== null && now - Number(a.last_heartbeat_time) < HEARTBEAT_RESOLUTION_SECONDS;
  return !fresh || revivedBySpan(a.status);
}

function* heartbeat(rolloutId: string, attemptId: string, latestAttemptId: string | null, now: number): Program<void> {
  const row = yield* one<{ status: string }>(
    `UPDATE store_attempts SET last_heartbeat_time = ?, status = CASE WHEN status IN ${REVIVED_BY_SPAN_SQL} THEN 'running' ELSE status END
     WHERE rollout_id = ? AND attempt_id = ? RETURNING status`,
    [now, rolloutId, attemptId],
  );
  // Only a live latest attempt moves its rollout to running (a late span of a failed attempt does not).
  if (row?.status === "running" && attemptId === latestAttemptId) {
    yield* run(
      "UPDATE store_rollouts SET status = 'running', queue_pos = NULL, requeue_cause = NULL WHERE rollout_id = ? AND latest_attempt_id = ? AND status IN ('preparing', 'requeuing')",
      [rolloutId, attemptId],
    );
  }
}

/**
 * get_many_span_sequence_ids: strictly increasing per rollout (the attempt id is not part of the counter).
 * Gate work is missing for a viewer that may not serve gate work (its agent and phase binding aside: a bound
 * runner may number spans of a rollout it started itself).
 */
export function* nextSequenceIds(rolloutIds: string[], viewer?: StoreViewer): Program<number[]> {
  const counts = new Map<string, number>();
  for (const id of rolloutIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  const next = new Map<string, number>();
  const only = viewerCond(viewer && { ...viewer, agents: null, phases: null });
  for (const [id, n] of [...counts].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const row = yield* one<{ span_seq: number }>(`UPDATE store_rollouts SET span_seq = span_seq + ? WHERE rollout_id = ?${only ? ` AND ${only.sql}` : ""} RETURNING span_seq`, [n, id, ...(only?.params ?? [])]);
    if (!row) throw new StoreNotFoundError(`Rollout ${id} not found`);
    next.set(id, Number(row.span_seq) - n);
  }
  return rolloutIds.map((id) => {
    const v = next.get(id)! + 1;
    next.set(id, v);
    return v;
  });
}

export type SpanQuery = {
  rollout_id: string;
  attempt_id?: string | null; // an id, "latest", or null/undefined for all attempts
  trace_id?: string | null;
  trace_id_contains?: string | null;
  span_id?: string | null;
  span_id_contains?: string | null;
  parent_id?: string | null;
  parent_id_contains?: string | null;
  name?: string | null;
  name_contains?: string | null;
  filter_logic?: FilterLogic;
  limit?: number;
  offset?: number;
  sort_by?: string | null;
  sort_order?: SortOrder;
};

const SPAN_SORT: Record<string, string> = {
  rollout_id: "rollout_id",
  attempt_id: "attempt_id",
  sequence_id: "sequence_id",
  trace_id: "trace_id",
  span_id: "span_id",
  parent_id: "parent_id",
  name: "name",
  status: "status_code",
  attributes: "body",
  events: "body",
  links: "body",
  start_time: "start_time",
  end_time: "end_time",
  context: "body",
  parent: "body",
  resource: "body",
};

const SPAN_NULLABLE: ReadonlySet<string> = new Set(["parent_id", "start_time", "end_time"]);

/** The WHERE and ORDER BY of a span query; `null` when "latest" names a rollout without attempts. */
export function* spanSelection(d: SqlDialect, q: SpanQuery, viewer?: StoreViewer): Program<{ where: Cond; order: string } | null> {
  let attemptId = q.attempt_id ?? null;
  if (attemptId === "latest") {
    const r = yield* one<{ latest_attempt_id: string | null }>("SELECT latest_attempt_id FROM store_rollouts WHERE rollout_id = ?", [q.rollout_id]);
    if (!r?.latest_attempt_id) return null;
    attemptId = r.latest_attempt_id;
  }
  const must = [exact("rollout_id", q.rollout_id)];
  if (attemptId !== null) must.push(exact("attempt_id", attemptId));
  // A rollout the viewer may not see has no spans for it (one statement still: a condition, not a read).
  const only = visibleRollout(viewer, q.rollout_id);
  if (only) must.push(only);
  const pool: Cond[] = [];
  for (const field of ["trace_id", "span_id", "parent_id", "name"] as const) {
    const eq = q[field];
    const sub = q[`${field}_contains`];
    if (eq !== undefined && eq !== null) pool.push(exact(field, eq));
    if (sub !== undefined && sub !== null) pool.push(contains(d, field, sub));
  }
  const sortBy = q.sort_by === undefined ? "sequence_id" : q.sort_by;
  // Ties in arrival order, as the reference's stable sort keeps them: sequence ids are issued as spans arrive.
  const tiebreak = sortBy === "sequence_id" ? "start_time, span_id" : "sequence_id, start_time, span_id";
  const order = orderBy(sortBy, q.sort_order ?? "asc", SPAN_SORT, "sequence_id, start_time, span_id", tiebreak, SPAN_NULLABLE);
  return { where: whereClause(must, pool, q.filter_logic ?? "and"), order };
}

/**
 * One page of spans as stored JSON text: what the HTTP API sends, written into a reused buffer
 * (server/http/response-buffers.ts). SQLite's group_concat into one BLOB cost about as much CPU, but made
 * a fresh 1.5 MB buffer per 1,000-span page that only a full collection could reclaim.
 */
export function* querySpansText(d: SqlDialect, q: SpanQuery, viewer?: StoreViewer): Program<PaginatedResult<string>> {
  const { limit, offset } = checkPage(q);
  const sel = yield* spanSelection(d, q, viewer);
  if (!sel) return { items: [], limit, offset, total: 0 };
  const lo = limitOffset(limit, offset);
  const items = yield* column<string>(`SELECT body FROM store_spans${sel.where.sql}${sel.order}${lo.sql}`, [...sel.where.params, ...lo.params]);
  const total =
    offset === 0 && (limit === -1 || items.length < limit)
      ? items.length
      : Number((yield* one<{ n: number }>(`SELECT COUNT(*) AS n FROM store_spans${sel.where.sql}`, sel.where.params))!.n);
  return { items, limit, offset, total };
}

export function* countSpans(d: SqlDialect, q: SpanQuery): Program<number> {
  const sel = yield* spanSelection(d, q);
  if (!sel) return 0;
  return Number((yield* one<{ n: number }>(`SELECT COUNT(*) AS n FROM store_spans${sel.where.sql}`, sel.where.params))!.n);
}
