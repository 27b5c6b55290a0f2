// Published exams: held-out and canary task sets, content-addressed (digest over the RFC 8785 canonical
// JSON of {name, kind, cases} as normalised) and immutable — the same content answers the existing row.
// `expected` is served only to callers who write or verify exams, never to the learner (runner, algorithm).
import { AUDIT_LOCK, appendAudit, type AuditActor } from "@/server/audit/audit-log";
import type { Database, Db, Tx } from "@/server/db/client";
import { canonicalJson, digestOf, type Digest } from "@/server/digest";
import { DomainError } from "@/server/errors";
import { digestHex } from "@/server/gate/digest";
import { normaliseCases, type DatasetKind, type PublishDatasetBody } from "./datasets.schema";

export type DatasetRecord = { id: string; name: string; kind: DatasetKind; digest: Digest; caseCount: number; createdById: string; createdAt: Date };
export type Published = { dataset: DatasetRecord; created: boolean };

const ROWS_PER_INSERT = 500;
const toRecord = (r: Omit<DatasetRecord, "kind" | "digest"> & { kind: string; digest: string }): DatasetRecord => ({ ...r, kind: r.kind as DatasetKind, digest: r.digest as Digest });

export const datasetIdOf = (digest: Digest) => `gds-${digestHex(digest).slice(0, 16)}`;

/** `actor`: the policy owner publishing (a person, a `policy` key, or the system seeding a built-in exam). */
export async function publishDataset(database: Database, actor: AuditActor, body: PublishDatasetBody): Promise<Published> {
  const cases = normaliseCases(body.cases);
  const digest = digestOf({ name: body.name, kind: body.kind, cases });
  const id = datasetIdOf(digest);
  return database.transaction(
    async (tx) => {
      const existing = await tx.gateDataset.findUnique({ where: { id } });
      if (existing && existing.digest !== digest) throw new DomainError("CONFLICT", `dataset id ${id} is taken by other content (${existing.digest})`, "cases");
      if (existing) return { dataset: toRecord(existing), created: false };
      const row = await tx.gateDataset.create({ data: { id, name: body.name, kind: body.kind, digest, caseCount: cases.length, createdById: actor.id, createdAt: new Date() } });
      for (let i = 0; i < cases.length; i += ROWS_PER_INSERT) {
        await tx.gateDatasetCase.createMany({
          data: cases.slice(i, i + ROWS_PER_INSERT).map((c, j) => ({
            datasetId: id,
            ordinal: i + j,
            caseId: c.id,
            input: canonicalJson(c.input),
            family: c.family,
            protected: c.protected,
            expected: c.expected === null ? null : canonicalJson(c.expected),
          })),
        });
      }
      await appendAudit(tx, { actor, action: "gate.dataset.publish", target: { type: "gate_dataset", id }, after: { name: body.name, kind: body.kind, digest, caseCount: cases.length } });
      return { dataset: toRecord(row), created: true };
    },
    // Up to 10,000 cases (16 MiB) in one transaction: all or nothing, given the time a loaded machine needs.
    { locks: [AUDIT_LOCK, `gate-dataset:${id}`], timeoutMs: 120_000 },
  );
}

export async function findDataset(db: Db | Tx, id: string): Promise<DatasetRecord | null> {
  const row = await db.gateDataset.findUnique({ where: { id } });
  return row && toRecord(row);
}

export type DatasetCaseView = { id: string; input: unknown; family: string; protected: boolean; expected?: unknown };

/** The dataset with its cases in order; `withExpected` false leaves `expected` out of every case. */
export async function readDataset(db: Db | Tx, id: string, withExpected: boolean): Promise<{ dataset: DatasetRecord; cases: DatasetCaseView[] } | null> {
  const dataset = await findDataset(db, id);
  if (!dataset) return null;
  const rows = await db.gateDatasetCase.findMany({ where: { datasetId: id }, orderBy: { ordinal: "asc" } });
  const cases = rows.map((r): DatasetCaseView => {
    const c: DatasetCaseView = { id: r.caseId, input: JSON.parse(r.input) as unknown, family: r.family, protected: r.protected };
    if (withExpected) c.expected = r.expected === null ? null : (JSON.parse(r.expected) as unknown);
    return c;
  });
  return { dataset, cases };
}

export const datasetView = (d: DatasetRecord) => ({
  dataset_id: d.id,
  name: d.name,
  kind: d.kind,
  digest: d.digest,
  case_count: d.caseCount,
  created_by: d.createdById,
  created_at: d.createdAt.toISOString(),
});
