// Rollback: the approved default (or the canary) goes back to the current candidate's exact parent — the
// path its receipt's rollback test exercised — or to an earlier approved default. Signed and role-checked
// (rollback:execute) like an approval, but never blocked by stale evidence: the evidence that made a
// rollback necessary must not be able to stop it. Pointer history row with the reason, audit row, DSSE.
import type { Actor } from "@/server/auth/actor";
import { actorCan } from "@/server/auth/actor";
import type { SignedPayload } from "@/server/auth/signing";
import { issueDecisionPayload } from "./issue";
import { appendAudit, AUDIT_LOCK } from "@/server/audit/audit-log";
import { resourceLoad, unloadableSentence } from "@/server/candidates/loadable";
import { movePointer, pointerLock, readPointer, type PointerKind } from "@/server/candidates/pointers";
import type { Database, Db, Tx } from "@/server/db/client";
import { badInput, DomainError } from "@/server/errors";
import type { Digest } from "@/server/gate/digest";
import { decideRollback as earlierDefault, type PointerMove } from "@/server/gate/pointers";
import { decideRollback, rollbackTargets } from "@/server/promotion/guards";
import { rollbackFactsOf } from "@/server/receipts/promotion-facts";
import type { ResourceRef } from "@/server/gate/receipt/refs";
import { receiptView } from "@/server/gate/receipt/view";
import { checkScopedAgent, verifyDecisionSignature, type ApprovalOpts, type FinishApprovalInput } from "./approve";
import { ROLLBACK_PURPOSE, ZRollbackPayloadData, type RollbackPayloadData } from "./payload";
import { recordDecision } from "@/server/candidates/decision-record";
import { withRefusalAudit } from "./refusal-audit";
import { rollbackBeginRefusal, rollbackFinishRefusal } from "./refusal-contexts";
import { receiptSigningKey } from "@/server/keys/signing-key";
import { actorRefFor } from "./snapshot";
import { buildDecisionStatement, signDecisionStatement } from "./statement";
import type { ReceiptSource } from "./source";

export type RollbackPointer = Extract<PointerKind, "approved_default" | "canary">;
export type RollbackTarget = { ref: ResourceRef; candidateId: string | null; receiptDigest: Digest | null; why: string };
/** `unloadable`: targets the rules would allow whose exact version no longer loads (missing, or other bytes): never offered. */
export type RollbackOptions = { agent: string; pointer: RollbackPointer; current: ResourceRef | null; targets: RollbackTarget[]; unloadable: { ref: ResourceRef; reason: string }[]; blocked: string | null; parentOfCurrent?: string | null };

const refOf = (r: { resourcesId: string; version: number; digest: string }): ResourceRef => ({ resourceId: r.resourcesId, version: r.version, digest: r.digest });

