// A signed decision as an in-toto Statement v1 in a DSSE envelope (signed by the server key): the approver's
// own signature record and the exact payload they signed, and — for approvals and rejections — the sealed
// receipt chain up to and including the decision's link. Verifiable offline: every digest, the link's binding to the payload,
// the approver's passkey/Ed25519 signature, and the server's envelope signature.
import type { KeyObject } from "node:crypto";
import { z } from "zod";
import { digestHex, ZDigest, ZJson } from "@/server/gate/digest";
import { canonicalJson } from "@/server/digest";
import { signEnvelope, verifyEnvelope, type DsseEnvelope } from "@/server/gate/export/dsse";
import { IN_TOTO_PAYLOAD_TYPE, IN_TOTO_STATEMENT_TYPE } from "@/server/gate/export/statement";
import type { ReceiptCheck } from "@/server/gate/export/verify-receipt";
import { ZSealedLink, verifyChain, type SealedLink } from "@/server/gate/receipt/seal";
import { ZApproval } from "@/server/gate/receipt/approval";
import type { SignedPayload } from "@/server/auth/signing";
import { verifySignatureOffline, type SignatureRecord } from "@/server/auth/verify-offline";
import { ZApprovalPayloadData, ZRejectionPayloadData, ZRollbackPayloadData } from "./payload";

export const DECISION_PREDICATE_TYPE = "https://lightgate.dev/attestations/signed-decision/v1";

const ZSigned = z.object({
  v: z.literal(1),
  purpose: z.string(),
  data: ZJson,
  nonce: z.string(),
  issuedAt: z.string(),
  expiresAt: z.string(),
  signer: z.object({ kind: z.enum(["user", "service"]), id: z.string(), name: z.string() }),
});

export const ZDecisionStatement = z.object({
  _type: z.literal(IN_TOTO_STATEMENT_TYPE),
  subject: z.array(z.object({ name: z.string().min(1), digest: z.record(z.string(), z.string()) })).min(1),
  predicateType: z.literal(DECISION_PREDICATE_TYPE),
  predicate: z.object({
    action: z.enum(["approval", "rejection", "rollback"]),
    payload: ZSigned,
    signature: z.record(z.string(), ZJson),
    /** Approvals and rejections: the sealed chain through the decision's link, and that link's digest. */
    chain: z.array(ZSealedLink).nullable(),
    head: ZDigest.nullable(),
    committedAt: z.iso.datetime(),
  }),
});
export type DecisionStatement = z.infer<typeof ZDecisionStatement>;

export function buildDecisionStatement(input: {
  action: DecisionStatement["predicate"]["action"];
  subject: { name: string; digest: string };
  payload: SignedPayload;
  signature: SignatureRecord;
  chain: readonly SealedLink[] | null;
  committedAt: Date;
}): DecisionStatement {
  const { action } = input;
  return {
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [{ name: input.subject.name, digest: { sha256: digestHex(input.subject.digest as `sha256:${string}`) } }],
    predicateType: DECISION_PREDICATE_TYPE,
    predicate: {
      action,
      payload: ZSigned.parse(input.payload),
      signature: input.signature as unknown as Record<string, z.infer<typeof ZJson>>,
      chain: input.chain ? [...input.chain] : null,
      head: input.chain?.at(-1)?.digest ?? null,
      committedAt: input.committedAt.toISOString(),
    },
  };
}

export function signDecisionStatement(statement: DecisionStatement, privateKey: KeyObject, keyid?: string): DsseEnvelope {
  return signEnvelope(Buffer.from(canonicalJson(statement), "utf8"), IN_TOTO_PAYLOAD_TYPE, privateKey, keyid);
}

export function isDecisionEnvelope(envelope: unknown): boolean {
  try {
    const e = envelope as DsseEnvelope;
    const text = Buffer.from(e.payload, "base64").toString("utf8");
    return (JSON.parse(text) as { predicateType?: string }).predicateType === DECISION_PREDICATE_TYPE;
  } catch {
    return false;
  }
}

export type DecisionVerification = { ok: boolean; checks: ReceiptCheck[]; statement: DecisionStatement | null };

