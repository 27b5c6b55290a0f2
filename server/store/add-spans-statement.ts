// The usual span write on PostgreSQL — spans of one attempt — as ONE statement with no transaction: move the
// rollout's sequence counter, insert the spans and, when due, write the attempt's heartbeat, all in data-modifying
// WITH clauses. The heartbeat also revives an attempt preparing or unresponsive, and its rollout follows — every
// rollout's first batch (an attempt is preparing until its first span), which the general program took four round
// trips for. The general program (spans.ts: lock and read, then insert, heartbeat, COMMIT) holds the rollout's lock
// across them; with 16 writers a round trip each was half of a REST span's latency (docs/benchmarks.md).
//
// What the statement does not decide it leaves to the general program: its WHERE admits only an existing attempt
// of an existing rollout that this viewer may write. Anything else matches no row — nothing is written — and
// the caller runs the general program, which throws the precise 403/404. tests/integration/store/
// add-spans-statement.test.ts compares the two over every state of the rollout, attempt, heartbeat, phase and
// viewer, and over generated sequences.
import { all, type Program, type SqlDialect, type SqlRunner } from "@/server/db/sql/program";
import { trainingWorkSql, type StoreViewer } from "./scope";
import { addSpans, HEARTBEAT_RESOLUTION_SECONDS, isDuplicate, REVIVED_BY_SPAN_SQL } from "./spans";
import type { Span } from "./types";

/** Spans per statement: 9 parameters a span stays far below PostgreSQL's 65,535. */
export const AT_ONCE_MAX = 1_000;

/** The rollout follows its latest attempt to running (only a live latest attempt moves it: not a late span of a failed one). */
const MOVES = "m.alive AND r.latest_attempt_id = $2 AND r.status IN ('preparing', 'requeuing')";

/**
 * $1 rollout, $2 attempt, $3 count (or the highest explicit id), $4 the viewer's identity (NULL: not a
 * gate-restricted viewer), $5 now (seconds), $6 the bodies' head (when the database numbers the spans); then
 * one row per span, whose `text` is the whole body or, when the database numbers it, the body after the number.
 */
