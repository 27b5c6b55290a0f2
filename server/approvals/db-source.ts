// The receipt source the routers use: sealed receipts, policy and versions in force from server/receipts,
// read and written on the caller's client (inside the approval's transaction when committing).
import type { Digest } from "@/server/digest";
import { DomainError } from "@/server/errors";
import { receiptLock, sealLinkIn } from "@/server/receipts/links";
import { gateReport } from "@/server/receipts/report";
import type { ReceiptSource } from "./source";

export const receiptSource: ReceiptSource = {
  async load(db, candidateId, now = new Date()) {
    const found = await db.candidate.findUnique({ where: { id: candidateId }, select: { id: true } });
    if (!found) return null;
    const stored = await gateReport({ db }, candidateId, now);
    if (!stored.receipt) {
      const why = stored.verification.ok ? "has no sealed stages yet" : "fails verification";
      throw new DomainError("PRECONDITION_FAILED", `candidateId: the receipt of ${candidateId} ${why}; nothing can be approved on it`, "candidateId");
    }
    const c = stored.candidate;
    return {
      candidate: {
        id: c.id,
        agent: c.agent,
        resourcesId: c.resourcesId,
        version: c.version,
        digest: c.digest,
        parent: { resourcesId: c.parentResourcesId, version: c.parentVersion, digest: c.parentDigest as Digest },
        createdById: c.createdById,
        trainingRunId: c.trainingRunId,
      },
      chain: stored.chain,
      policy: stored.policy,
      currentVersions: stored.versions,
      decisions: stored.decisions,
      lateEvidence: stored.lateEvidence,
      parentLoad: stored.parentLoad,
      judged: stored.report ? { receipt: stored.receipt, report: stored.report, now } : undefined,
    };
  },
  sealApproval: (tx, candidateId, content, sealedAt) => sealLinkIn(tx, candidateId, "approval", content, sealedAt),
  async listCandidateIds(db, agent) {
    const rows = await db.candidate.findMany({ where: agent ? { agent } : {}, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true }, take: 500 });
    return rows.map((r) => r.id);
  },
};

export { receiptLock };
