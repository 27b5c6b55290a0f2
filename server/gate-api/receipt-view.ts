// `GET /v1/gate/receipts/{receipt_id}`: the declaration as declared (pins resolved), the candidate once bound,
// its gate runs, and the gate's current verdict with every check — judged now, against the versions in
// force (`gateReport`), so a check that went stale says so.
import type { Database } from "@/server/db/client";
import type { DeclarationRecord } from "@/server/receipts/declarations";
import { gateReport } from "@/server/receipts/report";
import { declarationView } from "./declaration-view";

export async function receiptView(database: Database, declaration: DeclarationRecord) {
  const base = {
    receipt_id: declaration.id,
    agent: declaration.agent,
    declared_by: declaration.declaredById,
    declared_at: declaration.declaredAt.toISOString(),
    bound_at: declaration.boundAt?.toISOString() ?? null,
    declaration: declarationView(declaration.declaration),
  };
  if (!declaration.candidateId) return { ...base, candidate_id: null, candidate: null, gate_runs: [], verdict: null, checks: null };
  const stored = await gateReport(database, declaration.candidateId);
  const runs = await database.db.gateRun.findMany({ where: { candidateId: declaration.candidateId }, orderBy: [{ requestedAt: "desc" }, { id: "desc" }], take: 100 });
  const c = stored.candidate;
  return {
    ...base,
    candidate_id: c.id,
    candidate: { candidate_id: c.id, resources_id: c.resourcesId, version: c.version, digest: c.digest, registered_at: c.createdAt.toISOString() },
    gate_runs: runs.map((r) => ({ gate_run_id: r.id, status: r.status, phase: r.phase, requested_at: r.requestedAt.toISOString(), finished_at: r.finishedAt?.toISOString() ?? null })),
    receipt_verified: stored.verification.ok,
    verdict: stored.report?.verdict ?? null,
    checks: stored.report?.checks.map((k) => ({ id: k.id, status: k.status, explanation: k.explanation })) ?? null,
  };
}
