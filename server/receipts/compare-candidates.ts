// Compare any two versions of one agent (/agents/<agent>/compare?a=<id>&b=<id>): each judged as the candidates
// list judges it (`gateReport` + the promotion machine), the seven checks, locked-gate mean, gain, coverage,
// retry debt and protected regressions side by side, the config keys that differ, and the cases where they differ
// most. Ids come from a shared link: an unknown id, or another agent's, is refused as not found, naming the field.
import type { Database } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { candidateLabel } from "./candidate-names";
import { summarizeWithPromotion } from "./candidates-view";
import { gateReport, type StoredGateReport } from "./report";
import { compareCases, configDifference, versionSide, type CaseComparison, type ConfigDifference, type SideInput, type VersionSide } from "./version-compare";

export type CandidateComparison = { agent: string; a: VersionSide; b: VersionSide; cases: CaseComparison; config: ConfigDifference };

export type CompareInput = { agent: string; a: string; b: string };

// Longer than any id Lightgate makes, or holding a NUL (which PostgreSQL cannot look up): no version, no query.
const lookable = (id: string) => id.length > 0 && id.length <= 200 && !id.includes("\u0000");
const shown = (id: string) => JSON.stringify(id.length > 64 ? `${id.slice(0, 64)}…` : id);

export async function compareCandidates(database: Database, input: CompareInput, now: Date = new Date()): Promise<CandidateComparison> {
  const { agent } = input;
  const ids = [input.a, input.b].filter(lookable);
  const rows = ids.length ? await database.db.candidate.findMany({ where: { id: { in: ids } }, select: { id: true, agent: true } }) : [];
  for (const field of ["a", "b"] as const) {
    const row = rows.find((r) => r.id === input[field]);
    if (!row) throw new DomainError("NOT_FOUND", `${field}: ${shown(input[field])} is no version of agent ${agent}`, field);
    if (row.agent !== agent) throw new DomainError("NOT_FOUND", `${field}: ${shown(input[field])} is a version of another agent, not of ${agent}`, field);
  }
  if (input.a === input.b) throw new DomainError("BAD_REQUEST", "b: names the same version as a; pick two different versions", "b");
  // Sequential: two judgements, each a handful of reads (the list makes one per row; here there are two rows).
  const stored = [await gateReport(database, input.a, now), await gateReport(database, input.b, now)] as const;
  const [sa, sb] = [await sideInput(database, stored[0], now), await sideInput(database, stored[1], now)];
  const [ma, mb] = [await material(database, stored[0]), await material(database, stored[1])];
  return { agent, a: versionSide(sa), b: versionSide(sb), cases: compareCases(sa, sb), config: configDifference(ma, mb) };
}

async function sideInput(database: Database, stored: StoredGateReport, now: Date): Promise<SideInput> {
  const { candidate: c, receipt } = stored;
  const { status, promotion } = await summarizeWithPromotion(database, stored, now);
  const gate = receipt?.stage3?.lockedGate;
  return {
    id: c.id,
    name: `${c.resourcesId} v${c.version}`,
    label: candidateLabel(c).label,
    parent: { resourcesId: c.parentResourcesId, version: c.parentVersion },
    status,
    promotion: promotion?.label ?? null,
    report: stored.report,
    lockedGate: gate ? { dataset: gate.dataset, evaluator: gate.evaluator } : null,
  };
}

/** Its algorithm and config as declared in stage 1, and its resources' bytes as the store holds them. */
async function material(database: Database, stored: StoredGateReport) {
  const { candidate: c, receipt } = stored;
  const row = await database.db.storeResourcesVersion.findUnique({ where: { resourcesId_version: { resourcesId: c.resourcesId, version: c.version } }, select: { resources: true } });
  let resources: unknown = null;
  try {
    resources = row ? (JSON.parse(row.resources) as unknown) : null;
  } catch {
    resources = null; // bytes that are not JSON: compared as missing (check 1 names them on the candidate's page)
  }
  return { name: `${c.resourcesId} v${c.version}`, algorithm: receipt?.stage1.algorithm ?? { name: c.algorithm }, resources };
}
