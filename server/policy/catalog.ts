// What the registries area lists: every registry record and published exam by kind and name, with its
// current version(s) per agent, and one record's versions. Reads only; publishing stays in
// server/receipts/registries.ts and server/gate-api/datasets.ts (the functions the HTTP APIs use).
import { displayNames, nameOf } from "@/server/auth/display-names";
import type { Db, Tx } from "@/server/db/client";
import { isDatasetKind, type AreaKind, type DatasetAreaKind } from "@/lib/registries/kinds";
import { listRegistryView, type RegistryKind } from "@/server/receipts/registries";

/** One published version as the area shows it. Datasets are numbered 1, 2… per name in publication order. */
export type AreaVersion = {
  agent: string;
  version: string;
  seq: number;
  digest: string;
  current: boolean;
  createdBy: string;
  createdAt: Date;
  /** Datasets only: the published id (gds-…) and its case count. */
  datasetId: string | null;
  caseCount: number | null;
};

export type CatalogRow = { kind: AreaKind; name: string; agents: string[]; versions: number; current: AreaVersion[]; updatedAt: Date };

type DatasetRow = { id: string; name: string; kind: string; digest: string; caseCount: number; createdById: string; createdAt: Date };

/** A dataset name's versions, oldest = 1; the newest is the one new runs pin (server/receipts/gate-datasets.ts). */
function datasetVersions(rows: readonly DatasetRow[], names: ReadonlyMap<string, string>): AreaVersion[] {
  const sorted = [...rows].sort((a, b) => +a.createdAt - +b.createdAt || a.id.localeCompare(b.id));
  return sorted.map((r, i) => ({
    agent: "*",
    version: String(i + 1),
    seq: i + 1,
    digest: r.digest,
    current: i === sorted.length - 1,
    createdBy: nameOf(names, r.createdById),
    createdAt: r.createdAt,
    datasetId: r.id,
    caseCount: r.caseCount,
  }));
}

export async function registryCatalog(db: Db | Tx): Promise<CatalogRow[]> {
  const entries = await listRegistryView(db, {});
  const datasets = await db.gateDataset.findMany({ orderBy: { createdAt: "asc" } });
  const names = await displayNames(db, [...entries.map((e) => e.createdById), ...datasets.map((d) => d.createdById)]);
  const groups = new Map<string, { kind: AreaKind; name: string; versions: AreaVersion[] }>();
  const group = (kind: AreaKind, name: string) => {
    const key = `${kind}\u0000${name}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { kind, name, versions: [] }));
    return g;
  };
  for (const e of entries) {
    group(e.kind, e.name).versions.push({ agent: e.agent, version: e.version, seq: e.seq, digest: e.digest, current: e.current, createdBy: nameOf(names, e.createdById), createdAt: e.createdAt, datasetId: null, caseCount: null });
  }
  const byName = new Map<string, DatasetRow[]>();
  for (const d of datasets) byName.set(`${d.kind}\u0000${d.name}`, [...(byName.get(`${d.kind}\u0000${d.name}`) ?? []), d]);
  for (const rows of byName.values()) group(rows[0]!.kind as DatasetAreaKind, rows[0]!.name).versions.push(...datasetVersions(rows, names));
  return [...groups.values()].map((g) => ({
    kind: g.kind,
    name: g.name,
    agents: [...new Set(g.versions.map((v) => v.agent))].sort(),
    versions: g.versions.length,
    current: g.versions.filter((v) => v.current).sort((a, b) => a.agent.localeCompare(b.agent)),
    updatedAt: new Date(Math.max(...g.versions.map((v) => +v.createdAt))),
  }));
}

export type AreaEntry = { kind: AreaKind; name: string; agents: string[]; versions: AreaVersion[] };

/** Every version of one record (every agent's), newest first; null when nothing was ever published under it. */
export async function registryEntry(db: Db | Tx, kind: AreaKind, name: string): Promise<AreaEntry | null> {
  let versions: AreaVersion[];
  if (isDatasetKind(kind)) {
    const rows = await db.gateDataset.findMany({ where: { kind, name } });
    const names = await displayNames(db, rows.map((r) => r.createdById));
    versions = datasetVersions(rows, names).reverse();
  } else {
    const rows = await listRegistryView(db, { kind: kind as RegistryKind, name });
    const names = await displayNames(db, rows.map((r) => r.createdById));
    versions = rows
      .map((r) => ({ agent: r.agent, version: r.version, seq: r.seq, digest: r.digest, current: r.current, createdBy: nameOf(names, r.createdById), createdAt: r.createdAt, datasetId: null, caseCount: null }))
      .sort((a, b) => a.agent.localeCompare(b.agent) || b.seq - a.seq);
  }
  if (!versions.length) return null;
  return { kind, name, agents: [...new Set(versions.map((v) => v.agent))].sort(), versions };
}
