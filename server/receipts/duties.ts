// Separation of duties: the identity that started a candidate's training, declared its receipt or
// registered it — and the person who owns the API key it ran under — can never decide on it, and results
// they served on its gate never count (gate-run/judge.ts).
import type { Db, Tx } from "@/server/db/client";
import type { Stage1 } from "@/server/gate/receipt/stage1";

export type CandidateAuthors = { createdById: string; trainingRunId: string | null };

/** Each excluded identity with what it did for the candidate, in words ("declared this candidate"). */
export async function excludedIdentities(db: Db | Tx, candidate: CandidateAuthors, stage1: Pick<Stage1, "declaredBy">): Promise<Map<string, string>> {
  const why = new Map<string, string>();
  const add = (id: string, did: string) => void (why.has(id) ? why.set(id, `${why.get(id)!} and ${did}`) : why.set(id, did));
  add(stage1.declaredBy, "declared this candidate");
  add(candidate.createdById, "registered this candidate");
  if (candidate.trainingRunId) {
    const run = await db.trainingRun.findUnique({ where: { id: candidate.trainingRunId }, select: { startedById: true } });
    if (run) add(run.startedById, "started its training run");
  }
  // A service identity acts for whoever created its key: that person is excluded too.
  const keys = await db.apiKey.findMany({ where: { id: { in: [...why.keys()] } }, select: { id: true, createdBy: true } });
  for (const k of keys) if (k.createdBy && !why.has(k.createdBy)) add(k.createdBy, `owns the key ${k.id}, which ${why.get(k.id)!}`);
  return why;
}

export async function excludedApprovers(db: Db | Tx, candidate: CandidateAuthors, stage1: Pick<Stage1, "declaredBy">): Promise<string[]> {
  return [...(await excludedIdentities(db, candidate, stage1)).keys()].sort();
}
