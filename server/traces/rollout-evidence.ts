// What the rollouts page shows beside each rollout, read for the rows on the page only: the latest attempt's
// final reward (the last reward span in sequence order, as Agent Lightning's find_final_reward) and its error
// (a failed / timed-out / unresponsive attempt with the failure the runner recorded, or spans with status
// ERROR). The reward and error filters cannot be pushed into SQL without a stored column, so they scan the
// matching rollouts in the page's order, at most MAX_SCANNED of them, and the page says when it stopped.
import type { Database, Db } from "@/server/db/client";
import { rewardValueOf } from "@/server/gate/evidence/spans";
import { storeFor } from "@/server/store";
import type { RolloutQuery } from "@/server/store/queries";
import type { AttemptedRollout, PaginatedResult, Rollout } from "@/server/store/types";

/** Span names that carry a rollout's reward (emit_reward's annotation and the legacy reward span)… */
export const REWARD_SPAN_NAMES = ["agentlightning.annotation", "agentlightning.reward"];
/** …and what the body of a reward span under any other name holds (rewardValueOf's other two formats). */
const REWARD_BODY_MARKS = ["agentlightning.reward.0.value", "agentops."];
export const MAX_SCANNED = 5_000;
const SCAN_BATCH = 250;
const FAILED_ATTEMPT = new Set(["failed", "timeout", "unresponsive"]);

export type RolloutEvidence = { reward: number | null; error: string | null; errorSpans: number };
type Row = Rollout & { attempt?: AttemptedRollout["attempt"] };

export async function rolloutEvidence(db: Db, rows: readonly Row[]): Promise<Map<string, RolloutEvidence>> {
  const out = new Map<string, RolloutEvidence>(rows.map((r) => [r.rollout_id, { reward: null, error: null, errorSpans: 0 }]));
  const latest = new Map(rows.flatMap((r) => (r.attempt ? [[r.rollout_id, r.attempt.attempt_id] as const] : [])));
  if (!rows.length) return out;
  const ids = rows.map((r) => r.rollout_id);
  const rewardSpans = await db.storeSpan.findMany({ where: { rolloutId: { in: ids }, OR: [{ name: { in: REWARD_SPAN_NAMES } }, ...REWARD_BODY_MARKS.map((m) => ({ body: { contains: m } }))] }, select: { rolloutId: true, attemptId: true, sequenceId: true, name: true, body: true }, orderBy: [{ rolloutId: "asc" }, { sequenceId: "asc" }] });
  for (const s of rewardSpans) {
    if (latest.get(s.rolloutId) !== s.attemptId) continue;
    const body = JSON.parse(s.body) as { attributes?: Record<string, unknown> };
    const value = rewardValueOf({ name: s.name, attributes: body.attributes ?? {} });
    if (value !== null) out.get(s.rolloutId)!.reward = value;
  }
  const errors = await db.storeSpan.groupBy({ by: ["rolloutId", "attemptId"], where: { rolloutId: { in: ids }, statusCode: "ERROR" }, _count: { _all: true } });
  for (const e of errors) if (latest.get(e.rolloutId) === e.attemptId) out.get(e.rolloutId)!.errorSpans = e._count._all;
  for (const r of rows) {
    const ev = out.get(r.rollout_id)!;
    const failure = r.attempt?.metadata?.["lightgate.failure"];
    if (r.attempt && FAILED_ATTEMPT.has(r.attempt.status)) ev.error = `attempt ${r.attempt.status}${typeof failure === "string" ? `: ${failure.slice(0, 300)}` : ""}`;
    else if (ev.errorSpans > 0) ev.error = `${ev.errorSpans} span${ev.errorSpans === 1 ? "" : "s"} with status ERROR`;
    else if (r.status === "failed") ev.error = "rollout failed";
  }
  return out;
}

export type EvidenceFilter = { reward_min?: number; reward_max?: number; has_error?: boolean };
export type RolloutsWithEvidence = PaginatedResult<Row & { evidence: RolloutEvidence }> & {
  /** Set when a reward/error filter was applied: how many rollouts were scanned, and whether that was all of them. */
  scan: { scanned: number; complete: boolean } | null;
};

const matches = (ev: RolloutEvidence, f: EvidenceFilter) =>
  (f.has_error === undefined || (ev.error !== null) === f.has_error) &&
  (f.reward_min === undefined || (ev.reward !== null && ev.reward >= f.reward_min)) &&
  (f.reward_max === undefined || (ev.reward !== null && ev.reward <= f.reward_max));

export async function queryRolloutsWithEvidence(database: Database, q: RolloutQuery & EvidenceFilter): Promise<RolloutsWithEvidence> {
  const { reward_min, reward_max, has_error, ...query } = q;
  const store = storeFor(database);
  const filter = { reward_min, reward_max, has_error };
  if (reward_min === undefined && reward_max === undefined && has_error === undefined) {
    const page = (await store.queryRollouts(query)) as PaginatedResult<Row>;
    const ev = await rolloutEvidence(database.db, page.items);
    return { ...page, items: page.items.map((r) => ({ ...r, evidence: ev.get(r.rollout_id)! })), scan: null };
  }
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const found: (Row & { evidence: RolloutEvidence })[] = [];
  let scanned = 0;
  let total = 0;
  while (scanned < MAX_SCANNED) {
    const batch = (await store.queryRollouts({ ...query, limit: SCAN_BATCH, offset: scanned })) as PaginatedResult<Row>;
    total = batch.total;
    const ev = await rolloutEvidence(database.db, batch.items);
    for (const r of batch.items) if (matches(ev.get(r.rollout_id)!, filter)) found.push({ ...r, evidence: ev.get(r.rollout_id)! });
    scanned += batch.items.length;
    if (batch.items.length < SCAN_BATCH) break;
  }
  return { items: found.slice(offset, offset + limit), limit, offset, total: found.length, scan: { scanned, complete: scanned >= total } };
}
