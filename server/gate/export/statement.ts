// The receipt as an in-toto Statement v1: subject = the candidate's digest, predicate = the sealed chain of
// stages plus the gate's inputs and results, so a verifier can recompute the verdict offline.
import { z } from "zod";
import { digestHex, ZDigest, ZJson } from "../digest";
import { canonicalJson } from "@/server/digest";
import { candidateIdentity } from "../evidence/derive";
import type { GateReport } from "../gate";
import { ZGatePolicy, type GatePolicy } from "../policy";
import { ZSealedLink, type SealedLink } from "../receipt/seal";
import { ZParentLoad, type ParentLoad } from "../parent-load";
import { ZSignedDecisions, type SignedDecisions } from "../receipt/signed-decisions";
import { receiptView } from "../receipt/view";
import { VERDICTS } from "../verdict";
import { ZVersionSet, type VersionSet } from "../versions";
import { signEnvelope, type DsseEnvelope } from "./dsse";
import type { KeyObject } from "node:crypto";

export const IN_TOTO_STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
export const IN_TOTO_PAYLOAD_TYPE = "application/vnd.in-toto+json";
export const RECEIPT_PREDICATE_TYPE = "https://lightgate.dev/attestations/update-receipt/v1";

const ZCheckSummary = z.object({
  id: z.number().int().min(1).max(7),
  title: z.string(),
  status: z.enum(["pass", "fail", "unavailable", "stale"]),
  explanation: z.string(),
  computedAt: z.string().nullable(),
  versions: z.record(z.string(), ZJson),
  evidence: z.record(z.string(), ZJson),
});

export const ZReceiptPredicate = z.object({
  agent: z.string().min(1),
  chain: z.array(ZSealedLink).min(1),
  head: ZDigest,
  gate: z.object({
    evaluatedAt: z.iso.datetime(),
    policy: ZGatePolicy,
    currentVersions: ZVersionSet,
    verdict: z.enum(VERDICTS),
    step: z.enum(["canary", "default"]),
    sentence: z.string(),
    checks: z.array(ZCheckSummary).length(7),
    canaryStageChecks: z.array(ZCheckSummary).nullable(),
    /** The signed decisions behind the approval links: payload and signature re-verify offline; the key's
     *  registration and the roles held at the time are the server's word, signed with the rest. */
    decisions: ZSignedDecisions,
    /** Whether the exact parent loaded when the server judged (check 1 reads it): the server's word. */
    parentLoad: ZParentLoad.optional(),
  }),
});
export type ReceiptPredicate = z.infer<typeof ZReceiptPredicate>;

export const ZReceiptStatement = z.object({
  _type: z.literal(IN_TOTO_STATEMENT_TYPE),
  subject: z.array(z.object({ name: z.string().min(1), digest: z.record(z.string(), z.string()) })).min(1),
  predicateType: z.literal(RECEIPT_PREDICATE_TYPE),
  predicate: ZReceiptPredicate,
});
export type ReceiptStatement = z.infer<typeof ZReceiptStatement>;

const summary = (c: GateReport["checks"][number]) => ({
  id: c.id,
  title: c.title,
  status: c.status,
  explanation: c.explanation,
  computedAt: c.computedAt,
  versions: c.versions,
  evidence: c.evidence,
});

export function buildReceiptStatement(input: {
  chain: readonly SealedLink[];
  report: GateReport;
  policy: GatePolicy;
  currentVersions: VersionSet;
  decisions: SignedDecisions;
  parentLoad?: ParentLoad;
}): ReceiptStatement {
  const receipt = receiptView(input.chain);
  const candidate = candidateIdentity(receipt).ref;
  if (!candidate) throw new Error("a receipt is exported only once its candidate digest is known");
  const { report } = input;
  return {
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [{ name: candidate.resourceId, digest: { sha256: digestHex(candidate.digest) } }],
    predicateType: RECEIPT_PREDICATE_TYPE,
    predicate: {
      agent: receipt.stage1.agent,
      chain: [...input.chain],
      head: input.chain.at(-1)!.digest,
      gate: {
        evaluatedAt: report.evaluatedAt,
        policy: input.policy,
        currentVersions: input.currentVersions,
        verdict: report.verdict,
        step: report.step,
        sentence: report.sentence,
        checks: report.checks.map(summary),
        canaryStageChecks: report.canaryStageChecks?.map(summary) ?? null,
        decisions: input.decisions,
        ...(input.parentLoad ? { parentLoad: input.parentLoad } : {}),
      },
    },
  };
}

/** The statement's canonical JSON bytes, signed in a DSSE envelope. */
export function exportReceipt(statement: ReceiptStatement, privateKey: KeyObject, keyid?: string): DsseEnvelope {
  return signEnvelope(Buffer.from(canonicalJson(statement), "utf8"), IN_TOTO_PAYLOAD_TYPE, privateKey, keyid);
}
