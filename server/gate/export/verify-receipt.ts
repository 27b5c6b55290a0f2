// Offline verification of an exported receipt: signature, statement, sealed chain, subject, every signed
// decision's signature over its payload, and the verdict recomputed from the sealed stages with the recorded
// policy, versions and decisions. The signature check is passed in (server/auth/verify-offline.ts), so the
// gate core stays free of WebAuthn.
import type { KeyObject } from "node:crypto";
import { digestHex, type JsonValue } from "../digest";
import { candidateIdentity } from "../evidence/derive";
import { evaluateGate } from "../gate";
import { verifyChain } from "../receipt/seal";
import type { DecisionRecord, Finding, SignedDecisions } from "../receipt/signed-decisions";
import { receiptView } from "../receipt/view";
import { verifyEnvelope } from "./dsse";
import { IN_TOTO_PAYLOAD_TYPE, ZReceiptStatement, type ReceiptStatement } from "./statement";

export type ReceiptCheck = { name: string; ok: boolean; detail: string };
export type ReceiptVerification = { ok: boolean; checks: ReceiptCheck[]; statement: ReceiptStatement | null };
/** Does `signature` (a stored signature record) sign exactly `payload`? */
export type SignatureCheck = (signature: JsonValue, payload: JsonValue) => Promise<Finding>;

/** Each decision's signature checked again here; what the server recorded about it must agree. */
async function reverifyDecisions(recorded: SignedDecisions, checkSignature: SignatureCheck): Promise<{ decisions: SignedDecisions; check: ReceiptCheck }> {
  const records: DecisionRecord[] = [];
  const disagree: string[] = [];
  for (const r of recorded.records) {
    const signatureVerified: Finding = r.payload !== null && r.signature !== null ? await checkSignature(r.signature, r.payload) : { ok: false, reason: "no signature is stored with it" };
    if (signatureVerified.ok !== r.signatureVerified.ok) disagree.push(`${r.link.slice(0, 19)}… recorded ${r.signatureVerified.ok ? "verified" : "not verified"}, here ${signatureVerified.ok ? "verified" : `not (${signatureVerified.reason})`}`);
    records.push({ ...r, signatureVerified });
  }
  const good = records.filter((r) => r.signatureVerified.ok).length;
  const detail = disagree.length ? disagree.join("; ") : `${records.length} signed decision${records.length === 1 ? "" : "s"}, ${good} verifying over ${good === 1 ? "its" : "their"} payload`;
  return { decisions: { ...recorded, records }, check: { name: "decision signatures", ok: disagree.length === 0, detail } };
}

export async function verifyReceipt(envelope: unknown, trustedKeys: readonly KeyObject[], checkSignature: SignatureCheck): Promise<ReceiptVerification> {
  const checks: ReceiptCheck[] = [];
  const done = (statement: ReceiptStatement | null) => ({ ok: checks.every((c) => c.ok), checks, statement });

  const env = verifyEnvelope(envelope, { trustedKeys, payloadType: IN_TOTO_PAYLOAD_TYPE });
  for (const s of env.steps) checks.push({ name: `envelope ${s.step}`, ok: s.ok, detail: s.detail });
  if (!env.ok) return done(null);

  const parsed = ZReceiptStatement.safeParse(env.parsed);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    checks.push({ name: "statement", ok: false, detail: `not a Lightgate receipt statement (${issue?.path.join(".")}: ${issue?.message})` });
    return done(null);
  }
  const statement = parsed.data;
  const { chain, head, gate } = statement.predicate;
  checks.push({ name: "statement", ok: true, detail: `in-toto Statement v1, predicate ${statement.predicateType}` });

  const sealed = verifyChain(chain, { expectedHead: head });
  checks.push({
    name: "sealed chain",
    ok: sealed.ok,
    detail: sealed.ok
      ? `${chain.length} links (${chain.map((l) => l.kind).join(" → ")}), every digest recomputed`
      : sealed.problems.map((p) => `link ${p.index}: ${p.problem}`).join("; "),
  });
  if (!sealed.ok) return done(statement);

  const receipt = receiptView(chain);
  const candidate = candidateIdentity(receipt).ref;
  const subject = statement.subject[0]!;
  const subjectOk = !!candidate && subject.name === candidate.resourceId && subject.digest.sha256 === digestHex(candidate.digest);
  const subjectDetail = subjectOk ? `${subject.name} sha256:${subject.digest.sha256}` : "the subject is not the candidate the sealed stages name";
  checks.push({ name: "subject", ok: subjectOk, detail: subjectDetail });

  const { decisions, check } = await reverifyDecisions(gate.decisions, checkSignature);
  checks.push(check);
  const report = evaluateGate({ receipt, policy: gate.policy, currentVersions: gate.currentVersions, now: new Date(gate.evaluatedAt), decisions, parentLoad: gate.parentLoad });
  const differ = (now: typeof report.checks, then: typeof gate.checks) => now.filter((c, i) => then[i]?.id !== c.id || then[i]?.status !== c.status).map((c) => `${c.id}`);
  const mismatched = [...differ(report.checks, gate.checks), ...differ(report.canaryStageChecks ?? [], gate.canaryStageChecks ?? []).map((id) => `canary-stage ${id}`)];
  if ((report.canaryStageChecks === null) !== (gate.canaryStageChecks === null)) mismatched.push("canary stage");
  const same = report.verdict === gate.verdict && mismatched.length === 0;
  checks.push({
    name: "verdict recomputed",
    ok: same,
    detail: same
      ? `${report.verdict} — ${report.checks.map((c) => `${c.id}:${c.status}`).join(" ")}`
      : `recorded ${gate.verdict}, recomputed ${report.verdict}${mismatched.length ? `; checks ${mismatched.join(", ")} differ` : ""}`,
  });
  return done(statement);
}