/** Offline: envelope → statement → (approvals) chain and link binding → the approver's signature. */
export async function verifyDecisionStatement(envelope: unknown, trustedKeys: readonly KeyObject[], expected: { rpId?: string; origin?: string } = {}): Promise<DecisionVerification> {
  const checks: ReceiptCheck[] = [];
  const done = (statement: DecisionStatement | null) => ({ ok: checks.length > 0 && checks.every((c) => c.ok), checks, statement });
  const env = verifyEnvelope(envelope, { trustedKeys, payloadType: IN_TOTO_PAYLOAD_TYPE });
  for (const s of env.steps) checks.push({ name: `envelope ${s.step}`, ok: s.ok, detail: s.detail });
  if (!env.ok) return done(null);
  const parsed = ZDecisionStatement.safeParse(env.parsed);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    checks.push({ name: "statement", ok: false, detail: `not a Lightgate signed decision (${issue?.path.join(".")}: ${issue?.message})` });
    return done(null);
  }
  const statement = parsed.data;
  const { payload, action } = statement.predicate;
  checks.push({ name: "statement", ok: true, detail: `in-toto Statement v1, ${action} signed by ${payload.signer.name} (${payload.signer.id})` });

  if (action !== "rollback") checks.push(...decisionBinding(statement));
  else {
    const data = ZRollbackPayloadData.safeParse(payload.data);
    const subjectOk = data.success && statement.subject[0]!.digest.sha256 === digestHex(data.data.pointer.to.digest as `sha256:${string}`);
    checks.push({ name: "subject", ok: subjectOk, detail: subjectOk ? `rollback of ${data.data!.agent} to ${data.data!.pointer.to.resourceId}` : "the subject is not the rollback's target" });
  }
  const record = statement.predicate.signature as unknown as SignatureRecord;
  const sig = await verifySignatureOffline(record, payload as SignedPayload, expected);
  checks.push({ name: "approver signature", ok: sig.ok, detail: sig.ok ? `${record.kind} signature over ${sig.digest}` : sig.reason });
  return done(statement);
}

/** An approval or a rejection: its chain verifies and ends in the decision's link, bound to what was signed. */
function decisionBinding(statement: DecisionStatement): ReceiptCheck[] {
  const { payload, chain, head, action } = statement.predicate;
  const out: ReceiptCheck[] = [];
  if (!chain || !head) return [{ name: "sealed chain", ok: false, detail: `an ${action} carries its receipt chain` }];
  const sealed = verifyChain(chain, { expectedHead: head });
  out.push({
    name: "sealed chain",
    ok: sealed.ok,
    detail: sealed.ok ? `${chain.length} links (${chain.map((l) => l.kind).join(" → ")}), every digest recomputed` : sealed.problems.map((p) => `link ${p.index}: ${p.problem}`).join("; "),
  });
  if (!sealed.ok) return out;
  const data = (action === "approval" ? ZApprovalPayloadData : ZRejectionPayloadData).safeParse(payload.data);
  const link = chain.at(-1)!;
  const content = ZApproval.safeParse(link.content);
  if (!data.success || link.kind !== "approval" || !content.success) {
    out.push({ name: "decision link", ok: false, detail: `the chain does not end in a decision link for a signed ${action} payload` });
    return out;
  }
  const d = data.data;
  const c = content.data;
  const problems: string[] = [];
  if (link.prevDigest !== d.receiptDigest) problems.push(`appended to ${link.prevDigest}, but the approver signed receipt ${d.receiptDigest}`);
  if (c.approves !== d.approves) problems.push("decides on another link than the signed one");
  if (c.step !== d.step || c.decision !== d.decision) problems.push("step or decision differs from the signed payload");
  if (c.actor.id !== payload.signer.id) problems.push("names another actor than the signer");
  if (d.comment !== c.comment) problems.push("its comment differs from the signed one");
  out.push({ name: "decision link", ok: problems.length === 0, detail: problems.length ? problems.join("; ") : `${c.step} step ${c.decision === "approve" ? "approved" : "rejected"} by ${c.actor.id}, bound to receipt ${d.receiptDigest}` });
  const subject = statement.subject[0]!;
  const subjectOk = subject.digest.sha256 === digestHex(d.candidate.digest as `sha256:${string}`);
  out.push({ name: "subject", ok: subjectOk, detail: subjectOk ? `${subject.name} sha256:${subject.digest.sha256}` : `the subject is not the candidate the ${action} decided on` });
  return out;
}
