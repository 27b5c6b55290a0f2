// An algorithm wrote a new resource version: record it as a candidate of an agent, with the stage-1
// declaration made before its training, and move that agent's `latest candidate` pointer — only that one.
import { ZStage1, type Stage1 } from "@/server/gate/receipt/stage1";
import { canonicalJson, newId } from "@/server/digest";
import type { Database, Tx } from "@/server/db/client";
import { AUDIT_LOCK, type AuditActor } from "@/server/audit/audit-log";
import { DomainError } from "@/server/errors";
import { decideLatestCandidate } from "@/server/promotion/guards";
import { movePointer, pointerLock, readPointer } from "./pointers";

export type RegisterCandidateInput = {
  agent: string;
  resource: { resourcesId: string; version: number; digest: string };
  trainingRunId?: string | null;
  /** The declaration opened before training; its candidate field is completed here with the digest. */
  stage1: Stage1;
  actor: AuditActor;
};

/** The locks `registerCandidateIn`'s transaction must hold. */
export const registerLocks = (agent: string) => [AUDIT_LOCK, pointerLock(agent)];

export async function registerCandidate(database: Database, input: RegisterCandidateInput) {
  return database.transaction((tx) => registerCandidateIn(tx, input), { locks: registerLocks(input.agent) });
}

/**
 * The same inside a caller's transaction, which must hold `registerLocks(agent)`: for a caller that records
 * more with the candidate (a declaration bound to it), all or nothing.
 */
export async function registerCandidateIn(tx: Tx, input: RegisterCandidateInput) {
  const parsed = ZStage1.safeParse({
    ...input.stage1,
    agent: input.agent,
    candidate: { resourceId: input.resource.resourcesId, version: input.resource.version, digest: input.resource.digest },
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = ["stage1", ...issue.path].join(".");
    throw new DomainError("BAD_REQUEST", `${field}: ${issue.message}`, field);
  }
  const stage1 = parsed.data;
  if (stage1.parent.digest === input.resource.digest) {
    throw new DomainError("BAD_REQUEST", "a candidate cannot be its own parent (same digest)", "resource.digest");
  }
  const existing = await tx.candidate.findUnique({ where: { resourcesId_version: { resourcesId: input.resource.resourcesId, version: input.resource.version } } });
  if (existing) throw new DomainError("CONFLICT", `${input.resource.resourcesId} v${input.resource.version} is already a candidate (${existing.id})`, "resource");
  const candidate = await tx.candidate.create({
    data: {
      id: newId("cand"),
      agent: input.agent,
      resourcesId: input.resource.resourcesId,
      version: input.resource.version,
      digest: input.resource.digest,
      parentResourcesId: stage1.parent.resourceId,
      parentVersion: stage1.parent.version,
      parentDigest: stage1.parent.digest,
      trainingRunId: input.trainingRunId ?? null,
      algorithm: stage1.algorithm.name,
      stage1: canonicalJson(stage1),
      createdById: input.actor.id,
    },
  });
  const latest = await readPointer(tx, input.agent, "latest_candidate");
  await movePointer(tx, {
    agent: input.agent,
    kind: "latest_candidate",
    decision: decideLatestCandidate(latest?.digest ?? null, input.resource.digest, candidate.id),
    to: { ...input.resource, candidateId: candidate.id, receiptDigest: null },
    actor: input.actor,
    reason: `${stage1.algorithm.name} wrote ${input.resource.resourcesId} v${input.resource.version}`,
  });
  return candidate;
}