function statement(rows: number, allocate: boolean, revive: boolean): string {
  const counter = allocate ? "r.span_seq + $3" : "GREATEST(r.span_seq, $3)";
  const seq = allocate ? "c.span_seq - $3 + v.i" : "v.seq::int";
  const body = allocate ? "$6 || (c.span_seq - $3 + v.i) || v.text" : "v.text";
  const first = allocate ? 7 : 6;
  const values: string[] = [];
  for (let r = 0, p = first; r < rows; r++, p += 9) {
    const cols = Array.from({ length: 9 }, (_, k) => `$${p + k}`);
    values.push(`(${r + 1}, ${cols.join(", ")})`);
  }
  const insert = `ins AS (
  INSERT INTO store_spans (rollout_id, attempt_id, span_id, sequence_id, trace_id, parent_id, name, start_time, end_time, status_code, body)
  SELECT $1, $2, v.span_id, ${seq}, v.trace_id, v.parent_id, v.name, v.start_time::float8, v.end_time::float8, v.status_code, ${body}
  FROM c, (VALUES ${values.join(", ")}) v(i, span_id, seq, trace_id, parent_id, name, start_time, end_time, status_code, text)
)
SELECT span_seq FROM c`;
  if (!revive)
    // The attempt's status (read on the statement's snapshot) only guards: a heartbeat that would move a status
    // matches no row here, and the reviving form runs instead.
    return `WITH a AS (SELECT status, last_heartbeat_time, served_by FROM store_attempts WHERE rollout_id = $1 AND attempt_id = $2),
c AS (
  UPDATE store_rollouts r SET span_seq = ${counter} FROM a
  WHERE r.rollout_id = $1
    AND a.status NOT IN ${REVIVED_BY_SPAN_SQL}
    AND NOT (r.latest_attempt_id = $2 AND r.status IN ('preparing', 'requeuing'))
    AND ($4::text IS NULL OR ${trainingWorkSql("r.")} OR a.served_by = $4::text)
  RETURNING r.span_seq
),
hb AS (
  UPDATE store_attempts t SET last_heartbeat_time = $5::float8 FROM c
  WHERE t.rollout_id = $1 AND t.attempt_id = $2 AND t.status NOT IN ${REVIVED_BY_SPAN_SQL}
    AND (t.last_heartbeat_time IS NULL OR $5::float8 - t.last_heartbeat_time >= ${HEARTBEAT_RESOLUTION_SECONDS})
),
${insert}`;
  // Reviving: `l` locks the rollout first, as every program that changes a rollout does; `hb` then writes the
  // heartbeat when due — reviving an attempt preparing or unresponsive — judged on the attempt row as it is now
  // (an UPDATE re-reads a row changed since the statement began; a plain read would not); `c` moves the counter
  // and, when `hb` left the attempt running and it is the rollout's latest, the rollout still preparing or
  // requeuing to running — spans.ts's heartbeat(), in one statement. The row lock `l` takes costs the database
  // ~25 % more per statement, so the lean form above runs wherever no status is expected to move.
  return `WITH a AS (SELECT served_by FROM store_attempts WHERE rollout_id = $1 AND attempt_id = $2),
l AS (
  SELECT r.rollout_id FROM store_rollouts r, a
  WHERE r.rollout_id = $1 AND ($4::text IS NULL OR ${trainingWorkSql("r.")} OR a.served_by = $4::text)
  FOR UPDATE OF r
),
hb AS (
  UPDATE store_attempts t SET last_heartbeat_time = $5::float8,
    status = CASE WHEN t.status IN ${REVIVED_BY_SPAN_SQL} THEN 'running' ELSE t.status END
  FROM l
  WHERE t.rollout_id = $1 AND t.attempt_id = $2
    AND (t.status IN ${REVIVED_BY_SPAN_SQL} OR t.last_heartbeat_time IS NULL OR $5::float8 - t.last_heartbeat_time >= ${HEARTBEAT_RESOLUTION_SECONDS})
  RETURNING t.status
),
m AS (
  SELECT COALESCE(bool_or(hb.status = 'running'), false) AS alive FROM hb
),
c AS (
  UPDATE store_rollouts r SET span_seq = ${counter},
    status = CASE WHEN ${MOVES} THEN 'running' ELSE r.status END,
    queue_pos = CASE WHEN ${MOVES} THEN NULL ELSE r.queue_pos END,
    requeue_cause = CASE WHEN ${MOVES} THEN NULL ELSE r.requeue_cause END
  FROM l, m
  WHERE r.rollout_id = l.rollout_id
  RETURNING r.span_seq
),
${insert}`;
}

/** Statement texts by batch size: exporters send a few sizes again and again; a caller sending every size gets at most this many kept. */
const cache = new Map<string, string>();
const CACHED_TEXTS = 128;
function statementFor(rows: number, allocate: boolean, revive: boolean): string {
  const key = `${rows}${allocate ? "a" : "g"}${revive ? "r" : ""}`;
  let text = cache.get(key);
  if (text === undefined) {
    if (cache.size >= CACHED_TEXTS) cache.clear();
    cache.set(key, (text = statement(rows, allocate, revive)));
  }
  return text;
}

const headOf = (rolloutId: string, attemptId: string) => `{"rollout_id":${JSON.stringify(rolloutId)},"attempt_id":${JSON.stringify(attemptId)},"sequence_id":`;

/**
 * The one-statement write, or `null` when it does not apply (or matched nothing: see above) — then nothing
 * was written. Spans that came without a number (`sequence_id < 0`, OTLP) are numbered by the database: each body is
 * stored as its serialized head, the number and the rest, so it must start with rollout_id, attempt_id and
 * sequence_id (as mapped OTLP spans do). Inserts without ON CONFLICT: a duplicate fails the statement (23505).
 */
