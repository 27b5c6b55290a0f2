// A gate re-run's stage 3 and what it carries: after a sealed canary stage whose evidence is still fresh at the
// re-run, the candidate stays at the default step (guards.ts decideRerun decides, and says why not).
import { isFresh, type LateEvidence } from "@/server/gate/freshness";
import type { GatePolicy } from "@/server/gate/policy";
import type { SealedLink } from "@/server/gate/receipt/seal";
import type { Stage3 } from "@/server/gate/receipt/stage3";
import { receiptView, type Receipt } from "@/server/gate/receipt/view";
import type { VersionSet } from "@/server/gate/versions";
import { decideRerun } from "./guards";

export type RerunAt = { versions: VersionSet; policy: GatePolicy; now: Date; lateEvidence?: readonly LateEvidence[] };

/** Whether the canary stage of `receipt` (if any) is sealed, aborted, and still fresh with the versions in force now. */
export function canaryStageFacts(receipt: Receipt, at: RerunAt) {
  const stage = receipt.canaryStage;
  if (!stage) return null;
  const stop = stage.canary.stop?.kind;
  const stale = isFresh(receipt, at.versions, at.now, at.policy, at.lateEvidence).stale.filter((s) => s.scope === "canary-stage");
  const staleBecause = [...new Set(stale.flatMap((s) => s.reasons.map((r) => r.sentence)))];
  return { state: stop === "breach" || stop === "rolled_back" ? ("aborted" as const) : ("sealed" as const), fresh: stale.length === 0, staleBecause };
}

/** What a re-run carries over: the sealed canary stage's digest while its evidence is fresh, and the sentence saying so (or why not). */
export function rerunCarry(chain: readonly SealedLink[], at: RerunAt): { carriesCanaryStage?: string; sentence: string } {
  const receipt = receiptView(chain);
  const stage = canaryStageFacts(receipt, at);
  const decision = decideRerun({
    candidate: { id: "", digest: "", resourceId: "", parentDigest: "" },
    excluded: [],
    history: receipt.stage3 ? [{ kind: "gate-run", at: receipt.stage3.computedAt }] : [],
    gate: null,
    gateRunning: false,
    canaryStage: stage,
    pointers: { canary: null, approvedDefault: null },
    approvedDefaults: [],
    rolledBackFrom: [],
    supersededBy: null,
  });
  if (!decision.allowed) return { sentence: decision.reason };
  return decision.keepsDefaultStep ? { carriesCanaryStage: receipt.canaryStageDigest, sentence: decision.sentence } : { sentence: decision.sentence };
}

/** The re-run's stage 3 over the latest one's evidence (tests and the reference world), judged with the versions in force at the re-run. */
export function rerunStage3(chain: readonly SealedLink[], at: RerunAt & { computedAt: string }): Stage3 {
  const { stage3 } = receiptView(chain);
  if (!stage3) throw new Error("a re-run follows a gate run");
  const { carriesCanaryStage: _old, ...rest } = stage3;
  const { carriesCanaryStage } = rerunCarry(chain, at);
  return { ...rest, computedAt: at.computedAt, versions: at.versions, ...(carriesCanaryStage ? { carriesCanaryStage } : {}) };
}
