// The store state a gate task's result was computed from — its "source": attempt count, span count, highest
// span sequence id, status and end. Spans are counted, not only sequence ids compared: an exporter may take its
// sequence id before the attempt ends and send the span after (the rollout's counter has moved already then).
import type { Db, Tx } from "@/server/db/client";

export type RolloutSource = { rolloutId: string; attempts: number; spans: number; maxSeq: number; status: string; end: number | null; latestAttemptId: string | null };

export const sourceKey = (h: RolloutSource) => `${h.attempts}|${h.spans}|${h.maxSeq}|${h.status}|${h.end ?? ""}`;

export function parseSourceKey(key: string): Omit<RolloutSource, "rolloutId" | "latestAttemptId"> {
  const [attempts, spans, maxSeq, status, end] = key.split("|");
  return { attempts: Number(attempts), spans: Number(spans), maxSeq: Number(maxSeq), status: status ?? "", end: end ? Number(end) : null };
}

export const SOURCE_COLUMNS = { rolloutId: true, status: true, endTime: true, attemptCount: true, latestAttemptId: true } as const;
type SourceRow = { rolloutId: string; status: string; endTime: number | null; attemptCount: number; latestAttemptId: string | null };

/** Span count and highest sequence id per rollout (one indexed read). */
export async function spanCountsOf(db: Db | Tx, rolloutIds: readonly string[]): Promise<Map<string, { spans: number; maxSeq: number }>> {
  if (rolloutIds.length === 0) return new Map();
  const spans = await db.storeSpan.groupBy({ by: ["rolloutId"], where: { rolloutId: { in: [...rolloutIds] } }, _count: { _all: true }, _max: { sequenceId: true } });
  return new Map(spans.map((s) => [s.rolloutId, { spans: s._count._all, maxSeq: s._max.sequenceId ?? 0 }]));
}

export const sourceOf = (r: SourceRow, counts: ReadonlyMap<string, { spans: number; maxSeq: number }>): RolloutSource => ({
  rolloutId: r.rolloutId,
  attempts: r.attemptCount,
  ...(counts.get(r.rolloutId) ?? { spans: 0, maxSeq: 0 }),
  status: r.status,
  end: r.endTime,
  latestAttemptId: r.latestAttemptId,
});

/** The store state of these rollouts: two indexed reads per 500 (the rollout rows, then span counts). */
export async function sourcesOf(db: Db | Tx, rolloutIds: readonly string[]): Promise<Map<string, RolloutSource>> {
  const out = new Map<string, RolloutSource>();
  for (let i = 0; i < rolloutIds.length; i += 500) {
    const ids = rolloutIds.slice(i, i + 500);
    // The rows first: a span landing between the two reads makes the source look newer, never older.
    const rows = await db.storeRollout.findMany({ where: { rolloutId: { in: ids } }, select: SOURCE_COLUMNS });
    const counts = await spanCountsOf(db, ids);
    for (const r of rows) out.set(r.rolloutId, sourceOf(r, counts));
  }
  return out;
}

type JudgedTask = { rolloutId: string; state: string; result: string | null };

/** Done tasks whose rollout moved on since their result was recorded (gone from the store counts as moved). */
export async function movedTasks<T extends JudgedTask>(db: Db | Tx, tasks: readonly T[]): Promise<{ task: T; was: string; now: RolloutSource | null }[]> {
  const judged = tasks.flatMap((task) => {
    const source = task.state === "done" && task.result ? (JSON.parse(task.result) as { source?: string }).source : undefined;
    return source ? [{ task, source }] : [];
  });
  if (judged.length === 0) return [];
  const now = await sourcesOf(db, judged.map((j) => j.task.rolloutId));
  return judged.flatMap(({ task, source }) => {
    const head = now.get(task.rolloutId) ?? null;
    return head && sourceKey(head) === source ? [] : [{ task, was: source, now: head }];
  });
}
