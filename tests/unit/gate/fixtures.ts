// Shared builders for the gate's unit tests: the four-candidate reference as receipts, and a judge.
import { evaluateGate, type GateReport } from "@/server/gate/gate";
import type { GatePolicy } from "@/server/gate/policy";
import { POLICY, VERSIONS } from "@/server/gate/reference/common";
import { REFERENCE_NOW, sealReference } from "@/server/gate/reference/four-candidates";
import { rawCandidate, REFERENCE_SPECS, type RawCandidate, type ReferenceName } from "@/server/gate/reference/raw-evidence";
import type { SealedLink } from "@/server/gate/receipt/seal";
import { receiptView, type Receipt } from "@/server/gate/receipt/view";
import type { CheckId, VersionSet } from "@/server/gate/versions";

export type Reference = { raw: RawCandidate; chain: SealedLink[]; receipt: Receipt };

const cache = new Map<string, Reference>();

/** A sealed reference candidate; each call returns a fresh deep copy, free to mutate. */
export function reference(name: ReferenceName, opts: { approve?: boolean } = {}): Reference {
  const key = `${name}:${opts.approve ?? true}`;
  let ref = cache.get(key);
  if (!ref) {
    const raw = rawCandidate(REFERENCE_SPECS[name]);
    const chain = sealReference(raw, { approve: opts.approve ?? true });
    ref = { raw, chain, receipt: receiptView(chain) };
    cache.set(key, ref);
  }
  return structuredClone(ref);
}

export function judge(receipt: Receipt, opts: { policy?: GatePolicy; versions?: VersionSet; now?: Date } = {}): GateReport {
  return evaluateGate({ receipt, policy: opts.policy ?? POLICY, currentVersions: opts.versions ?? VERSIONS, now: opts.now ?? REFERENCE_NOW });
}

export function statusOf(report: GateReport, id: CheckId) {
  return report.checks.find((c) => c.id === id)!.status;
}

/** Ids of the checks that did not pass. */
export function notPassing(report: GateReport): CheckId[] {
  return report.checks.filter((c) => c.status !== "pass").map((c) => c.id);
}
