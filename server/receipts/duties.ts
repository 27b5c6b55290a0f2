// Separation of duties: the identity that started a candidate's training, declared its receipt or
// registered it — and the person who owns the API key it ran under — can never decide on it.
import type { Db, Tx } from "@/server/db/client";
import type { Stage1 } from "@/server/gate/receipt/stage1";

export type CandidateAuthors = { createdById: string; trainingRunId: string | null };

export async function excludedApprovers(db: Db | Tx, candidate: CandidateAuthors, stage1: Pick<Stage1, "declaredBy">): Promise<string[]> {
  const ids = new Set([candidate.createdById, stage1.declaredBy]);
  if (candidate.trainingRunId) {
    const run = await db.trainingRun.findUnique({ where: { id: candidate.trainingRunId }, select: { startedById: true } });
    if (run) ids.add(run.startedById);
  }
  // A service identity acts for whoever created its key: that person is excluded too.
  const keys = await db.apiKey.findMany({ where: { id: { in: [...ids] } }, select: { createdBy: true } });
  for (const k of keys) if (k.createdBy) ids.add(k.createdBy);
  return [...ids].sort();
}
