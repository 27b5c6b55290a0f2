// What the dashboard reads about candidates: a list with each one's verdict at a glance, and one candidate
// beside its exact parent. Everything said about a candidate comes out of `gateReport`.
import { candidateStatus, openChecks, type CandidateStatus } from "@/lib/candidates/status";
import { servingInResources, type ServingView } from "@/lib/policies/serving";
import { displayNames, nameOf } from "@/server/auth/display-names";
import type { Database } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { readPointer } from "@/server/candidates/pointers";
import type { CheckStatus } from "@/server/gate/checks/types";
import type { Verdict } from "@/server/gate/verdict";
import type { GateReport } from "@/server/gate/gate";
import type { GatePolicy } from "@/server/gate/policy";
import type { Approval } from "@/server/gate/receipt/approval";
import type { ChainVerification } from "@/server/gate/receipt/seal";
import type { Stage1 } from "@/server/gate/receipt/stage1";
import type { Stage2 } from "@/server/gate/receipt/stage2";
import type { CanaryStage, Stage3 } from "@/server/gate/receipt/stage3";
import type { VersionSet } from "@/server/gate/versions";
import type { GateEvidence } from "@/server/gate/evidence/derive";
import type { Resolution } from "@/server/gate/receipt/stage3";
import type { EvaluatorRef } from "@/server/gate/receipt/refs";
import { candidateLabel } from "./candidate-names";
import { freshUntil, type FreshUntil } from "./fresh-until";
import { lockedGateServing, type LockedGateServing } from "./gate-serving";
import { gateReport, type CandidateRow, type StoredGateReport } from "./report";
import { promotionFacts, type PromotionInput } from "./promotion-facts";
import type { PromotionFacts } from "@/server/promotion/facts";
import { promotionState, type PromotionState, type PromotionStateName } from "@/server/promotion/state";
import type { Timeline } from "@/server/promotion/timeline";
import { promotionTimeline } from "./promotion-timeline";

const promotionInput = (s: StoredGateReport): PromotionInput => ({
  candidate: { id: s.candidate.id, agent: s.candidate.agent, digest: s.candidate.digest, resourcesId: s.candidate.resourcesId, parent: { digest: s.candidate.parentDigest } },
  chain: s.chain,
  excluded: s.decisions.excluded,
  currentVersions: s.versions,
  policy: s.policy,
  lateEvidence: s.lateEvidence,
});

export type CandidateSummary = {
  id: string;
  /** "<agent> · <resources> v<n>" — the name people read everywhere. */
  title: string;
  /** "reference A"…"reference D" for the spec's four reference candidates, else null. */
  label: string | null;
  agent: string;
  resourcesId: string;
  version: number;
  digest: string;
  parent: { resourcesId: string; version: number; digest: string };
  algorithm: string;
  trainingRunId: string | null;
  createdAt: Date;
  /** Null when the receipt has no stages yet or fails verification. */
  verdict: Verdict | null;
  /** The verdict as people read it: STALE when only stale evidence stands in the way (lib/candidates/status). */
  status: CandidateStatus | null;
  sentence: string;
  /** The promotion machine's state (server/promotion): what the list, the inbox and the page all read. */
  promotion: { state: PromotionStateName; label: string; next: string } | null;
  scoreGain: number | null;
  checks: { id: number; title: string; status: CheckStatus }[];
  fresh: boolean;
  receiptIntact: boolean;
  head: string | null;
};

export function summarize(stored: StoredGateReport): CandidateSummary {
  const { candidate: c, report } = stored;
  const sentence = report?.sentence ?? (stored.verification.ok ? "No receipt stages sealed yet: nothing to judge." : "The receipt fails verification: it is not judged.");
  return {
    id: c.id,
    ...candidateLabel(c),
    agent: c.agent,
    resourcesId: c.resourcesId,
    version: c.version,
    digest: c.digest,
    parent: { resourcesId: c.parentResourcesId, version: c.parentVersion, digest: c.parentDigest },
    algorithm: c.algorithm,
    trainingRunId: c.trainingRunId,
    createdAt: c.createdAt,
    verdict: report?.verdict ?? null,
    status: report ? candidateStatus(report.verdict, openChecks(report)) : null,
    sentence,
    promotion: null,
    scoreGain: report?.scoreGain ?? null,
    checks: report?.checks.map((k) => ({ id: k.id, title: k.title, status: k.status })) ?? [],
    fresh: report?.freshness.fresh ?? false,
    receiptIntact: stored.verification.ok,
    head: stored.head,
  };
}

