// One snapshot as the dataset page shows it: where it came from (parent chain, rollouts, feedback,
// sources), what derives from it (child snapshots, transitively), how its records spread over strata
// and — when it was split — over train / validation / test per stratum, and a page of its records with
// any PII the stored text still holds redacted for display.
import { redactionCounts } from "@/lib/datasets/redactions";
import type { Database } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { redactPii, PII_TYPES } from "./pii";
import type { DatasetRecord } from "./records";
import { defaultStratum } from "./splits";
import { listSnapshots, loadSnapshot, snapshotAncestry, type SnapshotMeta } from "./snapshot";

export type SnapshotNode = SnapshotMeta & { children: SnapshotNode[] };
export type StratumRow = { stratum: string; records: number; train: number; validation: number; test: number };
export type SnapshotDetail = {
  snapshot: SnapshotMeta;
  /** Parents, nearest first. */
  ancestors: SnapshotMeta[];
  /** Snapshots derived from this one, as a tree. */
  descendants: SnapshotNode[];
  /** Records per stratum, and where it was split, how many went to each part. */
  strata: StratumRow[];
  split: { seed: string | null; shares: { train: number; validation: number; test: number } | null } | null;
  redactions: Record<string, number>;
  bytes: number;
};

async function findMeta(database: Database, idOrDigest: string): Promise<SnapshotMeta> {
  const row = await database.db.datasetSnapshot.findFirst({ where: idOrDigest.startsWith("sha256:") ? { digest: idOrDigest } : { id: idOrDigest }, select: { digest: true } });
  if (!row) throw new DomainError("NOT_FOUND", `no dataset snapshot ${idOrDigest}`, "id");
  return (await snapshotAncestry(database, row.digest))[0]!;
}

export async function snapshotDetail(database: Database, idOrDigest: string): Promise<SnapshotDetail> {
  const meta = await findMeta(database, idOrDigest);
  const [chain, all, loaded] = await Promise.all([snapshotAncestry(database, meta.digest), listSnapshots(database), loadSnapshot(database, meta.digest)]);
  const byParent = new Map<string, SnapshotMeta[]>();
  for (const s of all) if (s.lineage.parentSnapshot) byParent.set(s.lineage.parentSnapshot, [...(byParent.get(s.lineage.parentSnapshot) ?? []), s]);
  const seen = new Set<string>([meta.digest]);
  const tree = (digest: string): SnapshotNode[] =>
    (byParent.get(digest) ?? [])
      .filter((c) => !seen.has(c.digest) && seen.add(c.digest))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((c) => ({ ...c, children: tree(c.digest) }));
  const descendants = tree(meta.digest);

  // Split parts are the direct children whose last pipeline step is the split of this snapshot.
  const strata = new Map<string, StratumRow>();
  const stratumOf = new Map<string, string>();
  for (const r of loaded.records) {
    const s = defaultStratum(r);
    stratumOf.set(r.id, s);
    const row = strata.get(s) ?? { stratum: s, records: 0, train: 0, validation: 0, test: 0 };
    row.records++;
    strata.set(s, row);
  }
  let split: SnapshotDetail["split"] = null;
  for (const child of descendants) {
    const last = child.lineage.pipeline.at(-1);
    const part = last?.step === "split" ? (last.params.part as "train" | "validation" | "test") : null;
    if (!part) continue;
    const p = last!.params as { train?: number; validation?: number; test?: number; seed?: string };
    split = { seed: p.seed ?? null, shares: p.train !== undefined ? { train: p.train, validation: p.validation ?? 0, test: p.test ?? 0 } : null };
    const rows = await database.db.datasetSnapshotRecord.findMany({ where: { snapshotId: child.id }, select: { recordId: true } });
    for (const { recordId } of rows) {
      const s = stratumOf.get(recordId);
      if (s) strata.get(s)![part]++;
    }
  }
  const bytes = (await database.db.datasetSnapshotRecord.findMany({ where: { snapshotId: meta.id }, select: { payload: true } })).reduce((a, r) => a + Buffer.byteLength(r.payload), 0);
  return { snapshot: meta, ancestors: chain.slice(1), descendants, strata: [...strata.values()].sort((a, b) => a.stratum.localeCompare(b.stratum)), split, redactions: redactionCounts(meta.lineage.pipeline), bytes };
}

export type DisplayRecord = { id: string; kind: string; domain: string | null; summary: string; text: string; redactedForDisplay: Record<string, number> };

function summaryOf(r: DatasetRecord): string {
  if (r.kind === "demonstration") return `${r.steps.length} step${r.steps.length === 1 ? "" : "s"}: ${r.steps.map((s) => s.action).join(" → ")} · quality ${r.quality.toFixed(2)} · by ${r.source}`;
  if (r.kind === "interaction") return `${r.steps.length} steps: ${r.steps.map((s) => s.action).join(" → ")}`;
  if (r.kind === "feedback") return [r.rating !== null ? `${r.rating}★` : null, r.preferredOver ? `preferred over ${r.preferredOver}` : null, r.correction ? `correction at step ${r.correction.step}: ${r.correction.action}` : null, r.suggestions.length ? r.suggestions.join(", ") : null, `on ${r.interactionId}`].filter(Boolean).join(" · ");
  return Object.entries(r.attributes).map(([k, v]) => `${k}=${v}`).join(" ");
}

/**
 * A page of records, in the snapshot's order. Text is shown as stored; whatever PII it still holds
 * (a snapshot made without the anonymize step) is redacted here too, and counted, so the page never
 * shows it.
 */
export async function snapshotRecords(database: Database, o: { id: string; offset: number; limit: number; kind?: string }): Promise<{ rows: DisplayRecord[]; total: number }> {
  const meta = await findMeta(database, o.id);
  const where = { snapshotId: meta.id, ...(o.kind ? { kind: o.kind } : {}) };
  const [rows, total] = await Promise.all([database.db.datasetSnapshotRecord.findMany({ where, orderBy: { ordinal: "asc" }, skip: o.offset, take: o.limit, select: { payload: true } }), database.db.datasetSnapshotRecord.count({ where })]);
  return {
    rows: rows.map(({ payload }) => {
      const r = JSON.parse(payload) as DatasetRecord;
      const red = redactPii(r.text);
      const counts = Object.fromEntries(PII_TYPES.filter((t) => red.counts[t] > 0).map((t) => [t, red.counts[t]]));
      return { id: r.id, kind: r.kind, domain: "domain" in r ? r.domain : null, summary: summaryOf(r), text: red.text, redactedForDisplay: counts };
    }),
    total,
  };
}