/** Where `pointer` may go back to now, and why each target is allowed. */
export async function rollbackOptions(db: Db | Tx, source: ReceiptSource, agent: string, pointer: RollbackPointer, actor: Actor | null): Promise<RollbackOptions> {
  const current = await readPointer(db, agent, pointer);
  const base = { agent, pointer, current: current && refOf(current) };
  if (!current) return { ...base, targets: [], unloadable: [], blocked: `no ${pointer.replace("_", " ")} to roll back` };
  const rows = await db.pointerMove.findMany({ where: { agent, kind: "approved_default" }, orderBy: [{ at: "asc" }, { id: "asc" }] });
  const history: PointerMove[] = rows.map((m) => ({
    agent,
    pointer: "approved-default",
    from: m.fromDigest ? { resourceId: m.fromResourcesId!, version: m.fromVersion!, digest: m.fromDigest } : null,
    to: { resourceId: m.toResourcesId, version: m.toVersion, digest: m.toDigest },
    by: m.actorId,
    at: m.at.toISOString(),
    receiptDigest: m.receiptDigest as Digest | null,
    reason: m.reason,
  }));
  const targets = new Map<string, RollbackTarget>();
  // The exact parent, when the current candidate's receipt showed routing can return to it.
  const state = current.candidateId ? await source.load(db, current.candidateId) : null;
  if (state) {
    const test = receiptView(state.chain).stage3?.rollbackTest;
    const parent = state.candidate.parent;
    if (test?.loaded && test.routedBack && test.parent.digest === parent.digest) {
      const earlier = history.findLast((m) => m.to.digest === parent.digest);
      const candidate = await db.candidate.findFirst({ where: { agent, digest: parent.digest }, select: { id: true } });
      targets.set(parent.digest, { ref: refOf(parent), candidateId: candidate?.id ?? null, receiptDigest: earlier?.receiptDigest ?? null, why: `exact parent; rollback tested in ${test.environment}` });
    }
  }
  // Earlier approved defaults, through the gate core's rollback rule.
  if (pointer === "approved_default") {
    const pointers = { agent, latestCandidate: null, approvedDefault: { ...refOf(current), receiptDigest: (current.receiptDigest ?? "") as Digest } };
    const roles = actor ? actorRefFor(actor, agent) : { id: "anyone", kind: "user" as const, roles: ["release_approver" as const] };
    for (const m of [...history].reverse()) {
      if (targets.has(m.to.digest)) continue;
      const d = earlierDefault({ pointers, history, target: m.to, actor: roles, at: new Date().toISOString(), reason: "-" });
      if (!d.allowed) continue;
      const candidate = await db.candidate.findFirst({ where: { agent, digest: m.to.digest }, select: { id: true } });
      targets.set(m.to.digest, { ref: m.to, candidateId: candidate?.id ?? null, receiptDigest: m.receiptDigest, why: `approved default since ${m.at}` });
    }
  }
  // The promotion state machine keeps what it allows: never the current value, never forward, never a rolled-back resource.
  const facts = { ...(await rollbackFactsOf(db, agent, pointer, current.digest)), parentOfCurrent: state?.candidate.parent.digest ?? null };
  const allowed = rollbackTargets(facts, [...targets.values()].map((t) => ({ ...t, digest: t.ref.digest })), { id: actor?.id ?? "anyone", scopes: [] }).map(({ digest: _d, ...t }) => t);
  // Resolved on the caller's client (at commit: in the rollback's transaction) by version and re-hashed bytes.
  const list: RollbackTarget[] = [];
  const unloadable: RollbackOptions["unloadable"] = [];
  for (const t of allowed) {
    const ref = { resourcesId: t.ref.resourceId, version: t.ref.version, digest: t.ref.digest };
    const load = await resourceLoad(db, ref);
    if (load.loadable) list.push(t);
    else unloadable.push({ ref: t.ref, reason: unloadableSentence(t.why.startsWith("exact parent") ? "the exact parent" : "the earlier approved default", ref, load) });
  }
  const noPasskey = actor?.kind === "user" && (await db.passkey.count({ where: { userId: actor.id } })) === 0;
  const blocked =
    actor && !actorCan(actor, "rollback:execute", agent)
      ? `your roles do not hold "rollback:execute" for ${agent}`
      : !list.length
        ? unloadable.length
          ? `no loadable target to return to: ${unloadable.map((u) => u.reason).join("; ")}`
          : "no tested exact parent or earlier approved default to return to"
        : noPasskey
        ? "you have no passkey to sign with: register one under Settings → Security"
        : null;
  return { ...base, targets: list, unloadable, blocked, parentOfCurrent: facts.parentOfCurrent };
}

export type BeginRollbackInput = { agent: string; pointer: RollbackPointer; toDigest: string; reason: string };

/** Refused (whatever the reason) → an audit row of its own, then the refusal (refusal-audit.ts). */
export function beginRollback(database: Database, actor: Actor, input: BeginRollbackInput, opts: ApprovalOpts) {
  return withRefusalAudit(database, actor, () => rollbackBeginRefusal(input), () => begin(database, actor, input, opts));
}

async function begin(database: Database, actor: Actor, input: BeginRollbackInput, opts: ApprovalOpts) {
  const reason = input.reason.trim();
  if (reason.length < 3) throw badInput("reason", "say why you roll back (at least 3 characters)");
  const options = await rollbackOptions(database.db, opts.source, input.agent, input.pointer, actor);
  if (!actorCan(actor, "rollback:execute", input.agent)) throw new DomainError("FORBIDDEN", options.blocked ?? "rollback:execute required");
  const target = options.targets.find((t) => t.ref.digest === input.toDigest);
  const gone = options.unloadable.find((u) => u.ref.digest === input.toDigest);
  if (gone) throw new DomainError("PRECONDITION_FAILED", `toDigest: ${gone.reason}`, "toDigest");
  if (!target) throw new DomainError("PRECONDITION_FAILED", `toDigest: not a tested exact parent or earlier approved default of ${input.agent}`, "toDigest");
  const data: RollbackPayloadData = {
    kind: "rollback",
    agent: input.agent,
    pointer: { kind: input.pointer, from: options.current, to: target.ref },
    targetReceipt: target.receiptDigest,
    reason,
    approver: { kind: actor.kind, id: actor.id, name: actor.name, roles: actorRefFor(actor, input.agent).roles },
  };
  const now = opts.now ?? new Date();
  return issueDecisionPayload(database, actor, { purpose: ROLLBACK_PURPOSE, data }, now);
}

