// A snapshot made from the dashboard: records pasted or uploaded, or an existing snapshot's records, through
// the chosen pipeline steps, stored content-addressed by `createSnapshot` with the lineage (the parent
// snapshot, the steps with their counts). Every way the request can be wrong is refused naming the field
// before anything is written; the same records again return the existing snapshot.
import type { Database } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { runPipeline, type PipelineStep } from "./pipeline";
import { parseRecords, type DatasetRecord } from "./records";
import { createSnapshot, loadSnapshot, type Lineage } from "./snapshot";

export type DeriveSource = { kind: "snapshot"; id: string } | { kind: "records"; records: readonly unknown[] };
export type DeriveInput = { name: string; from: DeriveSource; steps: readonly PipelineStep[]; createdBy: string };

function parsed(records: readonly unknown[]): DatasetRecord[] {
  try {
    return parseRecords(records);
  } catch (e) {
    throw new DomainError("BAD_REQUEST", `from.records: ${(e as Error).message}`, "from.records");
  }
}

export async function deriveSnapshot(database: Database, input: DeriveInput) {
  let records: DatasetRecord[];
  let lineage: Partial<Lineage>;
  if (input.from.kind === "snapshot") {
    const row = await database.db.datasetSnapshot.findUnique({ where: { id: input.from.id }, select: { digest: true } });
    if (!row) throw new DomainError("NOT_FOUND", `from.id: no snapshot ${input.from.id.slice(0, 64)}`, "from.id");
    const parent = await loadSnapshot(database, row.digest);
    records = parent.records;
    lineage = { ...parent.lineage, parentSnapshot: parent.digest };
  } else {
    records = parsed(input.from.records);
    const seen = new Set<string>();
    for (const [i, r] of records.entries()) {
      if (seen.has(r.id)) throw new DomainError("BAD_REQUEST", `from.records: record ${i}: id "${r.id.slice(0, 100)}" appears more than once`, "from.records");
      seen.add(r.id);
    }
    lineage = { sources: ["dashboard upload"] };
  }
  const { records: out, reports } = runPipeline(records, input.steps);
  if (out.length === 0) throw new DomainError("BAD_REQUEST", `steps: the pipeline left none of the ${records.length} records (${reports.map((r) => `${r.step} ${r.in} → ${r.out}`).join(", ")})`, "steps");
  const snapshot = await createSnapshot(database, { name: input.name, records: out, createdBy: input.createdBy, lineage: { ...lineage, pipeline: [...(lineage.pipeline ?? []), ...reports] } });
  return { ...snapshot, records: out.length, pipeline: reports };
}
