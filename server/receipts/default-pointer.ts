// Moving an agent's approved default. Only two ways exist: adopting the lineage root (the version already
// in production before any receipt, allowed only while the agent has no approved default), and
// `moveApprovedDefault`, which re-judges the receipt inside the caller's transaction and moves only on a
// fresh PROMOTE TO DEFAULT with an authorized default-step approval (the approvals path signs on top).
import type { Database, Tx } from "@/server/db/client";
import { AUDIT_LOCK, type AuditActor } from "@/server/audit/audit-log";
import type { Digest } from "@/server/digest";
import { DomainError } from "@/server/errors";
import { movePointer, pointerLock, readPointer } from "@/server/candidates/pointers";
import { decideDefaultMove } from "@/server/gate/pointers";
import type { ResourceRef } from "@/server/gate/receipt/refs";
import { receiptLock } from "./links";
import { gateReport } from "./report";

/** Records the root of an agent's lineage as its approved default; refused once it has one. */
export function adoptRootDefault(database: Database, input: { agent: string; target: ResourceRef; actor: AuditActor; reason: string; at?: Date }) {
  return database.transaction(
    async (tx) => {
      const current = await readPointer(tx, input.agent, "approved_default");
      if (current) throw new DomainError("CONFLICT", `${input.agent} already has an approved default (${current.resourcesId} v${current.version}); only a passing receipt moves it`, "agent");
      const { resourceId, version, digest } = input.target;
      return movePointer(tx, { agent: input.agent, kind: "approved_default", to: { resourcesId: resourceId, version, digest, candidateId: null, receiptDigest: null }, actor: input.actor, reason: `lineage root: ${input.reason}`, at: input.at });
    },
    { locks: [AUDIT_LOCK, pointerLock(input.agent)] },
  );
}

export const defaultMoveLocks = (agent: string, candidateId: string) => [AUDIT_LOCK, pointerLock(agent), receiptLock(candidateId)];

/**
 * Moves the approved default to a candidate inside `tx` (holding `defaultMoveLocks`). The gate is evaluated
 * here, on the stored receipt and the versions in force, so no verdict can be passed in from elsewhere.
 */
export async function moveApprovedDefault(tx: Tx, input: { candidateId: string; actor: AuditActor; now?: Date }) {
  const now = input.now ?? new Date();
  const stored = await gateReport({ db: tx }, input.candidateId, now);
  const { candidate, receipt, head } = stored;
  if (!receipt || !head) throw new DomainError("PRECONDITION_FAILED", `the receipt of ${candidate.id} is missing or fails verification`, "candidateId");
  const latest = await readPointer(tx, candidate.agent, "latest_candidate");
  const approved = await readPointer(tx, candidate.agent, "approved_default");
  const ref = (p: typeof latest) => p && { resourceId: p.resourcesId, version: p.version, digest: p.digest as Digest };
  const decision = decideDefaultMove({
    receipt,
    receiptHead: head,
    policy: stored.policy,
    currentVersions: stored.versions,
    decisions: stored.decisions,
    lateEvidence: stored.lateEvidence,
    now,
    pointers: { agent: candidate.agent, latestCandidate: ref(latest), approvedDefault: approved && { ...ref(approved)!, receiptDigest: (approved.receiptDigest ?? head) as Digest } },
  });
  if (!decision.allowed) throw new DomainError("PRECONDITION_FAILED", `the approved default cannot move to ${candidate.id}: ${decision.reasons.join("; ")}`, "candidateId");
  const { to } = decision.move;
  await movePointer(tx, {
    agent: candidate.agent,
    kind: "approved_default",
    to: { resourcesId: to.resourceId, version: to.version, digest: to.digest, candidateId: candidate.id, receiptDigest: head },
    actor: input.actor,
    reason: decision.move.reason,
    at: now,
  });
  return decision;
}
