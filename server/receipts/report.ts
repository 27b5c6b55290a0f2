// The gate for one stored candidate: its verified receipt, the promotion policy and the versions in force
// from the registries, judged by the pure core. Stage 2 already holds per-rollout rollups, so this reads
// O(rollouts) of sealed JSON and never a span.
import type { Database, Db, Tx } from "@/server/db/client";
import type { Digest } from "@/server/digest";
import { DomainError } from "@/server/errors";
import { evaluateGate, type GateReport } from "@/server/gate/gate";
import type { GatePolicy } from "@/server/gate/policy";
import type { ChainVerification, SealedLink } from "@/server/gate/receipt/seal";
import { NO_SIGNED_DECISIONS, type SignedDecisions } from "@/server/gate/receipt/signed-decisions";
import type { Receipt } from "@/server/gate/receipt/view";
import type { VersionSet } from "@/server/gate/versions";
import { resourceLoad } from "@/server/candidates/loadable";
import type { ParentLoad } from "@/server/gate/parent-load";
import { signedDecisionsFor } from "./decision-signatures";
import type { LateEvidence } from "@/server/gate/freshness";
import { gateRunLateEvidenceOf, lateEvidenceOf } from "./late-evidence";
import { loadReceipt } from "./links";
import { currentPolicy } from "./registries";
import { currentVersions } from "./versions";

export type CandidateRow = Awaited<ReturnType<Db["candidate"]["findUniqueOrThrow"]>>;

export type StoredGateReport = {
  candidate: CandidateRow;
  chain: SealedLink[];
  head: Digest | null;
  verification: ChainVerification;
  receipt: Receipt | null;
  policy: GatePolicy;
  versions: VersionSet;
  /** The signed decisions behind the receipt's approval links, as check 7 reads them. */
  decisions: SignedDecisions;
  /** Rollouts that changed after the stage that judged them was sealed: stage 2's (checks 2–3), the gate runs' (the checks they fed). */
  lateEvidence: LateEvidence[];
  /** Whether the exact parent's pinned version loads now with its digest (check 1 fails when not). */
  parentLoad: ParentLoad;
  /** Null when the receipt has no stages yet or fails verification (a broken receipt is never judged). */
  report: GateReport | null;
};

export async function gateReport(database: Database | { db: Db | Tx }, candidateId: string, now: Date = new Date()): Promise<StoredGateReport> {
  const candidate = await database.db.candidate.findUnique({ where: { id: candidateId } });
  if (!candidate) throw new DomainError("NOT_FOUND", `no candidate ${candidateId}`, "candidateId");
  // Sequential on purpose: inside a transaction these share one connection (no concurrent queries on it).
  const loaded = await loadReceipt(database, candidateId);
  const policy = await currentPolicy(database.db, candidate.agent);
  const versions = await currentVersions(database.db, candidate.agent, { parentIfNoDefault: candidate.parentDigest as Digest, self: candidate.digest as Digest });
  const decisions = loaded.receipt ? await signedDecisionsFor(database.db, candidate, loaded.receipt) : NO_SIGNED_DECISIONS;
  const lateEvidence = [...(await lateEvidenceOf(database.db, loaded.receipt?.stage2)), ...(await gateRunLateEvidenceOf(database.db, candidateId, loaded.chain, now))];
  const parent = loaded.receipt?.stage1.parent;
  const parentLoad = await resourceLoad(database.db, parent ? { resourcesId: parent.resourceId, version: parent.version, digest: parent.digest } : { resourcesId: candidate.parentResourcesId, version: candidate.parentVersion, digest: candidate.parentDigest });
  const report = loaded.receipt ? evaluateGate({ receipt: loaded.receipt, policy, currentVersions: versions, now, decisions, lateEvidence, parentLoad }) : null;
  return { candidate, ...loaded, policy, versions, decisions, lateEvidence, parentLoad, report };
}
