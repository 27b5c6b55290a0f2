// Plain promotion-machine facts for unit tests: a candidate X of parent P, judged once, READY FOR APPROVAL at the
// canary step, both pointers on the parent. Each test overrides what it is about.
import type { PromotionFacts } from "@/server/promotion/facts";

export function promotionFactsFixture(x: string, p: string, over: Partial<PromotionFacts> = {}): PromotionFacts {
  return {
    candidate: { id: "cand_1", digest: x, resourceId: "prompt@2", parentDigest: p },
    excluded: [],
    history: [{ kind: "gate-run", at: "t1" }],
    gate: { verdict: "READY FOR APPROVAL", step: "canary", open: [] },
    gateRunning: false,
    canaryStage: null,
    pointers: { canary: p, approvedDefault: p },
    approvedDefaults: [p],
    rolledBackFrom: [],
    supersededBy: null,
    ...over,
  };
}
