// Reject / quarantine: a signed decision on the open step, with a required comment. begin issues the payload —
// what the rejecter saw: the receipt head, the link decided on, the verdict and the comment — to sign with their
// passkey (a release bot: its Ed25519 key). finish runs ONE transaction: verify the signature and spend its
// nonce, re-read the receipt, re-check scope, separation of duties and authority, check the payload still
// names the current head and link, seal the reject link (check 7 fails, the verdict is QUARANTINED), store the
// decision with its payload, signature and DSSE statement, and append the audit row. Every refusal rolls back
// and is recorded by `withRefusalAudit`, like approvals and rollbacks.
import { STEP_LABELS } from "@/lib/approvals/availability";
import { actorCan, type Actor } from "@/server/auth/actor";
import type { SignedPayload } from "@/server/auth/signing";
import { issueDecisionPayload } from "./issue";
import { appendAudit, AUDIT_LOCK } from "@/server/audit/audit-log";
import type { Database } from "@/server/db/client";
import { badInput, DomainError } from "@/server/errors";
import { checkAuthority } from "@/server/gate/receipt/approval";
import { receiptSigningKey } from "@/server/keys/signing-key";
import { checkScopedAgent, verifyDecisionSignature, type ApprovalOpts, type FinishApprovalInput } from "./approve";
import { REJECTION_PURPOSE, ZRejectionPayloadData, type RejectionPayloadData } from "./payload";
import { recordDecision } from "@/server/candidates/decision-record";
import { withRefusalAudit } from "./refusal-audit";
import { rejectionBeginRefusal, rejectionFinishRefusal } from "./refusal-contexts";
import { actorRefFor, approvalSnapshot, type ApprovalSnapshot } from "./snapshot";
import { buildDecisionStatement, signDecisionStatement } from "./statement";

export type RejectInput = { agent: string; candidateId: string; comment: string };

/** Why `actor` may not reject what `snap` shows (throws); the same rules when the payload is issued and at commit. */
function refuseRejection(snap: ApprovalSnapshot, actor: Actor) {
  const { candidate: c } = snap.state;
  if (!actorCan(actor, "approval:reject", c.agent)) throw new DomainError("FORBIDDEN", `${actor.name} lacks the "approval:reject" scope for ${c.agent}`);
  if (snap.situation.excluded.includes(actor.id)) throw new DomainError("FORBIDDEN", "you started this candidate's training (or own its key): separation of duties forbids deciding on it");
  if (!snap.target) throw new DomainError("PRECONDITION_FAILED", `there is nothing to decide on for the ${snap.step} step yet`, "step");
  if (snap.situation.decided?.decision === "reject") throw new DomainError("CONFLICT", `the ${STEP_LABELS[snap.step]} step is already rejected`, "step");
  const { stage1 } = snap.receipt;
  const authority = checkAuthority(actorRefFor(actor, c.agent), snap.step, stage1.approvers[snap.step], stage1.declaredBy);
  if (!authority.authorized) throw new DomainError("FORBIDDEN", authority.reason, "step");
}

/** Step 1: the rejection payload to sign (refused → an audit row of its own, then the refusal). */
export function beginRejection(database: Database, actor: Actor, input: RejectInput, opts: ApprovalOpts) {
  return withRefusalAudit(database, actor, () => rejectionBeginRefusal(input), () => begin(database, actor, input, opts));
}

async function begin(database: Database, actor: Actor, input: RejectInput, opts: ApprovalOpts) {
  const comment = input.comment.trim();
  if (comment.length < 3) throw badInput("comment", "say why this candidate is rejected (at least 3 characters)");
  const now = opts.now ?? new Date();
  const snap = await approvalSnapshot(database.db, opts.source, input.candidateId, now);
  const { candidate: c } = snap.state;
  if (c.agent !== input.agent) throw badInput("agent", `candidate ${c.id} belongs to ${c.agent}, not ${input.agent}`);
  refuseRejection(snap, actor);
  const data: RejectionPayloadData = {
    kind: "rejection",
    agent: c.agent,
    candidateId: c.id,
    candidate: snap.candidate,
    step: snap.step,
    decision: "reject",
    receiptDigest: snap.head,
    approves: snap.target!,
    verdict: snap.report.verdict,
    comment,
    approver: { kind: actor.kind, id: actor.id, name: actor.name, roles: actorRefFor(actor, c.agent).roles },
  };
  return issueDecisionPayload(database, actor, { purpose: REJECTION_PURPOSE, data }, now);
}

/** Step 2: verify, re-check and commit the rejection in one transaction (refused → audited, nothing sealed). */
export function finishRejection(database: Database, actor: Actor, input: FinishApprovalInput, opts: ApprovalOpts) {
  return withRefusalAudit(database, actor, () => rejectionFinishRefusal(input), () => finish(database, actor, input, opts));
}

async function finish(database: Database, actor: Actor, input: FinishApprovalInput, opts: ApprovalOpts) {
  if (input.payload?.purpose !== REJECTION_PURPOSE) throw badInput("payload", "not a rejection payload");
  const parsed = ZRejectionPayloadData.safeParse(input.payload.data);
  if (!parsed.success) throw badInput("payload", `not a rejection payload (${parsed.error.issues[0]?.path.join(".")})`);
  const data = parsed.data;
  checkScopedAgent(input, data.agent);
  const now = opts.now ?? new Date();
  const key = await receiptSigningKey(database.db);
  return database.transaction(
    async (tx) => {
      const signature = await verifyDecisionSignature(tx, actor, input, now);
      const snap = await approvalSnapshot(tx, opts.source, data.candidateId, now);
      const { candidate: c, chain } = snap.state;
      if (c.agent !== data.agent) throw badInput("payload", `payload names agent ${data.agent}, the candidate is ${c.agent}'s`);
      refuseRejection(snap, actor);
      if (data.step !== snap.step) throw new DomainError("CONFLICT", `step: the verdict is now about the ${snap.step} step`, "step");
      if (data.receiptDigest !== snap.head || data.approves !== snap.target) {
        throw new DomainError("CONFLICT", `receipt: the receipt changed since it was loaded (now ${snap.head.slice(0, 19)}…): review it again`, "receipt");
      }
      const at = now.toISOString();
      const link = await opts.source.sealApproval(tx, c.id, { step: snap.step, decision: "reject", actor: actorRefFor(actor, c.agent), approves: snap.target, at, comment: data.comment }, at);
      const statement = buildDecisionStatement({
        action: "rejection",
        subject: { name: c.resourcesId, digest: c.digest },
        payload: input.payload as SignedPayload,
        signature,
        chain: [...chain, link],
        committedAt: now,
      });
      const envelope = signDecisionStatement(statement, key.privateKey, key.keyid);
      const row = await recordDecision(tx, actor, now, {
        action: "reject",
        agent: c.agent,
        candidateId: c.id,
        step: snap.step,
        receiptDigest: snap.head,
        linkDigest: link.digest,
        toDigest: c.digest,
        toResourcesId: c.resourcesId,
        comment: data.comment,
        payload: input.payload,
        signature,
        envelope,
      });
      await appendAudit(tx, {
        actor,
        action: `approval.${snap.step}.reject`,
        target: { type: "candidate", id: c.id },
        after: { decisionId: row.id, linkDigest: link.digest, receiptDigest: snap.head, comment: data.comment, signature: signature.payloadDigest },
      });
      return { decisionId: row.id, linkDigest: link.digest, step: snap.step, envelope };
    },
    { locks: [AUDIT_LOCK, `receipt:${data.candidateId}`] },
  );
}
