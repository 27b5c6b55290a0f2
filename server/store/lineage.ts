// Which agents' release lineage a resources id belongs to, read in the same transaction as a write to it: the
// pointers (approved default, canary, latest candidate) and candidates that name the id. A write under such an
// id is a decision about that agent's releases, so the caller judges it (server/store/http/lineage-guard.ts)
// before anything is stored; the store itself stays agent-agnostic.
import { all, one, type Program } from "@/server/db/sql/program";
import { pinnedDigest, putResources, resourcesDigest } from "./resources";
import type { NamedResources, ResourcesUpdate } from "./types";
import type { Digest } from "@/server/digest";

/** One record that names the id: a pointer of `agent`, or a candidate of `agent`, at an exact version. */
export type LineageClaim = { agent: string; by: "approved_default" | "canary" | "latest_candidate" | "candidate"; version: number; digest: Digest; candidateId: string | null };

/** What a write under `resourcesId` would store, and who already names that id. */
export type PendingResourcesWrite = {
  resourcesId: string;
  /** Every agent whose pointers or candidates name the id (at most 100). */
  agents: string[];
  /** Claims on versions the store does not hold yet: a write could fill one with other bytes. */
  unstoredClaims: LineageClaim[];
  /** The version and digest the write would store. */
  version: number;
  digest: Digest;
};

const MAX_LISTED = 100;

function* readLineage(resourcesId: string, stored: number): Program<{ agents: string[]; unstoredClaims: LineageClaim[] }> {
  const pointers = yield* all<{ agent: string; kind: string; version: number; digest: string; candidate_id: string | null }>(
    `SELECT agent, kind, version, digest, candidate_id FROM pointers WHERE resources_id = ? ORDER BY agent, kind LIMIT ${MAX_LISTED}`,
    [resourcesId],
  );
  const candidateAgents = yield* all<{ agent: string }>(`SELECT DISTINCT agent FROM candidates WHERE resources_id = ? ORDER BY agent LIMIT ${MAX_LISTED}`, [resourcesId]);
  const unstoredCandidates = yield* all<{ agent: string; version: number; digest: string; id: string }>(
    `SELECT agent, version, digest, id FROM candidates WHERE resources_id = ? AND version > ? ORDER BY version LIMIT ${MAX_LISTED}`,
    [resourcesId, stored],
  );
  const claims: LineageClaim[] = [
    ...pointers.map((p) => ({ agent: p.agent, by: p.kind as LineageClaim["by"], version: Number(p.version), digest: pinnedDigest(p.digest), candidateId: p.candidate_id })),
    ...unstoredCandidates.map((c) => ({ agent: c.agent, by: "candidate" as const, version: Number(c.version), digest: pinnedDigest(c.digest), candidateId: c.id })),
  ];
  const agents = [...new Set([...pointers.map((p) => p.agent), ...candidateAgents.map((c) => c.agent)])].sort().slice(0, MAX_LISTED);
  return { agents, unstoredClaims: claims.filter((c) => c.version > stored) };
}

/**
 * update_resources behind a guard: reads the id's lineage and the version the write would make, asks
 * `refuse`, and writes only when it answers null — all in one transaction, so no pointer or candidate can
 * appear between the judgement and the write.
 */
export function* guardedPutResources<R>(
  resourcesId: string,
  resources: NamedResources,
  now: number,
  refuse: (write: PendingResourcesWrite) => R | null,
): Program<{ written: ResourcesUpdate } | { refused: R }> {
  const head = yield* one<{ version: number }>("SELECT version FROM store_resources WHERE resources_id = ?", [resourcesId]);
  const stored = head ? Number(head.version) : 0;
  const lineage = yield* readLineage(resourcesId, stored);
  const refused = refuse({ resourcesId, ...lineage, version: stored + 1, digest: pinnedDigest(resourcesDigest(resources)) });
  if (refused !== null) return { refused };
  return { written: yield* putResources(resourcesId, resources, now) };
}