export function* addSpansAtOnce(d: SqlDialect, spans: Span[], now: number, viewer?: StoreViewer, o: { revive?: boolean } = {}): Program<Span[] | null> {
  if (d.name !== "postgresql" || spans.length === 0 || spans.length > AT_ONCE_MAX) return null;
  const { rollout_id: rolloutId, attempt_id: attemptId } = spans[0]!;
  const allocate = spans[0]!.sequence_id < 0;
  const head = headOf(rolloutId, attemptId);
  const params: unknown[] = [rolloutId, attemptId, 0, viewer?.identity ?? null, now];
  if (allocate) params.push(head);
  let highest = 0;
  for (const s of spans) {
    if (s.rollout_id !== rolloutId || s.attempt_id !== attemptId || s.sequence_id < 0 !== allocate) return null;
    let text = JSON.stringify(s);
    if (allocate) {
      // The number goes between the head and the rest: `-1` as mapped, replaced by the database's.
      if (!text.startsWith(head) || !text.startsWith("-1,", head.length)) return null;
      text = text.slice(head.length + 2);
    } else highest = Math.max(highest, s.sequence_id);
    params.push(s.span_id, allocate ? null : s.sequence_id, s.trace_id, s.parent_id, s.name, s.start_time, s.end_time, s.status.status_code, text);
  }
  params[2] = allocate ? spans.length : highest;
  const rows = yield* all<{ span_seq: number }>(statementFor(spans.length, allocate, o.revive === true), params, { last: true });
  if (!rows.length) return null;
  if (allocate) {
    const end = Number(rows[0]!.span_seq);
    spans.forEach((s, i) => (s.sequence_id = end - spans.length + 1 + i));
  }
  return spans;
}

/**
 * Attempts this process started (a dequeue, start_rollout, start_attempt) whose spans it has not written yet: their
 * first batch will revive them (an attempt is preparing until its first span), so it goes straight to the reviving
 * statement instead of the lean one that would match nothing. Only a hint: a batch that misses it (its attempt
 * started by another process) tries the lean form first. Bounded: the oldest are forgotten first.
 */
export class FreshAttempts {
  readonly #keys = new Set<string>();
  constructor(readonly max = 10_000) {}
  add(rolloutId: string, attemptId: string): void {
    this.#keys.add(keyOf(rolloutId, attemptId));
    if (this.#keys.size > this.max) this.#keys.delete(this.#keys.values().next().value!);
  }
  /** Whether the attempt was fresh; it no longer is. */
  take(rolloutId: string, attemptId: string): boolean {
    return this.#keys.delete(keyOf(rolloutId, attemptId));
  }
}
/** Length-prefixed: no pair of ids makes another pair's key. */
const keyOf = (rolloutId: string, attemptId: string) => `${rolloutId.length}:${rolloutId}${attemptId}`;

/**
 * add_many_spans as the store runs it: on PostgreSQL the lean statement (the reviving one for an attempt known
 * fresh, or when the lean one matched nothing), else the general program with a plain insert, and the careful
 * program after a duplicate; on SQLite the careful program. `now` is read per run. The programs number spans that
 * came without a sequence id in place; each run (a retry after a deadlock, the careful run after a duplicate)
 * starts again from the ids as given, so it allocates its own.
 */
export async function writeSpans(sql: SqlRunner, spans: Span[], now: () => number, viewer?: StoreViewer, fresh?: FreshAttempts): Promise<Span[]> {
  if (spans.length === 0) return [];
  const given = spans.map((s) => s.sequence_id);
  const program = (plain: boolean) => (d: SqlDialect) => {
    spans.forEach((s, i) => (s.sequence_id = given[i]!));
    return addSpans(d, spans, now(), viewer, { plain });
  };
  if (sql.dialect.name !== "postgresql") return sql.write(program(false));
  try {
    const first = fresh?.take(spans[0]!.rollout_id, spans[0]!.attempt_id) === true;
    const done =
      (await sql.write((d) => addSpansAtOnce(d, spans, now(), viewer, { revive: first }))) ??
      (first ? null : await sql.write((d) => addSpansAtOnce(d, spans, now(), viewer, { revive: true })));
    if (done) return done;
    return await sql.write(program(true));
  } catch (e) {
    if (!isDuplicate(e)) throw e;
    return sql.write(program(false));
  }
}
