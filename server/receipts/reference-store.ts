// Writes the reference's raw evidence into the LightningStore tables as rollouts, attempts and spans, the
// shapes runners produce, so stage 2 is built from the store exactly as for any trained candidate.
import type { Database } from "@/server/db/client";
import type { RawCandidate } from "@/server/gate/reference/raw-evidence";

const CONFIG = { timeout_seconds: 600, unresponsive_seconds: 120, max_attempts: 3, retry_condition: ["failed", "timeout", "unresponsive"] };
const CHUNK = 500;

async function inChunks<T>(items: readonly T[], write: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += CHUNK) await write(items.slice(i, i + CHUNK));
}

export async function writeRawToStore(database: Database, raw: RawCandidate, positionBase: number): Promise<void> {
  const { rollouts, attempts, spans } = raw.store;
  const firstStart = new Map<string, number>();
  const attemptCount = new Map<string, number>();
  const latestAttempt = new Map<string, { id: string; seq: number }>();
  for (const a of attempts) {
    firstStart.set(a.rollout_id, Math.min(firstStart.get(a.rollout_id) ?? Infinity, a.start_time));
    attemptCount.set(a.rollout_id, (attemptCount.get(a.rollout_id) ?? 0) + 1);
    if ((latestAttempt.get(a.rollout_id)?.seq ?? 0) < a.sequence_id) latestAttempt.set(a.rollout_id, { id: a.attempt_id, seq: a.sequence_id });
  }
  const spanSeq = new Map<string, number>();
  for (const s of spans) spanSeq.set(s.rollout_id, Math.max(spanSeq.get(s.rollout_id) ?? 0, s.sequence_id));
  await database.transaction(async (tx) => {
    await tx.storeRollout.createMany({
      data: rollouts.map((r, i) => ({
        rolloutId: r.rollout_id,
        input: JSON.stringify({ task: `support-desk ticket ${i + 1}` }),
        startTime: firstStart.get(r.rollout_id) ?? r.end_time ?? 0,
        endTime: r.end_time,
        mode: r.mode,
        resourcesId: raw.candidate.resourceId,
        status: r.status,
        config: JSON.stringify(CONFIG),
        metadata: JSON.stringify({ "lightgate.expected_attempts": raw.stage1.expectedEvidence.retryBudget.expectedResamplesPerRollout + 1 }),
        timeoutSeconds: CONFIG.timeout_seconds,
        unresponsiveSeconds: CONFIG.unresponsive_seconds,
        maxAttempts: CONFIG.max_attempts,
        retryCondition: JSON.stringify(CONFIG.retry_condition),
        expectedAttempts: raw.stage1.expectedEvidence.retryBudget.expectedResamplesPerRollout + 1,
        attemptCount: attemptCount.get(r.rollout_id) ?? 0,
        latestAttemptId: latestAttempt.get(r.rollout_id)?.id ?? null,
        spanSeq: spanSeq.get(r.rollout_id) ?? 0,
        createdPos: positionBase + i,
      })),
    });
    await inChunks(attempts, (chunk) =>
      tx.storeAttempt.createMany({
        data: chunk.map((a) => ({
          rolloutId: a.rollout_id,
          attemptId: a.attempt_id,
          sequenceId: a.sequence_id,
          startTime: a.start_time,
          endTime: a.end_time,
          status: a.status,
          workerId: a.worker_id,
          lastHeartbeatTime: a.end_time ?? a.start_time,
          metadata: null,
          reason: a.reason ?? "first",
        })),
      }),
    );
    await inChunks(spans, (chunk) =>
      tx.storeSpan.createMany({
        data: chunk.map((s) => {
          const spanId = `sp-${s.attempt_id.slice(3)}-${s.sequence_id}`;
          const traceId = `tr-${s.rollout_id.slice(3)}`;
          const start = (s.end_time ?? 0) - 0.5;
          const body = {
            rollout_id: s.rollout_id,
            attempt_id: s.attempt_id,
            sequence_id: s.sequence_id,
            trace_id: traceId,
            span_id: spanId,
            parent_id: null,
            name: s.name,
            status: { status_code: "OK", description: null },
            attributes: s.attributes,
            events: [],
            links: [],
            start_time: start,
            end_time: s.end_time ?? null,
            context: null,
            parent: null,
            resource: { attributes: { "service.name": "support-desk-agent" }, schema_url: "" },
          };
          return { rolloutId: s.rollout_id, attemptId: s.attempt_id, spanId, sequenceId: s.sequence_id, traceId, parentId: null, name: s.name, startTime: start, endTime: s.end_time ?? null, statusCode: "OK", body: JSON.stringify(body) };
        }),
      }),
    );
  });
}
