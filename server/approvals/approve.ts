// The signed approval. begin: the payload to show and sign (challenge = its digest). finish: in ONE
// transaction — verify the signature and spend its nonce, re-read the receipt and the versions in force,
// re-run the gate (freshness at the moment of approval), check role, separation of duties and the bot's
// policy, then seal the approval link, move the pointer and write the audit row. If anything went stale
// since the page loaded, nothing moves: the refusal (naming the stale check) is what commits. Every other
// refusal (a bad or replayed signature, self-approval, a bot beyond its policy, …) rolls back and is then
// recorded on its own by `withRefusalAudit`.
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { STEP_LABELS, STEP_POINTERS, STEP_SCOPES } from "@/lib/approvals/availability";
import { grantsAllow } from "@/lib/auth/scopes";
import { decideApproval, signingCost } from "@/server/promotion/guards";
import type { Actor } from "@/server/auth/actor";
import { verifyBotSignature } from "@/server/auth/bot-keys";
import { verifySignature, type SignedPayload } from "@/server/auth/signing";
import { issueDecisionPayload } from "./issue";
import { appendAudit, AUDIT_LOCK } from "@/server/audit/audit-log";
import { unloadableSentence } from "@/server/candidates/loadable";
import { movePointer, pointerLock, readPointer } from "@/server/candidates/pointers";
import type { Database, Tx } from "@/server/db/client";
import { badInput, DomainError } from "@/server/errors";
import { evaluateGate } from "@/server/gate/gate";
import { decideDefaultMove } from "@/server/gate/pointers";
import { checkAuthority } from "@/server/gate/receipt/approval";
import type { DecisionRecord } from "@/server/gate/receipt/signed-decisions";
import { receiptView } from "@/server/gate/receipt/view";
import { verifySignatureOffline } from "@/server/auth/verify-offline";
import { botPolicyViolations, readBotPolicy } from "./bot-policy";
import { APPROVAL_PURPOSE, approvalPayloadData, ZApprovalPayloadData, type ApprovalPayloadData } from "./payload";
import { recordDecision } from "@/server/candidates/decision-record";
import { markRefusalRecorded, withRefusalAudit } from "./refusal-audit";
import { approvalBeginRefusal, approvalFinishRefusal } from "./refusal-contexts";
import { receiptSigningKey, type ReceiptKey } from "@/server/keys/signing-key";
import { queueCanaryStage } from "@/server/receipts/gate-run/canary-stage";
import { DEFAULT_DEADLINE_SECONDS } from "@/server/receipts/gate-queue";
import { actorRefFor, approvalAvailability, approvalSnapshot, viewerOf, type ApprovalSnapshot } from "./snapshot";
import { buildDecisionStatement, signDecisionStatement } from "./statement";
import type { ReceiptSource } from "./source";

export type ApprovalOpts = { source: ReceiptSource; now?: Date };
type Refusal = { reason: string; code: "FORBIDDEN" | "PRECONDITION_FAILED" | "CONFLICT"; field: string };

/** Why `actor` may not approve what `snap` shows (null: may). The same rules at page load and at commit. */
async function refusalOf(tx: Database["db"] | Tx, snap: ApprovalSnapshot, actor: Actor): Promise<Refusal | null> {
  // First and by name: no step may route consumers towards a release whose exact parent cannot be loaded.
  const { parentLoad, candidate } = snap.state;
  if (parentLoad && !parentLoad.loadable) return { reason: `check 1 fails: ${unloadableSentence("the exact parent", candidate.parent, parentLoad)}`, code: "PRECONDITION_FAILED", field: "parent" };
  const availability = approvalAvailability(snap.situation, await viewerOf(tx, actor));
  if (!availability.enabled) {
    const code = availability.code === "scope" || availability.code === "duties" ? "FORBIDDEN" : "PRECONDITION_FAILED";
    return { reason: availability.reason, code, field: availability.code === "checks" ? "receipt" : availability.code === "passkey" ? "passkey" : "step" };
  }
  const { stage1 } = snap.receipt;
  const authority = checkAuthority(actorRefFor(actor, snap.state.candidate.agent), snap.step, stage1.approvers[snap.step], stage1.declaredBy);
  if (!authority.authorized) return { reason: authority.reason, code: "FORBIDDEN", field: "step" };
  if (actor.kind === "service") {
    const violations = botPolicyViolations(await readBotPolicy(tx, actor.id), {
      botId: actor.id,
      agent: snap.state.candidate.agent,
      verdict: snap.report.verdict,
      step: snap.step,
      boundary: stage1.expectedEvidence.canaryBoundary,
    });
    if (violations.length) return { reason: violations.join("; "), code: "FORBIDDEN", field: "policy" };
  }
  if (!snap.target) return { reason: `there is nothing to approve for the ${snap.step} step yet`, code: "PRECONDITION_FAILED", field: "step" };
  // The promotion state machine has the last word on the move: state, separation of duties within the cycle, pointer from → to.
  const move = decideApproval(snap.facts, snap.step, { id: actor.id, scopes: scopesOf(actor, snap.state.candidate.agent) });
  if (!move.allowed) return { reason: move.reason, code: move.code === "scope" || move.code === "duties" ? "FORBIDDEN" : move.code === "pointer" ? "CONFLICT" : "PRECONDITION_FAILED", field: move.code === "pointer" ? "pointer" : "step" };
  return null;
}

