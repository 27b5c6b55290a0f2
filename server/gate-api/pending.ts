// `GET /v1/gate/verifications/pending`: how a verifier finds work — the canary tasks of gate runs still
// open whose rollouts finished and have no verification yet, with the case's input and `expected` (the
// caller holds `canary:verify`) and the latest attempt's status and metadata. Only agents the caller may
// verify for are listed; bounded by `limit`.
import type { Database } from "@/server/db/client";
import { TERMINAL_ROLLOUT_STATUSES } from "@/server/store/types";
import { CANARY_PHASES } from "./verifications";

const parsed = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));
const chunks = <T>(xs: readonly T[], n = 500) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

export type PendingVerification = { rollout_id: string; gate_run_id: string; case_id: string; input: unknown; expected: unknown; attempt: { status: string; metadata: unknown } | null };

export async function pendingVerifications(database: Database, mayVerify: (agent: string) => boolean, limit: number): Promise<PendingVerification[]> {
  const db = database.db;
  const runs = await db.gateRun.findMany({ where: { status: { notIn: ["done", "failed"] } }, select: { id: true, candidateId: true } });
  const candidates = new Map((await db.candidate.findMany({ where: { id: { in: [...new Set(runs.map((r) => r.candidateId))] } }, select: { id: true, agent: true, stage1: true } })).map((c) => [c.id, c]));
  // Per open run: may this caller verify it, and which canary dataset its cases come from.
  const open = new Map<string, string | null>();
  for (const r of runs) {
    const c = candidates.get(r.candidateId);
    if (c && mayVerify(c.agent)) open.set(r.id, (JSON.parse(c.stage1) as { data?: { canary?: { id?: string } } }).data?.canary?.id ?? null);
  }
  const out: PendingVerification[] = [];
  for (const runIds of chunks([...open.keys()])) {
    const tasks = await db.gateRunTask.findMany({ where: { gateRunId: { in: runIds }, phase: { in: [...CANARY_PHASES] } }, orderBy: [{ enqueuedAt: "asc" }, { rolloutId: "asc" }] });
    for (const batch of chunks(tasks)) {
      const ids = batch.map((t) => t.rolloutId);
      const verified = new Set((await db.gateVerification.findMany({ where: { rolloutId: { in: ids } }, select: { rolloutId: true } })).map((v) => v.rolloutId));
      const rollouts = new Map(
        (await db.storeRollout.findMany({ where: { rolloutId: { in: ids }, status: { in: [...TERMINAL_ROLLOUT_STATUSES] } }, select: { rolloutId: true, input: true, latestAttemptId: true } })).map((r) => [r.rolloutId, r]),
      );
      const waiting = batch.filter((t) => rollouts.has(t.rolloutId) && !verified.has(t.rolloutId)).slice(0, limit - out.length);
      if (waiting.length === 0) continue;
      const attempts = await db.storeAttempt.findMany({ where: { OR: waiting.map((t) => ({ rolloutId: t.rolloutId, attemptId: rollouts.get(t.rolloutId)!.latestAttemptId ?? "" })) }, select: { rolloutId: true, status: true, metadata: true } });
      const attemptOf = new Map(attempts.map((a) => [a.rolloutId, a]));
      const cases = await db.gateDatasetCase.findMany({ where: { OR: waiting.map((t) => ({ datasetId: open.get(t.gateRunId) ?? "", caseId: t.caseId })) }, select: { datasetId: true, caseId: true, expected: true } });
      const expectedOf = new Map(cases.map((c) => [`${c.datasetId}\u0000${c.caseId}`, c.expected]));
      for (const t of waiting) {
        const a = attemptOf.get(t.rolloutId);
        out.push({
          rollout_id: t.rolloutId,
          gate_run_id: t.gateRunId,
          case_id: t.caseId,
          input: parsed(rollouts.get(t.rolloutId)!.input),
          expected: parsed(expectedOf.get(`${open.get(t.gateRunId) ?? ""}\u0000${t.caseId}`) ?? null),
          attempt: a ? { status: a.status, metadata: parsed(a.metadata) } : null,
        });
      }
      if (out.length >= limit) return out;
    }
  }
  return out;
}
