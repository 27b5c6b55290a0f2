// The receipt declared ahead of the next version. A declared receipt admits the training rollouts started between
// its declaration and its bind (server/receipts/rollups.ts), and the rollouts that trained version N+1 ran while
// version N was the newest. Declared only when N+1 appears, its window would be empty; so once a version is claimed
// (or the setting is on and the agent can be judged) Lightgate declares the next one's receipt at once, and binds
// it when the next version is claimed — while what it pinned (parent, exam, evaluator, boundary, scope) is still
// what a declaration made then would pin. Otherwise it is never bound and a fresh declaration is made at the claim.
import type { Database } from "@/server/db/client";
import { canonicalJson } from "@/server/digest";
import { DomainError } from "@/server/errors";
import { declareReceipt } from "@/server/gate-api/declare";
import { readDeclaration } from "@/server/receipts/declarations";
import { basisFor, declarationBody, type Basis, type JudgedVersion, type Parent } from "./declaration";
import { AUTO_JUDGE_ACTOR } from "./settings";

/** An agent that cannot be judged yet (no exam, no parent) is asked again after this, not on every pass. */
const RETRY_MS = 30_000;
/** How long one process's declaring holds off the others. */
const LEASE_MS = 10_000;

export type StandingSetting = { agent: string; resourcesId: string; standingReceiptId: string | null; standingCheckedAt: Date | null };

/** Declares the next version's receipt unless one stands; `now` forces a try (a version was just claimed). */
export async function ensureStanding(database: Database, s: StandingSetting, opts: { now?: boolean } = {}): Promise<string | null> {
  if (s.standingReceiptId) return s.standingReceiptId;
  const checked = new Date();
  if (!opts.now && s.standingCheckedAt && checked.getTime() - s.standingCheckedAt.getTime() < RETRY_MS) return null;
  // A lease by compare-and-set: of several processes (or passes) only one declares; a claim's own try (`now`) waits
  // only for a lease taken in the last seconds, since taking the standing receipt frees it.
  const lapse = new Date(checked.getTime() - (opts.now ? LEASE_MS : RETRY_MS));
  const leased = await database.db.autoJudgeSetting.updateMany({
    where: { agent: s.agent, resourcesId: s.resourcesId, enabled: true, standingReceiptId: null, OR: [{ standingCheckedAt: null }, { standingCheckedAt: { lt: lapse } }] },
    data: { standingCheckedAt: checked },
  });
  if (leased.count !== 1) return null;
  const declared = await declareUnderLease(database, s);
  // Nothing declarable yet: hand the lease back at once (kept, it would make a version claimed in the next seconds
  // skip its own try, and its successor's receipt would open its window only at the next 30-second check).
  if (!declared) await database.db.autoJudgeSetting.updateMany({ where: { agent: s.agent, resourcesId: s.resourcesId, standingCheckedAt: checked }, data: { standingCheckedAt: new Date(checked.getTime() - LEASE_MS - 1) } });
  return declared;
}

async function declareUnderLease(database: Database, s: StandingSetting): Promise<string | null> {
  const head = await database.db.storeResourcesVersion.findFirst({ where: { resourcesId: s.resourcesId }, orderBy: { version: "desc" }, select: { version: true, digest: true } });
  const based = await basisFor(database.db, s.agent, s.resourcesId, head ? { resourcesId: s.resourcesId, version: head.version } : null);
  if ("cannot" in based) return null;
  const revision = head?.digest ?? (await database.db.storeResourcesVersion.findUnique({ where: { resourcesId_version: { resourcesId: based.parent.resourcesId, version: based.parent.version } }, select: { digest: true } }))?.digest;
  if (!revision) return null;
  const declarable = declarationBody(based, { resources_id: s.resourcesId, continues_from_version: head?.version ?? 0 }, revision);
  if ("cannot" in declarable) return null;
  let receiptId: string;
  try {
    receiptId = (await declareReceipt(database, AUTO_JUDGE_ACTOR, declarable.body)).receiptId;
  } catch (e) {
    if (e instanceof DomainError) return null; // what a claim-time declaration would refuse too, and record there
    throw e;
  }
  // Under the lease no other declaration is recorded (one that outlived it would stand, and this one never be bound).
  const set = await database.db.autoJudgeSetting.updateMany({ where: { agent: s.agent, resourcesId: s.resourcesId, enabled: true, standingReceiptId: null }, data: { standingReceiptId: receiptId, standingBasis: canonicalJson(based.basis) } });
  return set.count === 1 ? receiptId : null;
}

/**
 * Takes the standing receipt for the claimed version `v`: its id and parent while it still fits, else null. Taken
 * either way (compare-and-set, so two claimers never bind one receipt); an unfit one is left unbound.
 */
export async function takeStanding(database: Database, v: JudgedVersion): Promise<{ receiptId: string; parent: Parent } | null> {
  const s = await database.db.autoJudgeSetting.findUnique({ where: { agent_resourcesId: { agent: v.agent, resourcesId: v.resourcesId } }, select: { standingReceiptId: true, standingBasis: true } });
  if (!s?.standingReceiptId || !s.standingBasis) return null;
  const taken = await database.db.autoJudgeSetting.updateMany({ where: { agent: v.agent, resourcesId: v.resourcesId, standingReceiptId: s.standingReceiptId }, data: { standingReceiptId: null, standingBasis: null, standingCheckedAt: null } });
  if (taken.count !== 1) return null;
  const standing = JSON.parse(s.standingBasis) as Basis;
  const parent = { resourcesId: standing.parent.resources_id, version: standing.parent.version };
  // A version that appeared while the standing receipt was being declared may be its own parent: not this one.
  if (parent.resourcesId === v.resourcesId && parent.version >= v.version) return null;
  const fresh = await basisFor(database.db, v.agent, v.resourcesId, parent);
  if ("cannot" in fresh || canonicalJson(fresh.basis) !== s.standingBasis) return null;
  const declaration = await readDeclaration(database.db, s.standingReceiptId);
  if (!declaration || declaration.candidateId) return null;
  return { receiptId: s.standingReceiptId, parent: fresh.parent };
}