/** The summary with the promotion machine's reading of the candidate (a rolled-back candidate reads ROLLED BACK, never its former step). */
export async function summarizeWithPromotion(database: Database, stored: StoredGateReport, now: Date): Promise<CandidateSummary & { machine: PromotionState | null; facts: PromotionFacts | null }> {
  const summary = summarize(stored);
  const { receipt, report } = stored;
  if (!receipt || !report) return { ...summary, machine: null, facts: null };
  const facts = await promotionFacts(database.db, promotionInput(stored), receipt, report, now);
  const machine = promotionState(facts);
  return { ...summary, status: candidateStatus(report.verdict, openChecks(report), machine), promotion: { state: machine.name, label: machine.label, next: machine.next }, machine, facts };
}

export async function listCandidates(database: Database, filter: { agent?: string; now?: Date } = {}): Promise<CandidateSummary[]> {
  const now = filter.now ?? new Date();
  const rows = await database.db.candidate.findMany({ where: { agent: filter.agent }, orderBy: [{ createdAt: "desc" }, { id: "asc" }], select: { id: true } });
  const out: CandidateSummary[] = [];
  for (const { id } of rows) {
    const { machine: _machine, facts: _facts, ...summary } = await summarizeWithPromotion(database, await gateReport(database, id, now), now);
    out.push(summary);
  }
  return out;
}

export async function listAgents(database: Database): Promise<string[]> {
  const rows = await database.db.candidate.findMany({ distinct: ["agent"], select: { agent: true }, orderBy: { agent: "asc" } });
  return rows.map((r) => r.agent);
}

export type CandidateDetail = {
  summary: CandidateSummary;
  /** The promotion state machine's state for this candidate (server/promotion), null before a judged receipt. */
  promotion: { state: PromotionStateName; label: string; step: "canary" | "default" | null; cycle: number; next: string } | null;
  report: GateReport | null;
  verification: ChainVerification;
  versions: VersionSet;
  policy: GatePolicy;
  /** The sealed stages the page shows; stage 2 without its per-rollout rollups (the report carries what they say). */
  stage1: Stage1 | null;
  stage2: (Omit<Stage2, "rollouts"> & { rolloutCount: number }) | null;
  stage3: Stage3 | null;
  canaryStage: CanaryStage | null;
  /** How the locked gate's cases were scored and which identities served them (null before stage 1). */
  lockedGateServing: LockedGateServing | null;
  /** The decisions sealed on this receipt, with the decider's name. */
  approvals: (Approval & { actorName: string })[];
  /** Until when the evidence holds on age alone, and which check's limit decides it. */
  freshUntil: FreshUntil | null;
  links: { index: number; kind: string; digest: string; prevDigest: string | null; sealedAt: string }[];
  /**
   * The exact parent: whether it is the approved default now, what it resolved to when the gate ran, and —
   * when it is a candidate too — its own summary and training evidence, shown beside the candidate's.
   */
  parent: {
    title: string;
    resourcesId: string;
    version: number;
    digest: string;
    isApprovedDefault: boolean;
    resolution: Resolution | null;
    candidate: CandidateSummary | null;
    evidence: Pick<GateEvidence, "rewards" | "coverage" | "retryDebt"> | null;
  };
  pointers: { latestCandidate: string | null; approvedDefault: string | null };
  /** Which gate run sealed the current stage 3 (its number among this candidate's runs) and the evaluator it judged with. */
  judgedBy: JudgedBy | null;
  /** How each side acts as published (a policy's `serving`; null: not a policy, or its version is gone). */
  serving: { candidate: ServingView | null; parent: ServingView | null };
  /** The promotion step by step, cycle by cycle; its current step is the machine's state (null before a judged receipt). */
  timeline: Timeline | null;
};

export type JudgedBy = { runId: string | null; ordinal: number | null; evaluator: EvaluatorRef | null; at: string };

/** The run behind the current stage 3, from what the link records (`producedBy`); imported evidence names none. */
async function judgedByOf(database: Database, candidateId: string, stage3: Stage3 | undefined): Promise<JudgedBy | null> {
  if (!stage3) return null;
  const evaluator = stage3.producedBy?.evaluator ?? stage3.lockedGate?.evaluator ?? null;
  const runId = stage3.producedBy?.gateRun ?? null;
  const run = runId ? await database.db.gateRun.findUnique({ where: { id: runId }, select: { requestedAt: true } }) : null;
  const ordinal = run ? await database.db.gateRun.count({ where: { candidateId, kind: "admission", requestedAt: { lte: run.requestedAt } } }) : null;
  return { runId, ordinal, evaluator, at: stage3.computedAt };
}

const withNames = (sentence: string, names: ReadonlyMap<string, string>) => [...names].reduce((s, [id, name]) => s.split(id).join(name), sentence);

