// The approval_decisions row of every signed decision, rejection and refusal.
import type { AuditActor } from "@/server/audit/audit-log";
import type { Tx } from "@/server/db/client";
import { canonicalJson, newId } from "@/server/digest";

export type DecisionRow = {
  action: "approve" | "reject" | "rollback" | "refused";
  agent: string;
  candidateId?: string | null;
  step?: string | null;
  pointerKind?: string | null;
  fromDigest?: string | null;
  toDigest?: string | null;
  toResourcesId?: string | null;
  receiptDigest?: string | null;
  linkDigest?: string | null;
  comment?: string | null;
  refusal?: string | null;
  payload?: unknown;
  signature?: unknown;
  envelope?: unknown;
};

const json = (v: unknown) => (v === undefined || v === null ? null : canonicalJson(v));

/** `actor` may be the server itself (kind "system"): a canary stage aborted by its guard is a decision too. */
export function recordDecision(tx: Tx, actor: Pick<AuditActor, "kind" | "id" | "name">, at: Date, row: DecisionRow) {
  return tx.approvalDecision.create({
    data: {
      id: newId("apr"),
      action: row.action,
      agent: row.agent,
      candidateId: row.candidateId ?? null,
      step: row.step ?? null,
      pointerKind: row.pointerKind ?? null,
      fromDigest: row.fromDigest ?? null,
      toDigest: row.toDigest ?? null,
      toResourcesId: row.toResourcesId ?? null,
      receiptDigest: row.receiptDigest ?? null,
      linkDigest: row.linkDigest ?? null,
      actorId: actor.id,
      actorKind: actor.kind,
      actorName: actor.name,
      comment: row.comment ?? null,
      refusal: row.refusal ?? null,
      payload: json(row.payload),
      signature: json(row.signature),
      envelope: json(row.envelope),
      at,
    },
  });
}
