// Adopting an agent's lineage root: the version already in production before any receipt becomes its approved
// default, only while it has none. Every other move of the approved default is a signed default-step approval
// (server/approvals/approve.ts) or a signed rollback, each decided by the promotion machine.
import type { Database } from "@/server/db/client";
import { AUDIT_LOCK, type AuditActor } from "@/server/audit/audit-log";
import { DomainError } from "@/server/errors";
import { movePointer, pointerLock, readPointer } from "@/server/candidates/pointers";
import type { ResourceRef } from "@/server/gate/receipt/refs";
import { decideRootDefault } from "@/server/promotion/guards";

/** The move's reason starts "lineage root" exactly once (the history reads it; the promotion model's invariants key on it). */
export const rootReason = (reason: string) => (/^lineage root\b/.test(reason) ? reason : `lineage root: ${reason}`);

/** Records the root of an agent's lineage as its approved default; refused once it has one. */
export function adoptRootDefault(database: Database, input: { agent: string; target: ResourceRef; actor: AuditActor; reason: string; at?: Date }) {
  return database.transaction(
    async (tx) => {
      const current = await readPointer(tx, input.agent, "approved_default");
      if (current) throw new DomainError("CONFLICT", `${input.agent} already has an approved default (${current.resourcesId} v${current.version}); only a passing receipt moves it`, "agent");
      const { resourceId, version, digest } = input.target;
      return movePointer(tx, { agent: input.agent, kind: "approved_default", decision: decideRootDefault(null, digest), to: { resourcesId: resourceId, version, digest, candidateId: null, receiptDigest: null }, actor: input.actor, reason: rootReason(input.reason), at: input.at });
    },
    { locks: [AUDIT_LOCK, pointerLock(input.agent)] },
  );
}
