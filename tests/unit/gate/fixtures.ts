// Shared builders for the gate's unit tests: the four-candidate reference as receipts, and a judge. The core
// reads signed decisions as plain data; `verifiedDecisions` is what the database edge reports for approval
// links that were signed and verified (the integration tests run the real edge on real signatures).
import { evaluateGate, type GateReport } from "@/server/gate/gate";
import type { GatePolicy } from "@/server/gate/policy";
import { POLICY, VERSIONS } from "@/server/gate/reference/common";
import { REFERENCE_NOW, sealReference } from "@/server/gate/reference/four-candidates";
import { rawCandidate, REFERENCE_SPECS, type RawCandidate, type ReferenceName } from "@/server/gate/reference/raw-evidence";
import type { ActorRef } from "@/server/gate/receipt/refs";
import type { SealedLink } from "@/server/gate/receipt/seal";
import type { SignedDecisions } from "@/server/gate/receipt/signed-decisions";
import { receiptView, type Receipt } from "@/server/gate/receipt/view";
import type { CheckId, VersionSet } from "@/server/gate/versions";
import type { ParentLoad } from "@/server/gate/parent-load";

export type Reference = { raw: RawCandidate; chain: SealedLink[]; receipt: Receipt };

/** The canary approver the fixtures' approval links name. */
export const APPROVER: ActorRef = { id: "usr-alice", kind: "user", roles: ["canary_approver"] };

const cache = new Map<string, Reference>();

/** A sealed reference candidate; each call returns a fresh deep copy, free to mutate. */
export function reference(name: ReferenceName, opts: { approve?: boolean } = {}): Reference {
  const key = `${name}:${opts.approve ?? true}`;
  let ref = cache.get(key);
  if (!ref) {
    const raw = rawCandidate(REFERENCE_SPECS[name]);
    const chain = sealReference(raw, opts.approve ?? true ? { approvedBy: APPROVER } : {});
    ref = { raw, chain, receipt: receiptView(chain) };
    cache.set(key, ref);
  }
  return structuredClone(ref);
}

/**
 * The edge's report for every approval link of `receipt` as if each had been signed by the actor it names,
 * the signature verified over a payload naming exactly that decision, the key registered, and the roles the
 * link names held at the time. Tests then break one fact at a time.
 */
export function verifiedDecisions(receipt: Receipt, excluded: string[] = []): SignedDecisions {
  const records = receipt.approvals.map((a) => ({
    link: a.link,
    payload: {
      signer: { kind: a.actor.kind, id: a.actor.id, name: a.actor.id },
      data: { kind: a.decision === "approve" ? "approval" : "rejection", step: a.step, decision: a.decision, approves: a.approves, comment: a.comment },
    },
    signature: { kind: "webauthn" },
    signatureVerified: { ok: true as const },
    keyRegistered: { ok: true as const },
    rolesAtTheTime: a.actor.roles,
  }));
  return { records, excluded };
}

export function judge(receipt: Receipt, opts: { policy?: GatePolicy; versions?: VersionSet; now?: Date; decisions?: SignedDecisions; parentLoad?: ParentLoad } = {}): GateReport {
  const decisions = opts.decisions ?? verifiedDecisions(receipt);
  return evaluateGate({ receipt, policy: opts.policy ?? POLICY, currentVersions: opts.versions ?? VERSIONS, now: opts.now ?? REFERENCE_NOW, decisions, parentLoad: opts.parentLoad });
}

export function statusOf(report: GateReport, id: CheckId) {
  return report.checks.find((c) => c.id === id)!.status;
}

/** Ids of the checks that did not pass. */
export function notPassing(report: GateReport): CheckId[] {
  return report.checks.filter((c) => c.status !== "pass").map((c) => c.id);
}
