// "Fresh until …, and why": the moment the first check's evidence grows older than the policy allows,
// computed exactly as the gate's stale-evidence rule does (recordedFor + maxEvidenceAgeSeconds), plus the
// versions whose change would make it stale sooner.
import { CANARY_STAGE_CHECKS, recordedFor, type CheckScope } from "@/server/gate/freshness";
import type { GatePolicy } from "@/server/gate/policy";
import type { Receipt } from "@/server/gate/receipt/view";
import { CHECK_IDS, CHECK_INPUTS, type CheckId, type VersionKey } from "@/server/gate/versions";

export type FreshUntil = {
  /** Null when no check has an age limit: the evidence then holds until one of `dependsOn` changes. */
  at: string | null;
  check: number | null;
  scope: CheckScope | null;
  /** When the deciding evidence was computed, and the limit that applies to it. */
  computedAt: string | null;
  maxAgeSeconds: number | null;
  /** Every version the checks rest on: a change to any makes the checks that read it stale. */
  dependsOn: VersionKey[];
};

export function freshUntil(receipt: Receipt, policy: Pick<GatePolicy, "maxEvidenceAgeSeconds">): FreshUntil {
  let best: Omit<FreshUntil, "dependsOn"> = { at: null, check: null, scope: null, computedAt: null, maxAgeSeconds: null };
  const scopes: [CheckScope, readonly CheckId[]][] = [["admission", CHECK_IDS]];
  if (receipt.canaryStage) scopes.push(["canary-stage", CANARY_STAGE_CHECKS]);
  for (const [scope, checks] of scopes) {
    for (const check of checks) {
      const maxAge = policy.maxEvidenceAgeSeconds[String(check) as keyof GatePolicy["maxEvidenceAgeSeconds"]];
      const recorded = recordedFor(receipt, check, scope);
      if (maxAge === undefined || !recorded) continue;
      const at = new Date(Date.parse(recorded.computedAt) + maxAge * 1000).toISOString();
      if (!best.at || at < best.at) best = { at, check, scope, computedAt: recorded.computedAt, maxAgeSeconds: maxAge };
    }
  }
  const dependsOn = [...new Set(CHECK_IDS.flatMap((c) => CHECK_INPUTS[c]))];
  return { ...best, dependsOn };
}