const scopesOf = (actor: Actor, agent: string) => Object.values(STEP_SCOPES).filter((scope) => grantsAllow(actor.grants, scope, agent));

export type BeginApprovalInput = { agent: string; candidateId: string; step: "canary" | "default"; comment?: string };

/** Refused (whatever the reason) → an audit row of its own, then the refusal (refusal-audit.ts). */
export function beginApproval(database: Database, actor: Actor, input: BeginApprovalInput, opts: ApprovalOpts) {
  return withRefusalAudit(database, actor, () => approvalBeginRefusal(input), () => begin(database, actor, input, opts));
}

async function begin(database: Database, actor: Actor, input: BeginApprovalInput, opts: ApprovalOpts) {
  const now = opts.now ?? new Date();
  const snap = await approvalSnapshot(database.db, opts.source, input.candidateId, now);
  const { agent } = snap.state.candidate;
  if (agent !== input.agent) throw badInput("agent", `candidate ${input.candidateId} belongs to ${agent}, not ${input.agent}`);
  if (input.step !== snap.step) throw new DomainError("PRECONDITION_FAILED", `step: the verdict is about the ${snap.step} step, not ${input.step}`, "step");
  const refusal = await refusalOf(database.db, snap, actor);
  if (refusal) throw new DomainError(refusal.code, refusal.reason, refusal.field);
  const data = approvalPayloadData({
    agent,
    candidateId: input.candidateId,
    candidate: snap.candidate,
    step: snap.step,
    head: snap.head,
    approves: snap.target!,
    report: snap.report,
    pointer: { kind: STEP_POINTERS[snap.step], from: snap.pointerFrom, to: snap.candidate },
    boundary: snap.receipt.stage1.expectedEvidence.canaryBoundary,
    approver: { kind: actor.kind, id: actor.id, name: actor.name, roles: actorRefFor(actor, agent).roles },
    comment: (input.comment ?? "").trim(),
  });
  // The confirmation says what the signature will cost before it is given.
  return { ...(await issueDecisionPayload(database, actor, { purpose: APPROVAL_PURPOSE, data }, now)), cost: signingCost(snap.facts, snap.step) };
}

export type FinishApprovalInput = {
  payload: SignedPayload;
  response?: AuthenticationResponseJSON;
  bot?: { keyId: string; signature: string };
  /** The agent the caller's scope was checked for (tRPC): it must be the one the signed payload is about. */
  agent?: string;
};

export function checkScopedAgent(input: FinishApprovalInput, agent: string) {
  if (input.agent !== undefined && input.agent !== agent) throw badInput("agent", "must be the agent named in the signed payload");
}

/** Refused at commit: the refusal row and its audit row commit in the transaction; any other refusal is recorded after it. */
export function finishApproval(database: Database, actor: Actor, input: FinishApprovalInput, opts: ApprovalOpts) {
  return withRefusalAudit(database, actor, () => approvalFinishRefusal(input), () => finish(database, actor, input, opts));
}

