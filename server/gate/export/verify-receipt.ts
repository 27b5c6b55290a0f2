// Offline verification of an exported receipt: signature, statement, sealed chain, subject, and the verdict
// recomputed from the sealed stages with the recorded policy and versions.
import type { KeyObject } from "node:crypto";
import { digestHex } from "../digest";
import { candidateIdentity } from "../evidence/derive";
import { evaluateGate } from "../gate";
import { verifyChain } from "../receipt/seal";
import { receiptView } from "../receipt/view";
import { verifyEnvelope } from "./dsse";
import { IN_TOTO_PAYLOAD_TYPE, ZReceiptStatement, type ReceiptStatement } from "./statement";

export type ReceiptCheck = { name: string; ok: boolean; detail: string };
export type ReceiptVerification = { ok: boolean; checks: ReceiptCheck[]; statement: ReceiptStatement | null };

export function verifyReceipt(envelope: unknown, trustedKeys: readonly KeyObject[]): ReceiptVerification {
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

  const report = evaluateGate({ receipt, policy: gate.policy, currentVersions: gate.currentVersions, now: new Date(gate.evaluatedAt) });
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
