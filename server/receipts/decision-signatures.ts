// The database edge of check 7: for each approval link of a receipt, the decision stored with it (the signed
// payload and signature record), checked offline, its key looked up among the signer's registered passkeys or
// bot keys, and the roles the signer held for the agent when it committed — read from the hash-chained audit
// row written in the decision's own transaction. Plus who separation of duties excludes. The gate core reads
// the result as plain data (server/gate/receipt/signed-decisions.ts).
import { z } from "zod";
import type { RoleGrant } from "@/lib/auth/scopes";
import { verifyStoredSignature, type OfflineVerdict, type SignatureRecord } from "@/server/auth/verify-offline";
import type { Db, Tx } from "@/server/db/client";
import { sha256Digest } from "@/server/digest";
import { ZRole } from "@/server/gate/receipt/refs";
import type { DecisionRecord, Finding, SignedDecisions } from "@/server/gate/receipt/signed-decisions";
import type { Receipt } from "@/server/gate/receipt/view";
import { excludedApprovers, type CandidateAuthors } from "./duties";

const DECISION_AUDIT_ACTIONS = ["approval.canary.approve", "approval.default.approve", "approval.canary.reject", "approval.default.reject"];
const ZGrants = z.array(z.object({ role: ZRole, agent: z.string().nullable() }));
const ZDecisionAudit = z.object({ decisionId: z.string() });
const ZPasskeyRegistration = z.object({ userId: z.string(), credentialId: z.string(), publicKey: z.string().optional() });

type DecisionRow = { id: string; linkDigest: string | null; actorId: string; payload: string | null; signature: string | null; at: Date };

// Offline verification is pure in the stored bytes: kept per process, keyed by their digest.
const verified = new Map<string, OfflineVerdict>();
async function verifyStored(row: DecisionRow, record: unknown, payload: unknown): Promise<OfflineVerdict> {
  const key = sha256Digest(`${row.payload}\n${row.signature}`);
  const known = verified.get(key);
  if (known) return known;
  const verdict = await verifyStoredSignature(record, payload);
  if (verified.size >= 4096) verified.delete(verified.keys().next().value!);
  verified.set(key, verdict);
  return verdict;
}

const parsed = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

/** The record's key is one registered to its signer (a passkey removed since still counts if its registration is on record). */
async function keyRegistered(db: Db | Tx, record: SignatureRecord, at: Date): Promise<Finding> {
  const signer = record.signer.id;
  if (record.kind === "ed25519") {
    const key = await db.botKey.findUnique({ where: { id: record.keyId } });
    if (!key || key.botId !== signer || key.publicKey !== record.publicKey) return { ok: false, reason: `bot key ${record.keyId} is not registered to ${signer}` };
    if (key.revokedAt && key.revokedAt <= at) return { ok: false, reason: `bot key ${record.keyId} was revoked before the decision` };
    return { ok: true };
  }
  const passkey = await db.passkey.findUnique({ where: { credentialId: record.credentialId }, select: { userId: true, publicKey: true } });
  if (passkey) return passkey.userId === signer && passkey.publicKey === record.publicKey ? { ok: true } : { ok: false, reason: `passkey ${record.credentialId.slice(0, 16)}… is not registered to ${signer}` };
  const registrations = await db.auditEvent.findMany({ where: { action: "passkey.register", actorId: signer }, select: { after: true } });
  const onRecord = registrations.some((r) => {
    const reg = ZPasskeyRegistration.safeParse(parsed(r.after));
    return reg.success && reg.data.userId === signer && reg.data.credentialId === record.credentialId && reg.data.publicKey === record.publicKey;
  });
  return onRecord ? { ok: true } : { ok: false, reason: `passkey ${record.credentialId.slice(0, 16)}… is not registered to ${signer}` };
}

async function recordOf(db: Db | Tx, row: DecisionRow, rolesAtTheTime: DecisionRecord["rolesAtTheTime"]): Promise<DecisionRecord> {
  const payload = parsed(row.payload);
  const signature = parsed(row.signature);
  const base = { link: row.linkDigest as DecisionRecord["link"], payload: payload as DecisionRecord["payload"], signature: signature as DecisionRecord["signature"], rolesAtTheTime };
  if (!payload || !signature || typeof signature !== "object" || !("kind" in signature)) {
    const none = { ok: false as const, reason: "no signature is stored with it" };
    return { ...base, signatureVerified: none, keyRegistered: none };
  }
  const record = signature as SignatureRecord;
  const offline = await verifyStored(row, record, payload);
  const signatureVerified: Finding = offline.ok ? { ok: true } : { ok: false, reason: offline.reason };
  return { ...base, signatureVerified, keyRegistered: await keyRegistered(db, record, row.at) };
}

/** Everything check 7 needs about a stored receipt's decisions. Sequential queries: `db` may be a transaction. */
export async function signedDecisionsFor(db: Db | Tx, candidate: { id: string; agent: string } & CandidateAuthors, receipt: Receipt): Promise<SignedDecisions> {
  const excluded = await excludedApprovers(db, candidate, receipt.stage1);
  const links = receipt.approvals.map((a) => a.link);
  if (!links.length) return { records: [], excluded };
  const rows = await db.approvalDecision.findMany({
    where: { candidateId: candidate.id, linkDigest: { in: links }, action: { in: ["approve", "reject"] } },
    orderBy: [{ at: "asc" }, { id: "asc" }],
    select: { id: true, linkDigest: true, actorId: true, payload: true, signature: true, at: true },
  });
  const audits = await db.auditEvent.findMany({ where: { targetType: "candidate", targetId: candidate.id, action: { in: DECISION_AUDIT_ACTIONS } }, select: { actorId: true, actorRoles: true, after: true } });
  const grantsOf = new Map<string, { actorId: string; grants: RoleGrant[] }>();
  for (const a of audits) {
    const decision = ZDecisionAudit.safeParse(parsed(a.after));
    const grants = ZGrants.safeParse(parsed(a.actorRoles));
    if (decision.success && grants.success) grantsOf.set(decision.data.decisionId, { actorId: a.actorId, grants: grants.data });
  }
  const records: DecisionRecord[] = [];
  for (const row of rows) {
    const held = grantsOf.get(row.id);
    const roles = held && held.actorId === row.actorId ? [...new Set(held.grants.filter((g) => g.agent === null || g.agent === candidate.agent).map((g) => g.role))] : null;
    records.push(await recordOf(db, row, roles));
  }
  return { records, excluded };
}