async function finish(database: Database, actor: Actor, input: FinishApprovalInput, opts: ApprovalOpts) {
  if (input.payload?.purpose !== APPROVAL_PURPOSE) throw badInput("payload", "not an approval payload");
  const parsed = ZApprovalPayloadData.safeParse(input.payload.data);
  if (!parsed.success) throw badInput("payload", `not an approval payload (${parsed.error.issues[0]?.path.join(".")})`);
  const data = parsed.data;
  checkScopedAgent(input, data.agent);
  const now = opts.now ?? new Date();
  // Read (or create) the server key before the transaction: creating it is a write of its own.
  const key = await receiptSigningKey(database.db);
  const outcome = await database.transaction(
    async (tx) => {
      const signature = await verifyDecisionSignature(tx, actor, input, now);
      const snap = await approvalSnapshot(tx, opts.source, data.candidateId, now);
      const refusal = (await refusalOf(tx, snap, actor)) ?? bindingRefusal(snap, data);
      if (refusal) {
        await recordDecision(tx, actor, now, {
          action: "refused",
          agent: snap.state.candidate.agent,
          candidateId: data.candidateId,
          step: data.step,
          pointerKind: data.pointer.kind,
          fromDigest: snap.pointerFrom?.digest,
          toDigest: data.candidate.digest,
          toResourcesId: data.candidate.resourceId,
          receiptDigest: snap.head,
          refusal: refusal.reason,
          payload: input.payload,
          signature,
        });
        await appendAudit(tx, {
          actor,
          action: `approval.${data.step}.refused`,
          target: { type: "candidate", id: data.candidateId },
          after: {
            kind: "approval",
            phase: "finish",
            code: refusal.code,
            field: refusal.field,
            reason: refusal.reason,
            receiptDigest: snap.head,
            signedReceipt: data.receiptDigest,
            verdict: snap.report.verdict,
            signature: signature.payloadDigest,
          },
        });
        return { ok: false as const, refusal };
      }
      return { ok: true as const, ...(await commit(tx, actor, snap, data, input.payload, signature, opts.source, key, now)) };
    },
    { locks: [AUDIT_LOCK, pointerLock(data.agent), `receipt:${data.candidateId}`] },
  );
  if (!outcome.ok) throw markRefusalRecorded(new DomainError(outcome.refusal.code, outcome.refusal.reason, outcome.refusal.field));
  return outcome;
}

export function verifyDecisionSignature(tx: Tx, actor: Actor, input: FinishApprovalInput, now: Date) {
  if (input.payload.signer?.id !== actor.id) throw new DomainError("FORBIDDEN", "payload: issued to another signer", "payload");
  if (actor.kind === "service") {
    if (!input.bot) throw badInput("bot", "a release bot sends its keyId and Ed25519 signature");
    return verifyBotSignature(tx, input.payload, input.bot, { now });
  }
  if (!input.response) throw badInput("response", "the passkey's answer is missing");
  return verifySignature(tx, actor, { payload: input.payload, response: input.response }, { now });
}

/** The signed payload must still describe the receipt and pointer as they are now. */
function bindingRefusal(snap: ApprovalSnapshot, data: ApprovalPayloadData): Refusal | null {
  const { candidate } = snap.state;
  if (data.agent !== candidate.agent) return { reason: `payload names agent ${data.agent}, the candidate is ${candidate.agent}'s`, code: "CONFLICT", field: "payload" };
  if (data.step !== snap.step) return { reason: `the verdict is now about the ${snap.step} step`, code: "CONFLICT", field: "step" };
  if (data.receiptDigest !== snap.head) {
    return { reason: `the receipt changed since it was loaded (now ${snap.head.slice(0, 19)}…): review it again`, code: "CONFLICT", field: "receipt" };
  }
  if (data.approves !== snap.target) return { reason: "the approval names another sealed link than the one now open", code: "CONFLICT", field: "receipt" };
  if ((data.pointer.from?.digest ?? null) !== (snap.pointerFrom?.digest ?? null)) {
    const now = snap.pointerFrom?.resourceId ?? "nothing";
    return { reason: `the ${STEP_LABELS[snap.step]} pointer moved since the page loaded (it now names ${now})`, code: "CONFLICT", field: "pointer" };
  }
  return null;
}

