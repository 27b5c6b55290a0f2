// The policy owner's setting "judge new versions of resources R for agent A" (issue 26): on or off, audited.
// Turning it on records the resources id's head version, so only versions published afterwards are judged;
// turning it off closes the versions still waiting (they will not be judged, and the page says so). The caller
// has checked `policy:write` for the agent (server/routers/agents/set-auto-judge.ts).
import { AUDIT_LOCK, appendAudit, type AuditActor } from "@/server/audit/audit-log";
import { makeActor } from "@/server/auth/actor";
import type { Database, Db } from "@/server/db/client";
import { recordedChecks } from "@/server/gate-api/gate-runs";
import { moveVersions } from "./lifecycle";

/** Who declares, binds and asks for the gate run of a version Lightgate judges on its own. */
export const AUTO_JUDGE_ACTOR = makeActor("service", "lightgate-auto-judge", "Lightgate (judges every new version)", []);

export const autoJudgeLock = (agent: string, resourcesId: string) => `auto-judge:${agent}:${resourcesId}`;

export type AutoJudgeSettingInput = { agent: string; resourcesId: string; enabled: boolean };

export async function setAutoJudge(database: Database, actor: AuditActor, input: AutoJudgeSettingInput) {
  const { agent, resourcesId, enabled } = input;
  return database.transaction(
    async (tx) => {
      const key = { agent_resourcesId: { agent, resourcesId } };
      const before = await tx.autoJudgeSetting.findUnique({ where: key });
      const head = await tx.storeResources.findUnique({ where: { resourcesId }, select: { version: true } });
      // Already on: the versions since it was turned on stay the ones to judge.
      const sinceVersion = enabled && !before?.enabled ? (head?.version ?? 0) : (before?.sinceVersion ?? head?.version ?? 0);
      const now = new Date();
      // Off closes the standing receipt's window too (it is never bound); on again declares a new one.
      const data = { enabled, sinceVersion, changedById: actor.id, changedAt: now, ...(enabled ? {} : { standingReceiptId: null, standingBasis: null, standingCheckedAt: null }) };
      const row = await tx.autoJudgeSetting.upsert({ where: key, create: { agent, resourcesId, ...data }, update: data });
      const closed = enabled ? 0 : await moveVersions(tx, { agent, resourcesId }, "all", "close", { reason: `not judged: ${actor.name} turned judging off before its turn`, now });
      await appendAudit(tx, {
        actor,
        action: enabled ? "auto_judge.enable" : "auto_judge.disable",
        target: { type: "agent", id: agent },
        before: before && { resourcesId, enabled: before.enabled, sinceVersion: before.sinceVersion },
        after: { resourcesId, enabled, sinceVersion, closedWaiting: closed },
      });
      return { agent: row.agent, resourcesId: row.resourcesId, enabled: row.enabled, sinceVersion: row.sinceVersion, changedAt: row.changedAt };
    },
    { locks: [AUDIT_LOCK, autoJudgeLock(agent, resourcesId)] },
  );
}

export type AutoJudgeView = {
  agent: string;
  settings: {
    resourcesId: string;
    enabled: boolean;
    sinceVersion: number;
    changedBy: string;
    changedAt: Date;
    /** The next version's receipt, declared ahead of it: its training window opened then (standing.ts). */
    standing: { receiptId: string; declaredAt: Date } | null;
    versions: { version: number; digest: string; state: string; reason: string | null; coalescedInto: number | null; parent: string | null; candidateId: string | null; receiptId: string | null; gateRunId: string | null; gateRunStatus: string | null; verdict: string | null; seenAt: Date }[];
  }[];
};

/** The agent's settings, each with its newest judged versions (at most `limit`) and how each ended. */
export async function autoJudgeView(db: Db, agent: string, limit = 20): Promise<AutoJudgeView> {
  const settings = await db.autoJudgeSetting.findMany({ where: { agent }, orderBy: { resourcesId: "asc" }, take: 50 });
  const people = await db.user.findMany({ where: { id: { in: settings.map((s) => s.changedById) } }, select: { id: true, name: true } });
  const nameOf = new Map(people.map((p) => [p.id, p.name]));
  const out: AutoJudgeView["settings"] = [];
  for (const s of settings) {
    const rows = await db.autoJudgeVersion.findMany({ where: { agent, resourcesId: s.resourcesId }, orderBy: { version: "desc" }, take: limit });
    const runs = await db.gateRun.findMany({ where: { id: { in: rows.flatMap((r) => (r.gateRunId ? [r.gateRunId] : [])) } }, select: { id: true, status: true, candidateId: true, linkDigest: true } });
    const runStatus = new Map(runs.map((r) => [r.id, r.status]));
    // The verdict each judged version's run recorded against the link it sealed (as GET /v1/gate/gate-runs/{id} reads it).
    const verdicts = new Map<string, string | null>();
    for (const r of runs) verdicts.set(r.id, (await recordedChecks(db, r.candidateId, r.linkDigest)).verdict);
    const standing = s.standingReceiptId ? await db.receiptDeclaration.findUnique({ where: { id: s.standingReceiptId }, select: { id: true, declaredAt: true } }) : null;
    out.push({
      resourcesId: s.resourcesId,
      enabled: s.enabled,
      sinceVersion: s.sinceVersion,
      changedBy: nameOf.get(s.changedById) ?? s.changedById,
      changedAt: s.changedAt,
      standing: standing && { receiptId: standing.id, declaredAt: standing.declaredAt },
      versions: rows.map((r) => ({
        version: r.version,
        digest: r.digest,
        state: r.state,
        reason: r.reason,
        coalescedInto: r.coalescedInto,
        parent: r.parentResourcesId === null ? null : `${r.parentResourcesId} v${r.parentVersion}`,
        candidateId: r.candidateId,
        receiptId: r.receiptId,
        gateRunId: r.gateRunId,
        gateRunStatus: r.gateRunId ? (runStatus.get(r.gateRunId) ?? null) : null,
        verdict: r.gateRunId ? (verdicts.get(r.gateRunId) ?? null) : null,
        seenAt: r.seenAt,
      })),
    });
  }
  return { agent, settings: out };
}
