// The four-candidate reference, judged: raw evidence → rollups → sealed stages → the gate. The candidates
// differ only in the operational evidence the spec's table names. An approval counts only as a verified signed
// decision by a real person (check 7), which the pure fixture has none of: here A stops at READY FOR APPROVAL;
// the database fixture (server/reference/reference-demo.ts) seeds a person, a passkey and A's signed approval.
import type { CheckStatus } from "../checks/types";
import { rollupRollout, type StoreAttempt, type StoreSpan } from "../evidence/spans";
import { evaluateGate, type GateReport } from "../gate";
import { approvalTarget, sealStage, type SealedLink } from "../receipt/seal";
import type { Stage2 } from "../receipt/stage2";
import type { ActorRef } from "../receipt/refs";
import { NO_SIGNED_DECISIONS } from "../receipt/signed-decisions";
import { receiptView } from "../receipt/view";
import { PARENT, POLICY, T0, VERSIONS, iso } from "./common";
import { rawCandidate, REFERENCE_SPECS, type RawCandidate, type ReferenceName } from "./raw-evidence";

export const REFERENCE_ORDER: readonly ReferenceName[] = ["C", "B", "D", "A"];
export const REFERENCE_NOW = new Date((T0 + 9 * 3600) * 1000);
export const REFERENCE_APPROVAL_COMMENT = "Canary boundary and rollback reviewed.";

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

export function stage2From(raw: RawCandidate): Stage2 {
  const attempts = groupBy<StoreAttempt>(raw.store.attempts, (a) => a.rollout_id);
  const spans = groupBy<StoreSpan>(raw.store.spans, (s) => s.rollout_id);
  return {
    windows: { training: { from: iso(T0 + 3600), to: iso(T0 + 5 * 3600) }, validation: { from: iso(T0 + 3600), to: iso(T0 + 5 * 3600) } },
    dataCutoff: iso(T0 + 5 * 3600),
    rollouts: raw.store.rollouts.map((r) => rollupRollout(r, attempts.get(r.rollout_id) ?? [], spans.get(r.rollout_id) ?? [])),
    versions: VERSIONS,
  };
}

/**
 * Seals stage 1, stage 2 (from rollups of the raw store evidence), stage 3 and, given `approvedBy`, an approval
 * link in that actor's name — which check 7 counts only with a verified signed decision behind it.
 */
export function sealReference(raw: RawCandidate, opts: { approvedBy?: ActorRef } = {}): SealedLink[] {
  const chain: SealedLink[] = [];
  chain.push(sealStage(chain, "stage1", raw.stage1, iso(T0)));
  chain.push(sealStage(chain, "stage2", stage2From(raw), iso(T0 + 5 * 3600)));
  const { resolution, lockedGate, canary, rollbackTest } = raw;
  const stage3 = { resolution, lockedGate, canary, rollbackTest, computedAt: iso(T0 + 7 * 3600), versions: VERSIONS };
  chain.push(sealStage(chain, "stage3", stage3, iso(T0 + 7 * 3600)));
  if (opts.approvedBy) {
    const at = iso(T0 + 8 * 3600);
    const approves = approvalTarget(chain, "canary")!;
    const approval = { step: "canary" as const, decision: "approve" as const, actor: opts.approvedBy, approves, at, comment: REFERENCE_APPROVAL_COMMENT };
    chain.push(sealStage(chain, "approval", approval, at));
  }
  return chain;
}

export type ReferenceResult = { name: ReferenceName; raw: RawCandidate; chain: SealedLink[]; report: GateReport };

/** The four candidates as sealed, before anyone decided: A waits for a signed approval. */
export function runReference(): ReferenceResult[] {
  return REFERENCE_ORDER.map((name) => {
    const raw = rawCandidate(REFERENCE_SPECS[name]);
    const chain = sealReference(raw);
    const report = evaluateGate({ receipt: receiptView(chain), policy: POLICY, currentVersions: VERSIONS, now: REFERENCE_NOW, decisions: NO_SIGNED_DECISIONS });
    return { name, raw, chain, report };
  });
}

export type ReferenceSummary = {
  candidates: {
    name: ReferenceName;
    parent: string;
    scoreGain: number | null;
    verdict: GateReport["verdict"];
    checks: Record<"1" | "2" | "3" | "4" | "5" | "6" | "7", CheckStatus>;
    evidence: {
      fullyCoveredRollouts: number;
      succeededRollouts: number;
      unexpectedRetries: number;
      protectedRegressions: number;
      canaryVerified: number;
      canaryTasks: number;
      parentResolvable: boolean;
      rollbackTested: boolean;
      approvedBy: string | null;
      /** Who signed that approval and how, from the signed payload (null without a counted approval). */
      signedBy: { name: string; signature: string } | null;
    };
  }[];
};

/** The machine-readable output the issue names (`npm run gate:reference` prints it once store-backed). */
export function referenceSummary(results: readonly ReferenceResult[]): ReferenceSummary {
  return {
    candidates: results.map(({ name, report, raw }) => {
      const e = report.evidence;
      const c7 = report.checks[6]!.evidence as { decision?: { actor: string; signedBy: { name: string }; signature: string } | null };
      return {
        name,
        parent: PARENT.resourceId,
        scoreGain: e.comparison.gain === null ? null : Math.round(e.comparison.gain * 1e6) / 1e6,
        verdict: report.verdict,
        checks: Object.fromEntries(report.checks.map((c) => [String(c.id), c.status])) as ReferenceSummary["candidates"][number]["checks"],
        evidence: {
          fullyCoveredRollouts: e.coverage.fullyCovered,
          succeededRollouts: e.coverage.considered,
          unexpectedRetries: e.retryDebt.unexpectedRetries,
          protectedRegressions: e.protectedCases.totalRegressions,
          canaryVerified: e.canary.verified,
          canaryTasks: e.canary.tasks,
          parentResolvable: raw.resolution.parent?.status === "resolved",
          rollbackTested: raw.rollbackTest.loaded && raw.rollbackTest.routedBack,
          approvedBy: c7.decision?.actor ?? null,
          signedBy: c7.decision ? { name: c7.decision.signedBy.name, signature: c7.decision.signature } : null,
        },
      };
    }),
  };
}
