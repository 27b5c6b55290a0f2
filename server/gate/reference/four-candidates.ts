// The four-candidate reference, judged: raw evidence → rollups → sealed stages → the gate. Every candidate
// carries the same recorded canary approval, so the candidates differ only in the operational evidence the
// spec's table names — and an approval is shown never to override a failing check.
import type { CheckStatus } from "../checks/types";
import { rollupRollout, type StoreAttempt, type StoreSpan } from "../evidence/spans";
import { evaluateGate, type GateReport } from "../gate";
import { approvalTarget, sealStage, type SealedLink } from "../receipt/seal";
import type { Stage2 } from "../receipt/stage2";
import { receiptView } from "../receipt/view";
import { CANARY_APPROVER, PARENT, POLICY, T0, VERSIONS, iso } from "./common";
import { rawCandidate, REFERENCE_SPECS, type RawCandidate, type ReferenceName } from "./raw-evidence";

export const REFERENCE_ORDER: readonly ReferenceName[] = ["C", "B", "D", "A"];
export const REFERENCE_NOW = new Date((T0 + 9 * 3600) * 1000);

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

/** Seals stage 1, stage 2 (from rollups of the raw store evidence), stage 3 and, optionally, the approval. */
export function sealReference(raw: RawCandidate, opts: { approve: boolean }): SealedLink[] {
  const chain: SealedLink[] = [];
  chain.push(sealStage(chain, "stage1", raw.stage1, iso(T0)));
  chain.push(sealStage(chain, "stage2", stage2From(raw), iso(T0 + 5 * 3600)));
  const { resolution, lockedGate, canary, rollbackTest } = raw;
  const stage3 = { resolution, lockedGate, canary, rollbackTest, computedAt: iso(T0 + 7 * 3600), versions: VERSIONS };
  chain.push(sealStage(chain, "stage3", stage3, iso(T0 + 7 * 3600)));
  if (opts.approve) {
    const at = iso(T0 + 8 * 3600);
    const approves = approvalTarget(chain, "canary")!;
    const approval = { step: "canary" as const, decision: "approve" as const, actor: CANARY_APPROVER, approves, at, comment: "Canary boundary and rollback reviewed." };
    chain.push(sealStage(chain, "approval", approval, at));
  }
  return chain;
}

export type ReferenceResult = { name: ReferenceName; raw: RawCandidate; chain: SealedLink[]; report: GateReport };

export function runReference(opts: { withoutApproval?: readonly ReferenceName[] } = {}): ReferenceResult[] {
  return REFERENCE_ORDER.map((name) => {
    const raw = rawCandidate(REFERENCE_SPECS[name]);
    const chain = sealReference(raw, { approve: !opts.withoutApproval?.includes(name) });
    const report = evaluateGate({ receipt: receiptView(chain), policy: POLICY, currentVersions: VERSIONS, now: REFERENCE_NOW });
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
    };
  }[];
};

/** The machine-readable output the issue names (`npm run gate:reference` prints it once store-backed). */
export function referenceSummary(results: readonly ReferenceResult[]): ReferenceSummary {
  return {
    candidates: results.map(({ name, report, raw }) => {
      const e = report.evidence;
      const c7 = report.checks[6]!.evidence as { decision?: { actor: string } | null };
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
        },
      };
    }),
  };
}
