// Every check result of a receipt's current report, recorded against the chain head and the versions in
// force, so the API and the dashboard read what a gate run concluded without judging again.
import type { Database } from "@/server/db/client";
import { digestOf, newId } from "@/server/digest";
import { gateReport } from "./report";

export async function recordCheckResults(database: Database, candidateId: string, now: Date = new Date()) {
  const stored = await gateReport(database, candidateId, now);
  if (!stored.report || !stored.head) return null;
  const versionsKey = digestOf(stored.versions);
  const rows = [...stored.report.checks.map((c) => ({ c, scope: "admission" })), ...(stored.report.canaryStageChecks ?? []).map((c) => ({ c, scope: "canary-stage" }))];
  await database.db.gateCheckResult.createMany({
    data: rows.map(({ c, scope }) => ({
      id: newId("gc"),
      candidateId,
      headDigest: stored.head!,
      versionsKey,
      check: c.id,
      scope,
      status: c.status,
      sentence: c.explanation,
      evidence: JSON.stringify(c.evidence),
      versions: JSON.stringify(c.versions),
      verdict: stored.report!.verdict,
      evaluatedAt: now,
    })),
  });
  return stored.report;
}