export function finishRollback(database: Database, actor: Actor, input: FinishApprovalInput, opts: ApprovalOpts) {
  return withRefusalAudit(database, actor, () => rollbackFinishRefusal(input), () => finish(database, actor, input, opts));
}

async function finish(database: Database, actor: Actor, input: FinishApprovalInput, opts: ApprovalOpts) {
  if (input.payload?.purpose !== ROLLBACK_PURPOSE) throw badInput("payload", "not a rollback payload");
  const parsed = ZRollbackPayloadData.safeParse(input.payload.data);
  if (!parsed.success) throw badInput("payload", `not a rollback payload (${parsed.error.issues[0]?.path.join(".")})`);
  const data = parsed.data;
  checkScopedAgent(input, data.agent);
  const now = opts.now ?? new Date();
  const key = await receiptSigningKey(database.db);
  return database.transaction(
    async (tx) => {
      const signature = await verifyDecisionSignature(tx, actor, input, now);
      if (!actorCan(actor, "rollback:execute", data.agent)) throw new DomainError("FORBIDDEN", `${actor.name} lacks the "rollback:execute" scope for ${data.agent}`);
      const options = await rollbackOptions(tx, opts.source, data.agent, data.pointer.kind, actor);
      if ((options.current?.digest ?? null) !== (data.pointer.from?.digest ?? null)) {
        throw new DomainError("CONFLICT", `pointer: the ${data.pointer.kind.replace("_", " ")} moved since the rollback was prepared; prepare it again`, "pointer");
      }
      const target = options.targets.find((t) => t.ref.digest === data.pointer.to.digest);
      const gone = options.unloadable.find((u) => u.ref.digest === data.pointer.to.digest);
      if (gone) throw new DomainError("PRECONDITION_FAILED", `pointer: ${gone.reason}`, "pointer");
      if (!target) throw new DomainError("PRECONDITION_FAILED", "pointer: the target is no longer a tested exact parent or earlier approved default", "pointer");
      const facts = { ...(await rollbackFactsOf(tx, data.agent, data.pointer.kind, options.current?.digest ?? null)), parentOfCurrent: options.parentOfCurrent };
      const guard = decideRollback(facts, target.ref.digest, { id: actor.id, scopes: ["rollback:execute"] });
      if (!guard.allowed) throw new DomainError("PRECONDITION_FAILED", `pointer: ${guard.reason}`, "pointer");
      await movePointer(tx, {
        agent: data.agent,
        kind: data.pointer.kind,
        decision: guard,
        to: { resourcesId: target.ref.resourceId, version: target.ref.version, digest: target.ref.digest, candidateId: target.candidateId, receiptDigest: target.receiptDigest },
        actor,
        reason: `rollback (signed) by ${actor.name}: ${data.reason}`,
        at: now,
      });
      const statement = buildDecisionStatement({ action: "rollback", subject: { name: target.ref.resourceId, digest: target.ref.digest }, payload: input.payload as SignedPayload, signature, chain: null, committedAt: now });
      const envelope = signDecisionStatement(statement, key.privateKey, key.keyid);
      const row = await recordDecision(tx, actor, now, {
        action: "rollback",
        agent: data.agent,
        candidateId: target.candidateId,
        pointerKind: data.pointer.kind,
        fromDigest: data.pointer.from?.digest,
        toDigest: target.ref.digest,
        toResourcesId: target.ref.resourceId,
        receiptDigest: target.receiptDigest,
        comment: data.reason,
        payload: input.payload,
        signature,
        envelope,
      });
      await appendAudit(tx, {
        actor,
        action: `rollback.${data.pointer.kind}`,
        target: { type: "pointer", id: `${data.agent}/${data.pointer.kind}` },
        before: data.pointer.from,
        after: { decisionId: row.id, to: target.ref, why: target.why, reason: data.reason, signature: signature.payloadDigest },
      });
      return { decisionId: row.id, pointer: data.pointer.kind, from: data.pointer.from, to: target.ref, envelope };
    },
    { locks: [AUDIT_LOCK, pointerLock(data.agent)] },
  );
}
