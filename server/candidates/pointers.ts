// Reading and moving the two pointers. Every move writes its PointerMove history row and an audit row in
// the same transaction as the pointer itself; `approved_default` has no writer here on purpose — it moves
// only through the gate's approval path (which evaluates the receipt inside that same transaction).
import type { Tx, Db } from "@/server/db/client";
import { appendAudit, type AuditActor } from "@/server/audit/audit-log";
import { newId } from "@/server/digest";
import { DomainError } from "@/server/errors";
import { moveHolds, type Decision } from "@/server/promotion/guards";

// `canary`: the candidate an approver admitted into its bounded canary (moves only through a signed approval).
export const POINTER_KINDS = ["latest_candidate", "approved_default", "canary"] as const;
export type PointerKind = (typeof POINTER_KINDS)[number];

export type PointerTarget = { resourcesId: string; version: number; digest: string; candidateId: string | null; receiptDigest: string | null };

export type PointerRecord = PointerTarget & { agent: string; kind: PointerKind; movedById: string; movedAt: Date };

export async function readPointer(db: Db | Tx, agent: string, kind: PointerKind): Promise<PointerRecord | null> {
  const row = await db.pointer.findUnique({ where: { agent_kind: { agent, kind } } });
  return row ? { ...row, kind: row.kind as PointerKind } : null;
}

/**
 * Moves one pointer inside an open transaction (which must hold the "audit" lock and a lock on
 * `pointer:<agent>`), recording history and audit, only as the promotion machine decided (`decision`, re-checked
 * here against the pointer as it is at commit). Returns the previous target.
 */
export async function movePointer(
  tx: Tx,
  input: { agent: string; kind: PointerKind; decision: Decision; to: PointerTarget; actor: AuditActor; reason: string; at?: Date },
): Promise<PointerRecord | null> {
  const at = input.at ?? new Date();
  const before = await readPointer(tx, input.agent, input.kind);
  const refused = moveHolds(input.decision, { pointer: input.kind, from: before?.digest ?? null, to: input.to.digest, toCandidateId: input.to.candidateId });
  if (refused) throw new DomainError("CONFLICT", `pointer: ${refused}`, "pointer");
  const data = { ...input.to, movedById: input.actor.id, movedAt: at };
  await tx.pointer.upsert({
    where: { agent_kind: { agent: input.agent, kind: input.kind } },
    create: { agent: input.agent, kind: input.kind, ...data },
    update: data,
  });
  await tx.pointerMove.create({
    data: {
      id: newId("pm"),
      agent: input.agent,
      kind: input.kind,
      fromResourcesId: before?.resourcesId ?? null,
      fromVersion: before?.version ?? null,
      fromDigest: before?.digest ?? null,
      toResourcesId: input.to.resourcesId,
      toVersion: input.to.version,
      toDigest: input.to.digest,
      candidateId: input.to.candidateId,
      receiptDigest: input.to.receiptDigest,
      actorId: input.actor.id,
      actorKind: input.actor.kind,
      reason: input.reason,
      at,
    },
  });
  await appendAudit(tx, {
    actor: input.actor,
    action: `pointer.${input.kind}.move`,
    target: { type: "pointer", id: `${input.agent}/${input.kind}` },
    before: before && { resourcesId: before.resourcesId, version: before.version, digest: before.digest },
    after: { resourcesId: input.to.resourcesId, version: input.to.version, digest: input.to.digest, reason: input.reason },
  });
  return before;
}

/** Which resource a pointer named at time `at` (null before its first move). */
export async function pointerAt(db: Db | Tx, agent: string, kind: PointerKind, at: Date) {
  return db.pointerMove.findFirst({ where: { agent, kind, at: { lte: at } }, orderBy: [{ at: "desc" }, { id: "desc" }] });
}

export const pointerLock = (agent: string) => `pointer:${agent}`;
