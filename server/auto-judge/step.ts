// Judging every new version in the background (issue 26): never in the request path of the store write, so a
// slow gate never slows `update_resources`. One pass (`judgeNewVersions`), per enabled setting:
//   1. records every version published under the resources id since the setting was turned on (`waiting`);
//   2. while the version being judged has its gate run open, nothing else starts (at most one per agent +
//      resources id); when the run ended, the version is `judged`;
//   3. with none open, the newest waiting version is claimed (`judging`) and those between are `coalesced` into it;
//   4. the claimed version is bound to the receipt declared ahead of it (standing.ts: its window holds the training
//      rollouts since the previous version) or, when none fits, to one declared now, and its gate run requested —
//      the gate API's own domain functions, as Lightgate (`AUTO_JUDGE_ACTOR`); what the agent lacks makes it
//      `unjudgeable` with why;
//   5. the next version's receipt is declared at once.
// Steps 1–3 run in one transaction under the setting's lock and claim with a compare-and-set, so several server
// processes on one database never judge a version twice.
import type { Database } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { bindCandidate } from "@/server/gate-api/bind";
import { declareReceipt } from "@/server/gate-api/declare";
import { requestRunForReceipt } from "@/server/gate-api/gate-runs";
import { readDeclaration } from "@/server/receipts/declarations";
import { declarationFor, type JudgedVersion, type Parent } from "./declaration";
import { moveVersions, recordSeen } from "./lifecycle";
import { ensureStanding, takeStanding } from "./standing";
import { AUTO_JUDGE_ACTOR, autoJudgeLock } from "./settings";

/** A claim whose declaration never finished (the process died between claim and gate run) is let go after this. */
const CLAIM_LAPSES_MS = 120_000;
const ENDED = new Set(["done", "failed", "cancelled"]);

export type PassOutcome = { agent: string; resourcesId: string; version: number; state: "judging" | "unjudgeable"; reason?: string; gateRunId?: string };

/** Steps 1–3 for one setting: the version to judge now, claimed, or null. */
async function claimNext(database: Database, s: { agent: string; resourcesId: string; sinceVersion: number }): Promise<JudgedVersion | null> {
  const { agent, resourcesId } = s;
  const key = { agent, resourcesId };
  return database.transaction(
    async (tx) => {
      const now = new Date();
      const seen = await tx.autoJudgeVersion.findFirst({ where: { agent, resourcesId }, orderBy: { version: "desc" }, select: { version: true } });
      const fresh = await tx.storeResourcesVersion.findMany({ where: { resourcesId, version: { gt: Math.max(s.sinceVersion, seen?.version ?? 0) } }, orderBy: { version: "asc" }, take: 1000, select: { version: true, digest: true } });
      await recordSeen(tx, key, fresh, now);

      const active = await tx.autoJudgeVersion.findFirst({ where: { agent, resourcesId, state: "judging" } });
      if (active) {
        const run = active.gateRunId ? await tx.gateRun.findUnique({ where: { id: active.gateRunId }, select: { status: true, error: true } }) : null;
        if (run && !ENDED.has(run.status)) return null;
        if (!run && now.getTime() - active.updatedAt.getTime() < CLAIM_LAPSES_MS) return null;
        const reason = run ? `gate run ${active.gateRunId} ${run.status}${run.error ? `: ${run.error.slice(0, 300)}` : ""}` : "interrupted before its gate run was requested";
        await moveVersions(tx, key, { version: active.version }, run ? "judged" : "cannotJudge", { reason, now });
      }

      const waiting = await tx.autoJudgeVersion.findMany({ where: { agent, resourcesId, state: "waiting" }, orderBy: { version: "desc" }, select: { version: true, digest: true } });
      const newest = waiting[0];
      if (!newest) return null;
      if (waiting.length > 1) await moveVersions(tx, key, { below: newest.version }, "coalesce", { coalescedInto: newest.version, reason: `coalesced into v${newest.version}`, now });
      const claimed = await moveVersions(tx, key, { version: newest.version }, "claim", { now });
      return claimed === 1 ? { agent, resourcesId, version: newest.version, digest: newest.digest } : null;
    },
    { locks: [autoJudgeLock(agent, resourcesId)] },
  );
}