/** The serving mode recorded in one exact resources version — what the gate's runners act on. */
async function servingAt(database: Database, resourcesId: string, version: number): Promise<ServingView | null> {
  const row = await database.db.storeResourcesVersion.findUnique({ where: { resourcesId_version: { resourcesId, version } }, select: { resources: true } });
  if (!row) return null;
  try {
    return servingInResources(JSON.parse(row.resources));
  } catch {
    return null;
  }
}

const parentCandidate = (database: Database, c: CandidateRow) =>
  database.db.candidate.findUnique({ where: { resourcesId_version: { resourcesId: c.parentResourcesId, version: c.parentVersion } } });

export async function getCandidate(database: Database, id: string, now: Date = new Date()): Promise<CandidateDetail> {
  const stored = await gateReport(database, id, now);
  const { candidate: c, receipt } = stored;
  const stage2 = receipt?.stage2;
  const stage3Link = stored.chain.filter((l) => l.kind === "stage3").at(-1);
  const [parentRow, latest, approved, serving, candidateActs, parentActs] = await Promise.all([
    parentCandidate(database, c),
    readPointer(database.db, c.agent, "latest_candidate"),
    readPointer(database.db, c.agent, "approved_default"),
    receipt?.stage1 ? lockedGateServing(database, c.id, receipt.stage1, stage3Link?.digest ?? null, receipt.stage3?.producedBy?.evaluator ?? null) : null,
    servingAt(database, c.resourcesId, c.version),
    servingAt(database, c.parentResourcesId, c.parentVersion),
  ]);
  if (parentRow && parentRow.digest !== c.parentDigest) throw new DomainError("CONFLICT", `parent ${c.parentResourcesId} v${c.parentVersion} is recorded with another digest`, "parent");
  const parentStored = parentRow ? await gateReport(database, parentRow.id, now) : null;
  const parentEvidence = parentStored?.report?.evidence;
  const approvals = receipt?.approvals ?? [];
  const names = await displayNames(database.db, approvals.map((a) => a.actor.id));
  // People by name: check 7's sentence names its approver by id (the gate core knows no names).
  const report = stored.report && { ...stored.report, checks: stored.report.checks.map((k) => (k.id === 7 ? { ...k, explanation: withNames(k.explanation, names) } : k)) };
  const { machine: promotion, facts, ...summary } = await summarizeWithPromotion(database, stored, now);
  return {
    summary,
    promotion: promotion && { state: promotion.name, label: promotion.label, step: promotion.step, cycle: promotion.cycle, next: promotion.next },
    report,
    verification: stored.verification,
    versions: stored.versions,
    policy: stored.policy,
    stage1: receipt?.stage1 ?? null,
    stage2: stage2 ? { windows: stage2.windows, dataCutoff: stage2.dataCutoff, versions: stage2.versions, candidate: stage2.candidate, rolloutCount: stage2.rollouts.length } : null,
    stage3: receipt?.stage3 ?? null,
    canaryStage: receipt?.canaryStage ?? null,
    lockedGateServing: serving,
    approvals: approvals.map((a) => ({ ...a, actorName: nameOf(names, a.actor.id) })),
    freshUntil: receipt ? freshUntil(receipt, stored.policy) : null,
    links: stored.chain.map((l) => ({ index: l.index, kind: l.kind, digest: l.digest, prevDigest: l.prevDigest, sealedAt: l.sealedAt })),
    parent: {
      title: candidateLabel({ agent: c.agent, resourcesId: c.parentResourcesId, version: c.parentVersion }).title,
      resourcesId: c.parentResourcesId,
      version: c.parentVersion,
      digest: c.parentDigest,
      isApprovedDefault: approved?.digest === c.parentDigest,
      resolution: receipt?.stage3?.resolution.parent ?? null,
      candidate: parentStored ? summarize(parentStored) : null,
      evidence: parentEvidence ? { rewards: parentEvidence.rewards, coverage: parentEvidence.coverage, retryDebt: parentEvidence.retryDebt } : null,
    },
    pointers: { latestCandidate: latest?.digest ?? null, approvedDefault: approved?.digest ?? null },
    judgedBy: await judgedByOf(database, c.id, receipt?.stage3),
    serving: { candidate: candidateActs, parent: parentActs },
    timeline: facts && promotion ? await promotionTimeline(database.db, { candidate: c, chain: stored.chain, facts, state: promotion }) : null,
  };
}

/** The candidates page: every agent that has candidates, and the (filtered) candidates judged now. */
export async function listCandidatePage(database: Database, filter: { agent?: string }) {
  const [agents, candidates] = await Promise.all([listAgents(database), listCandidates(database, filter)]);
  return { agents, candidates };
}
