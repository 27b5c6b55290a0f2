// Reject / quarantine: a decision on the open step with a required comment, sealed as an approval link
// (decision "reject", so check 7 fails and the verdict is QUARANTINED) and audited in one transaction.
import { STEP_LABELS } from "@/lib/approvals/availability";
import { actorCan, type Actor } from "@/server/auth/actor";
import { appendAudit, AUDIT_LOCK } from "@/server/audit/audit-log";
import type { Database } from "@/server/db/client";
import { badInput, DomainError } from "@/server/errors";
import { checkAuthority } from "@/server/gate/receipt/approval";
import { recordDecision } from "./record";
import { actorRefFor, approvalSnapshot } from "./snapshot";
import type { ApprovalOpts } from "./approve";
import { withRefusalAudit } from "./refusal-audit";
import { rejectionRefusal } from "./refusal-contexts";

export type RejectInput = { agent: string; candidateId: string; comment: string };

/** Refused (whatever the reason) → an audit row of its own, then the refusal (refusal-audit.ts). */
export function rejectCandidate(database: Database, actor: Actor, input: RejectInput, opts: ApprovalOpts) {
  return withRefusalAudit(database, actor, () => rejectionRefusal(input), () => reject(database, actor, input, opts));
}

async function reject(database: Database, actor: Actor, input: RejectInput, opts: ApprovalOpts) {
  const comment = input.comment.trim();
  if (comment.length < 3) throw badInput("comment", "say why this candidate is rejected (at least 3 characters)");
  const now = opts.now ?? new Date();
  return database.transaction(
    async (tx) => {
      const snap = await approvalSnapshot(tx, opts.source, input.candidateId, now);
      const { candidate: c } = snap.state;
      if (c.agent !== input.agent) throw badInput("agent", `candidate ${c.id} belongs to ${c.agent}, not ${input.agent}`);
      if (!actorCan(actor, "approval:reject", c.agent)) throw new DomainError("FORBIDDEN", `${actor.name} lacks the "approval:reject" scope for ${c.agent}`);
      if (snap.situation.excluded.includes(actor.id)) throw new DomainError("FORBIDDEN", "you started this candidate's training (or own its key): separation of duties forbids deciding on it");
      if (!snap.target) throw new DomainError("PRECONDITION_FAILED", `there is nothing to decide on for the ${snap.step} step yet`, "step");
      if (snap.situation.decided?.decision === "reject") throw new DomainError("CONFLICT", `the ${STEP_LABELS[snap.step]} step is already rejected`, "step");
      const { stage1 } = snap.receipt;
      const authority = checkAuthority(actorRefFor(actor, c.agent), snap.step, stage1.approvers[snap.step], stage1.declaredBy);
      if (!authority.authorized) throw new DomainError("FORBIDDEN", authority.reason, "step");
      const at = now.toISOString();
      const link = await opts.source.sealApproval(tx, c.id, { step: snap.step, decision: "reject", actor: actorRefFor(actor, c.agent), approves: snap.target, at, comment }, at);
      const row = await recordDecision(tx, actor, now, {
        action: "reject",
        agent: c.agent,
        candidateId: c.id,
        step: snap.step,
        receiptDigest: snap.head,
        linkDigest: link.digest,
        toDigest: c.digest,
        toResourcesId: c.resourcesId,
        comment,
      });
      await appendAudit(tx, { actor, action: `approval.${snap.step}.reject`, target: { type: "candidate", id: c.id }, after: { decisionId: row.id, linkDigest: link.digest, comment } });
      return { decisionId: row.id, linkDigest: link.digest, step: snap.step };
    },
    { locks: [AUDIT_LOCK, `receipt:${input.candidateId}`] },
  );
}
