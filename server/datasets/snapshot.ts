// Content-addressed, versioned dataset snapshots. A snapshot's digest is SHA-256 over the canonical
// JSON (RFC 8785) of its records sorted by id, so the same records are always the same snapshot:
// creating them again returns the existing one. Each name counts its own versions. Loading re-checks
// the digest from the stored rows, so a snapshot that was altered in the database is refused.
import { canonicalJson, digestOf, type Digest } from "@/server/digest";
import type { Database } from "@/server/db/client";
import { parseRecords, type DatasetRecord, type RecordKind } from "./records";

export type PipelineStepReport = { step: string; params: Record<string, unknown>; in: number; out: number; details: Record<string, number> };

/** Where a snapshot's records came from and what was done to them. */
export type Lineage = {
  /** Rollout ids (store) the records were taken from. */
  rollouts: string[];
  /** Feedback ids the records include or were derived from. */
  feedback: string[];
  /** The snapshot this one was derived from. */
  parentSnapshot: Digest | null;
  /** Preprocessing steps, in order, with their counts. */
  pipeline: PipelineStepReport[];
  /** Free-form source names (an expert team, an import). */
  sources: string[];
};

export type SnapshotMeta = { id: string; name: string; version: number; digest: Digest; recordCount: number; kinds: RecordKind[]; lineage: Lineage; createdBy: string; createdAt: Date };
export type LoadedSnapshot = SnapshotMeta & { records: DatasetRecord[] };

const sortById = (records: readonly DatasetRecord[]) => [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** The content digest of a set of records (order does not matter; ids must be unique). */
export function snapshotDigest(records: readonly DatasetRecord[]): Digest {
  return digestOf(sortById(records));
}

export function snapshotIdFor(digest: Digest): string {
  return `ds-${digest.slice(7, 23)}`;
}

const NAME = /^[a-z0-9][a-z0-9/_.-]{0,119}$/;

function emptyLineage(l: Partial<Lineage> = {}): Lineage {
  return { rollouts: [...(l.rollouts ?? [])].sort(), feedback: [...(l.feedback ?? [])].sort(), parentSnapshot: l.parentSnapshot ?? null, pipeline: l.pipeline ?? [], sources: [...(l.sources ?? [])].sort() };
}

export type CreateSnapshotInput = { name: string; records: readonly unknown[]; lineage?: Partial<Lineage>; createdBy: string };

/**
 * Stores a snapshot (or finds the identical one) and returns its id and digest. Records are validated
 * with field-named errors; duplicate ids are refused; the whole snapshot commits or nothing does.
 */
export async function createSnapshot(database: Database, input: CreateSnapshotInput): Promise<{ id: string; digest: Digest; version: number; created: boolean }> {
  if (!NAME.test(input.name)) throw new Error(`name must be lowercase letters, digits and / _ . - (got "${input.name}")`);
  if (input.records.length === 0) throw new Error("records: a snapshot needs at least one record");
  const records = sortById(parseRecords(input.records));
  for (let i = 1; i < records.length; i++) if (records[i]!.id === records[i - 1]!.id) throw new Error(`records: id "${records[i]!.id}" appears more than once`);
  const digest = snapshotDigest(records);
  const id = snapshotIdFor(digest);
  const lineage = emptyLineage(input.lineage);
  const kinds = [...new Set(records.map((r) => r.kind))].sort();
  return database.transaction(
    async (tx) => {
      const existing = await tx.datasetSnapshot.findUnique({ where: { digest }, select: { id: true, version: true } });
      if (existing) return { id: existing.id, digest, version: existing.version, created: false };
      if (lineage.parentSnapshot && !(await tx.datasetSnapshot.findUnique({ where: { digest: lineage.parentSnapshot }, select: { id: true } }))) {
        throw new Error(`lineage.parentSnapshot: no snapshot ${lineage.parentSnapshot}`);
      }
      const last = await tx.datasetSnapshot.findFirst({ where: { name: input.name }, orderBy: { version: "desc" }, select: { version: true } });
      const version = (last?.version ?? 0) + 1;
      await tx.datasetSnapshot.create({
        data: { id, name: input.name, version, digest, recordCount: records.length, kinds: kinds.join(","), parentDigest: lineage.parentSnapshot, lineage: canonicalJson(lineage), createdBy: input.createdBy },
      });
      for (let start = 0; start < records.length; start += 500) {
        await tx.datasetSnapshotRecord.createMany({
          data: records.slice(start, start + 500).map((r, i) => ({ snapshotId: id, ordinal: start + i, recordId: r.id, kind: r.kind, payload: canonicalJson(r) })),
        });
      }
      return { id, digest, version, created: true };
    },
    { locks: [`dataset:${input.name}`, `dataset:${digest}`] },
  );
}

type Row = { id: string; name: string; version: number; digest: string; recordCount: number; kinds: string; lineage: string; createdBy: string; createdAt: Date };

function meta(row: Row): SnapshotMeta {
  return { id: row.id, name: row.name, version: row.version, digest: row.digest as Digest, recordCount: row.recordCount, kinds: (row.kinds ? row.kinds.split(",") : []) as RecordKind[], lineage: JSON.parse(row.lineage) as Lineage, createdBy: row.createdBy, createdAt: row.createdAt };
}

/** Loads a snapshot by digest and verifies its records against it. */
export async function loadSnapshot(database: Database, digest: string): Promise<LoadedSnapshot> {
  const row = await database.db.datasetSnapshot.findUnique({ where: { digest } });
  if (!row) throw new Error(`no dataset snapshot with digest ${digest}`);
  const rows = await database.db.datasetSnapshotRecord.findMany({ where: { snapshotId: row.id }, orderBy: { ordinal: "asc" }, select: { payload: true } });
  const records = parseRecords(rows.map((r) => JSON.parse(r.payload)));
  const actual = snapshotDigest(records);
  if (actual !== digest || records.length !== row.recordCount) throw new Error(`dataset snapshot ${row.id} does not match its digest: the stored records were altered (${actual})`);
  return { ...meta(row), records };
}

/** Snapshot metadata, newest first (optionally of one name). */
export async function listSnapshots(database: Database, name?: string): Promise<SnapshotMeta[]> {
  const rows = await database.db.datasetSnapshot.findMany({ where: name ? { name } : {}, orderBy: [{ createdAt: "desc" }, { version: "desc" }] });
  return rows.map(meta);
}

/** The chain of snapshots a snapshot derives from, itself first. */
export async function snapshotAncestry(database: Database, digest: string): Promise<SnapshotMeta[]> {
  const out: SnapshotMeta[] = [];
  let next: string | null = digest;
  while (next && out.length < 1000) {
    const row: Row | null = await database.db.datasetSnapshot.findUnique({ where: { digest: next } });
    if (!row) break;
    const m = meta(row);
    out.push(m);
    next = m.lineage.parentSnapshot;
  }
  return out;
}