/** Step 4: bind the standing receipt (or declare one now), request the gate run — the gate API's own functions — or record why not. */
async function judge(database: Database, v: JudgedVersion, deadlineSeconds: number | undefined): Promise<PassOutcome> {
  const key = { agent_resourcesId_version: { agent: v.agent, resourcesId: v.resourcesId, version: v.version } };
  const unjudgeable = async (reason: string): Promise<PassOutcome> => {
    await moveVersions(database.db, { agent: v.agent, resourcesId: v.resourcesId }, { version: v.version }, "cannotJudge", { reason, now: new Date() });
    return { ...v, state: "unjudgeable", reason };
  };
  try {
    let receiptId: string;
    let parent: Parent;
    const standing = await takeStanding(database, v);
    if (standing) ({ receiptId, parent } = standing);
    else {
      const declarable = await declarationFor(database.db, v);
      if ("cannot" in declarable) return unjudgeable(declarable.cannot);
      parent = declarable.parent;
      await database.db.autoJudgeVersion.update({ where: key, data: { parentResourcesId: parent.resourcesId, parentVersion: parent.version, updatedAt: new Date() } });
      receiptId = (await declareReceipt(database, AUTO_JUDGE_ACTOR, declarable.body)).receiptId;
    }
    const declaration = (await readDeclaration(database.db, receiptId))!;
    // The parent as the receipt pins it (by digest, resolved by declareReceipt from the store).
    await database.db.autoJudgeVersion.update({ where: key, data: { receiptId, parentResourcesId: parent.resourcesId, parentVersion: parent.version, parentDigest: declaration.declaration.parent.digest, updatedAt: new Date() } });
    const bound = await bindCandidate(database, AUTO_JUDGE_ACTOR, declaration, { resources_id: v.resourcesId, version: v.version });
    await database.db.autoJudgeVersion.update({ where: key, data: { candidateId: bound.candidateId, updatedAt: new Date() } });
    const run = await requestRunForReceipt(database, AUTO_JUDGE_ACTOR, { ...declaration, candidateId: bound.candidateId }, { deadline_seconds: deadlineSeconds });
    await database.db.autoJudgeVersion.update({ where: key, data: { gateRunId: run.gate_run_id, updatedAt: new Date() } });
    return { ...v, state: "judging", gateRunId: run.gate_run_id };
  } catch (e) {
    if (e instanceof DomainError) return unjudgeable(`cannot be judged: ${e.message}`);
    throw e;
  }
}

/** One pass over every enabled setting; what it started or found unjudgeable. */
export async function judgeNewVersions(database: Database, opts: { deadlineSeconds?: number } = {}): Promise<PassOutcome[]> {
  const settings = await database.db.autoJudgeSetting.findMany({
    where: { enabled: true },
    orderBy: [{ agent: "asc" }, { resourcesId: "asc" }],
    select: { agent: true, resourcesId: true, sinceVersion: true, standingReceiptId: true, standingCheckedAt: true },
  });
  const outcomes: PassOutcome[] = [];
  for (const s of settings) {
    const next = await claimNext(database, s);
    if (next) outcomes.push(await judge(database, next, opts.deadlineSeconds));
    // The next version's window opens now: at once after a claim (its standing receipt was just taken).
    await ensureStanding(database, next ? { ...s, standingReceiptId: null } : s, { now: next !== null });
  }
  return outcomes;
}

/** The loop the server process runs beside the gate orchestrator: a pass every `intervalMs` until the signal aborts. */
export async function autoJudgeLoop(database: Database, signal: AbortSignal, opts: { intervalMs?: number; log?: (line: string) => void } = {}) {
  while (!signal.aborted) {
    try {
      for (const o of await judgeNewVersions(database)) opts.log?.(`${o.agent} · ${o.resourcesId} v${o.version}: ${o.state === "judging" ? `gate run ${o.gateRunId} requested` : o.reason}`);
    } catch (e) {
      opts.log?.(`judging new versions: ${(e as Error).message}`);
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, opts.intervalMs ?? 1_000);
      function done() {
        clearTimeout(t);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done, { once: true });
    });
  }
}