async function commit(
  tx: Tx,
  actor: Actor,
  snap: ApprovalSnapshot,
  data: ApprovalPayloadData,
  payload: SignedPayload,
  signature: Awaited<ReturnType<typeof verifyDecisionSignature>>,
  source: ReceiptSource,
  key: ReceiptKey,
  now: Date,
) {
  const { candidate: c, chain, policy, currentVersions, lateEvidence, parentLoad } = snap.state;
  const at = now.toISOString();
  const approval = { step: snap.step, decision: "approve" as const, actor: actorRefFor(actor, c.agent), approves: snap.target!, at, comment: data.comment };
  const link = await source.sealApproval(tx, c.id, approval, at);
  const sealed = [...chain, link];
  const receipt = receiptView(sealed);
  // The gate is judged with this very decision counted the way check 7 will count it from now on: its signature
  // (verified against the registered key above) checked offline over the payload, the roles held right now.
  const offline = await verifySignatureOffline(signature, payload);
  const record: DecisionRecord = {
    link: link.digest,
    payload: payload as unknown as DecisionRecord["payload"],
    signature: signature as unknown as DecisionRecord["signature"],
    signatureVerified: offline.ok ? { ok: true } : { ok: false, reason: offline.reason },
    keyRegistered: { ok: true },
    rolesAtTheTime: approval.actor.roles,
  };
  const decisions = { ...snap.state.decisions, records: [...snap.state.decisions.records, record] };
  let verdict: string;
  let reason: string;
  if (snap.step === "canary") {
    const report = evaluateGate({ receipt, policy, currentVersions, now, decisions, lateEvidence, parentLoad });
    if (report.verdict !== "PROMOTE TO BOUNDED CANARY") throw new Error(`after approval the verdict is ${report.verdict}, not PROMOTE TO BOUNDED CANARY`);
    ({ verdict, sentence: reason } = report);
  } else {
    const current = await readPointer(tx, c.agent, "approved_default");
    const pointers = {
      agent: c.agent,
      latestCandidate: null,
      approvedDefault: current && { resourceId: current.resourcesId, version: current.version, digest: current.digest, receiptDigest: (current.receiptDigest ?? link.digest) as typeof link.digest },
    };
    const move = decideDefaultMove({ receipt, receiptHead: link.digest, pointers, policy, currentVersions, now, decisions, lateEvidence, parentLoad });
    if (!move.allowed) throw new DomainError("PRECONDITION_FAILED", `the approved default may not move: ${move.reasons.join("; ")}`, "receipt");
    ({ verdict, sentence: reason } = move.report);
  }
  const kind = STEP_POINTERS[snap.step];
  await movePointer(tx, {
    agent: c.agent,
    kind,
    // The machine's decision on the facts read inside this transaction (refusalOf held it a moment ago).
    decision: decideApproval(snap.facts, snap.step, { id: actor.id, scopes: scopesOf(actor, c.agent) }),
    to: { resourcesId: c.resourcesId, version: c.version, digest: c.digest, candidateId: c.id, receiptDigest: link.digest },
    actor,
    reason: `${actor.name} approved the ${STEP_LABELS[snap.step]} step (signed): ${reason}`,
    at: now,
  });
  // The canary step starts the canary stage (runners serve the candidate inside the boundary); queued here so
  // it exists exactly when the approval commits.
  if (snap.step === "canary") await queueCanaryStage(tx, { candidateId: c.id, requestedById: actor.id, deadlineSeconds: DEFAULT_DEADLINE_SECONDS, at: now });
  const statement = buildDecisionStatement({ action: "approval", subject: { name: c.resourcesId, digest: c.digest }, payload, signature, chain: sealed, committedAt: now });
  const envelope = signDecisionStatement(statement, key.privateKey, key.keyid);
  const row = await recordDecision(tx, actor, now, {
    action: "approve",
    agent: c.agent,
    candidateId: c.id,
    step: snap.step,
    pointerKind: kind,
    fromDigest: snap.pointerFrom?.digest,
    toDigest: c.digest,
    toResourcesId: c.resourcesId,
    receiptDigest: snap.head,
    linkDigest: link.digest,
    comment: data.comment || null,
    payload,
    signature,
    envelope,
  });
  await appendAudit(tx, {
    actor,
    action: `approval.${snap.step}.approve`,
    target: { type: "candidate", id: c.id },
    after: { decisionId: row.id, linkDigest: link.digest, receiptDigest: snap.head, verdict, pointer: kind, signature: signature.payloadDigest },
  });
  return { decisionId: row.id, linkDigest: link.digest, verdict, pointer: { kind, from: snap.pointerFrom, to: snap.candidate }, envelope };
}
