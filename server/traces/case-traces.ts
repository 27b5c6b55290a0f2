// One locked-gate case, the exact parent's trace beside the candidate's: the rollouts the receipt's judged
// evidence names (server/receipts/case-rollouts.ts), each one's latest attempt — the attempt the gate scores —
// read from the store in sequence order (secrets masked, as every dashboard read of stored JSON), and what
// differs between the two (case-diff.ts). Bounded: at most MAX_CASE_SPANS spans a side, and the answer says so.
import type { Database } from "@/server/db/client";
import { caseRollouts, type CaseRollouts, type CaseSide } from "@/server/receipts/case-rollouts";
import { storeFor } from "@/server/store";
import type { Span } from "@/server/store/types";
import type { OutlineSpan } from "@/lib/spans/tree";
import { spanKey } from "@/lib/spans/tree";
import { masked } from "@/lib/json/secrets";
import { diffCaseTraces, type CaseDiff, type DiffSpan } from "./case-diff";

export const MAX_CASE_SPANS = 2000;

export type CaseTrace = {
  /** The rollout as the store holds it now; null when the evidence names none or the store no longer has it. */
  rollout: { status: string; attemptId: string | null; attempts: number; input: unknown } | null;
  spans: OutlineSpan[];
  /** Spans of the latest attempt in the store (only the first MAX_CASE_SPANS are read). */
  totalSpans: number;
};

export type CaseTraces = CaseRollouts & { traces: { parent: CaseTrace; candidate: CaseTrace }; diff: CaseDiff };

const outline = (s: Span): OutlineSpan => ({
  attempt_id: s.attempt_id,
  span_id: s.span_id,
  parent_id: s.parent_id,
  sequence_id: s.sequence_id,
  name: s.name,
  start_time: s.start_time,
  end_time: s.end_time,
  status_code: s.status.status_code,
});

async function readSide(database: Database, side: CaseSide): Promise<{ trace: CaseTrace; spans: DiffSpan[] }> {
  const empty = { trace: { rollout: null, spans: [], totalSpans: 0 }, spans: [] };
  if (!side.rolloutId) return empty;
  const store = storeFor(database);
  const rollout = await store.getRollout(side.rolloutId);
  if (!rollout) return empty;
  const attemptId = "attempt" in rollout ? rollout.attempt.attempt_id : null;
  const page = attemptId ? await store.querySpans({ rollout_id: side.rolloutId, attempt_id: attemptId, limit: MAX_CASE_SPANS }) : { items: [], total: 0 };
  const spans = page.items.map((s) => masked(s));
  const attempts = attemptId ? (await store.queryAttempts(side.rolloutId, { limit: 1 })).total : 0;
  return {
    trace: { rollout: { status: rollout.status, attemptId, attempts, input: masked(rollout.input) }, spans: spans.map(outline), totalSpans: page.total },
    spans: spans.map((s) => ({ key: spanKey(s.attempt_id, s.span_id), name: s.name, attributes: s.attributes })),
  };
}

/** The case's two traces side by side with their differences; NOT_FOUND for an unknown candidate or case. */
export async function caseTraces(database: Database, candidateId: string, caseId: string): Promise<CaseTraces> {
  const rollouts = await caseRollouts(database, candidateId, caseId);
  const parent = await readSide(database, rollouts.parent);
  const candidate = await readSide(database, rollouts.candidate);
  return { ...rollouts, traces: { parent: parent.trace, candidate: candidate.trace }, diff: diffCaseTraces(parent.spans, candidate.spans) };
}
