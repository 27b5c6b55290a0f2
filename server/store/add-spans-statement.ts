// The usual span write on PostgreSQL — spans of one attempt, nothing unusual about its state — as ONE
// statement with no transaction: move the rollout's sequence counter, insert the spans and, when due, write
// the attempt's heartbeat, all in data-modifying WITH clauses. The general program (spans.ts: lock and read,
// then insert, then COMMIT) holds the rollout's lock across two round trips; with 16 writers a round trip
// each was half of a REST span's latency (docs/benchmarks.md).
//
// Everything the general program checks or changes besides that is left to it: the statement's WHERE admits
// only an existing attempt of an existing rollout that this viewer may write, whose heartbeat moves no status
// (an attempt preparing or unresponsive turns running; a rollout still preparing for this attempt follows).
// Anything else matches no row — nothing is written — and the caller runs the general program, which
// applies the transition or throws the precise 403/404. tests/integration/store/add-spans-statement.test.ts
// compares the two over every state of the attempt, heartbeat, phase and viewer, and over generated sequences.
import { all, type Program, type SqlDialect, type SqlRunner } from "@/server/db/sql/program";
import { trainingWorkSql, type StoreViewer } from "./scope";
import { addSpans, HEARTBEAT_RESOLUTION_SECONDS, isDuplicate, REVIVED_BY_SPAN_SQL } from "./spans";
import type { Span } from "./types";

/** Spans per statement: 9 parameters a span stays far below PostgreSQL's 65,535. */
export const AT_ONCE_MAX = 1_000;

/**
 * $1 rollout, $2 attempt, $3 count (or the highest explicit id), $4 the viewer's identity (NULL: not a
 * gate-restricted viewer), $5 now (seconds), $6 the bodies' head (when the database numbers the spans); then
 * one row per span, whose `text` is the whole body or, when the database numbers it, the body after the number.
 */
function statement(rows: number, allocate: boolean): string {
  const counter = allocate ? "r.span_seq + $3" : "GREATEST(r.span_seq, $3)";
  const seq = allocate ? "c.span_seq - $3 + v.i" : "v.seq::int";
  const body = allocate ? "$6 || (c.span_seq - $3 + v.i) || v.text" : "v.text";
  const first = allocate ? 7 : 6;
  const values: string[] = [];
  for (let r = 0, p = first; r < rows; r++, p += 9) {
    const cols = Array.from({ length: 9 }, (_, k) => `$${p + k}`);
    values.push(`(${r + 1}, ${cols.join(", ")})`);
  }
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
ins AS (
  INSERT INTO store_spans (rollout_id, attempt_id, span_id, sequence_id, trace_id, parent_id, name, start_time, end_time, status_code, body)
  SELECT $1, $2, v.span_id, ${seq}, v.trace_id, v.parent_id, v.name, v.start_time::float8, v.end_time::float8, v.status_code, ${body}
  FROM c, (VALUES ${values.join(", ")}) v(i, span_id, seq, trace_id, parent_id, name, start_time, end_time, status_code, text)
)
SELECT span_seq FROM c`;
}

/** Statement texts by batch size: exporters send a few sizes again and again; a caller sending every size gets at most this many kept. */
const cache = new Map<string, string>();
const CACHED_TEXTS = 128;
function statementFor(rows: number, allocate: boolean): string {
  const key = `${rows}${allocate ? "a" : "g"}`;
  let text = cache.get(key);
  if (text === undefined) {
    if (cache.size >= CACHED_TEXTS) cache.clear();
    cache.set(key, (text = statement(rows, allocate)));
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
export function* addSpansAtOnce(d: SqlDialect, spans: Span[], now: number, viewer?: StoreViewer): Program<Span[] | null> {
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
  const rows = yield* all<{ span_seq: number }>(statementFor(spans.length, allocate), params, { last: true });
  if (!rows.length) return null;
  if (allocate) {
    const end = Number(rows[0]!.span_seq);
    spans.forEach((s, i) => (s.sequence_id = end - spans.length + 1 + i));
  }
  return spans;
}

/**
 * add_many_spans as the store runs it: on PostgreSQL this statement, else the general program with a plain
 * insert, and the careful program after a duplicate; on SQLite the careful program. `now` is read per run.
 * The programs number spans that came without a sequence id in place; each run (a retry after a deadlock, the
 * careful run after a duplicate) starts again from the ids as given, so it allocates its own.
 */
export async function writeSpans(sql: SqlRunner, spans: Span[], now: () => number, viewer?: StoreViewer): Promise<Span[]> {
  if (spans.length === 0) return [];
  const given = spans.map((s) => s.sequence_id);
  const program = (plain: boolean) => (d: SqlDialect) => {
    spans.forEach((s, i) => (s.sequence_id = given[i]!));
    return addSpans(d, spans, now(), viewer, { plain });
  };
  if (sql.dialect.name !== "postgresql") return sql.write(program(false));
  try {
    const done = await sql.write((d) => addSpansAtOnce(d, spans, now(), viewer));
    if (done) return done;
    return await sql.write(program(true));
  } catch (e) {
    if (!isDuplicate(e)) throw e;
    return sql.write(program(false));
  }
}
