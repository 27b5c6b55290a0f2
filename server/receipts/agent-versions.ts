// An agent's model page, as MLflow users expect of a registered model: every candidate (newest first) with the
// verdict and gain the candidates list gives it (the same `listCandidates`, so the two never disagree), what
// trained it, who approved each step, and which pointers name it now. Beyond the list's own judgement this costs
// three queries for the whole agent (approvals, pointers, training runs) and one for names, never one per row.
import { displayNames, nameOf } from "@/server/auth/display-names";
import type { Database, Db } from "@/server/db/client";
import type { PointerKind } from "@/server/candidates/pointers";
import { listCandidates, type CandidateSummary } from "./candidates-view";

export type VersionApproval = { step: "canary" | "default"; by: string; at: Date };

/** Where a version came from: a Lightgate training run, or an algorithm that declared it through the API. */
export type VersionOrigin = { algorithm: string; run: { id: string; name: string | null } | null; declaredBy: string };

export type AgentVersion = Pick<CandidateSummary, "id" | "title" | "label" | "resourcesId" | "version" | "digest" | "parent" | "createdAt" | "status" | "promotion" | "scoreGain" | "checks"> & {
  /** Its place in the agent's registration order, 1 = the first (MLflow's version number). */
  number: number;
  origin: VersionOrigin;
  /** Signed approvals of its canary and default steps, oldest first. */
  approvals: VersionApproval[];
  /** The pointers that name it now, in the order latest candidate, canary, approved default. */
  pointers: PointerKind[];
};

export type AgentVersions = { agent: string; versions: AgentVersion[] };

const POINTER_ORDER: readonly PointerKind[] = ["latest_candidate", "canary", "approved_default"];
const isStep = (s: string | null): s is VersionApproval["step"] => s === "canary" || s === "default";

/** null when the agent has no candidate and no pointer (an unknown agent). */
export async function agentVersions(database: Database, agent: string, now: Date = new Date()): Promise<AgentVersions | null> {
  const db = database.db;
  const [summaries, rows, pointers, decisions] = await Promise.all([
    listCandidates(database, { agent, now }),
    db.candidate.findMany({ where: { agent }, select: { id: true, createdById: true, trainingRunId: true, createdAt: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    db.pointer.findMany({ where: { agent } }),
    db.approvalDecision.findMany({ where: { agent, action: "approve", candidateId: { not: null } }, select: { candidateId: true, step: true, actorName: true, at: true }, orderBy: [{ at: "asc" }, { id: "asc" }] }),
  ]);
  if (!summaries.length && !pointers.length) return null;
  const runIds = [...new Set(rows.flatMap((r) => (r.trainingRunId ? [r.trainingRunId] : [])))];
  const [runs, names] = await Promise.all([
    runIds.length ? db.trainingRun.findMany({ where: { id: { in: runIds } }, select: { id: true, name: true } }) : [],
    displayNames(db, rows.map((r) => r.createdById)),
  ]);
  const row = new Map(rows.map((r, i) => [r.id, { ...r, number: i + 1 }]));
  const run = new Map(runs.map((r) => [r.id, r]));
  const byVersion = new Map(summaries.map((s) => [`${s.resourcesId}\u0000${s.version}`, s.id]));
  // A pointer names a candidate by id, or — moved to it by version (a rollback to the exact parent) — by resources and version.
  const named = new Map<string, PointerKind[]>();
  for (const kind of POINTER_ORDER) {
    const p = pointers.find((x) => x.kind === kind);
    const id = p && (p.candidateId ?? byVersion.get(`${p.resourcesId}\u0000${p.version}`));
    if (id) named.set(id, [...(named.get(id) ?? []), kind]);
  }
  const approvals = new Map<string, VersionApproval[]>();
  for (const d of decisions) if (d.candidateId && isStep(d.step)) approvals.set(d.candidateId, [...(approvals.get(d.candidateId) ?? []), { step: d.step, by: d.actorName, at: d.at }]);
  return {
    agent,
    versions: summaries.map((s): AgentVersion => {
      const r = row.get(s.id);
      const trained = r?.trainingRunId ? (run.get(r.trainingRunId) ?? null) : null;
      return {
        id: s.id,
        title: s.title,
        label: s.label,
        resourcesId: s.resourcesId,
        version: s.version,
        digest: s.digest,
        parent: s.parent,
        createdAt: s.createdAt,
        status: s.status,
        promotion: s.promotion,
        scoreGain: s.scoreGain,
        checks: s.checks,
        number: r?.number ?? 0,
        origin: { algorithm: s.algorithm, run: trained && { id: trained.id, name: trained.name }, declaredBy: r ? nameOf(names, r.createdById) : "unknown" },
        approvals: approvals.get(s.id) ?? [],
        pointers: named.get(s.id) ?? [],
      };
    }),
  };
}

/** The agent's versions as a picker lists them, newest first: number, id and name only (no judgement), for the compare page. */
export async function versionChoices(db: Db, agent: string): Promise<{ id: string; number: number; name: string }[]> {
  const rows = await db.candidate.findMany({ where: { agent }, select: { id: true, resourcesId: true, version: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map((r, i) => ({ id: r.id, number: i + 1, name: `${r.resourcesId} v${r.version}` })).reverse();
}
