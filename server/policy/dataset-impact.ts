// What publishing a new version of a held-out or canary set changes. A receipt pins its exam by id and
// digest and never moves (so nothing recorded goes stale); runs started afterwards pin the newest version of
// `<agent>/held-out` / `<agent>/canary` (server/receipts/gate-datasets.ts). The preview validates the body
// as `POST /v1/gate/datasets` does, says whether the content is already published, and lists the receipts
// that pin a version of this name — which keep it.
import type { Database } from "@/server/db/client";
import { digestOf } from "@/server/digest";
import { datasetIdOf } from "@/server/gate-api/datasets";
import { normaliseCases, type PublishDatasetBody } from "@/server/gate-api/datasets.schema";
import { candidateLabel } from "@/server/receipts/candidate-names";

/** Stage-1 links read to find pins (small JSON each); beyond it the page says so. */
const MAX_SCANNED = 5_000;

export type DatasetImpact = {
  kind: PublishDatasetBody["kind"];
  name: string;
  datasetId: string;
  digest: string;
  caseCount: number;
  /** The version this content already is (publishing it again changes nothing), or null. */
  existingVersion: string | null;
  version: string;
  supersedes: { version: string; datasetId: string; caseCount: number } | null;
  added: number;
  removed: number;
  /** Receipts that pin some version of this name; they keep their pin. */
  pinnedBy: { candidateId: string; title: string; label: string | null; version: string }[];
  scannedAll: boolean;
};

type Stage1Data = { data?: { heldOut?: { id?: unknown }; canary?: { id?: unknown } } };

export async function datasetImpact(database: Database, body: PublishDatasetBody): Promise<DatasetImpact> {
  const db = database.db;
  const cases = normaliseCases(body.cases);
  const digest = digestOf({ name: body.name, kind: body.kind, cases });
  const datasetId = datasetIdOf(digest);
  const versions = await db.gateDataset.findMany({ where: { name: body.name, kind: body.kind }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const label = new Map(versions.map((v, i) => [v.id, String(i + 1)]));
  const last = versions.at(-1) ?? null;
  const lastIds = last ? new Set((await db.gateDatasetCase.findMany({ where: { datasetId: last.id }, select: { caseId: true } })).map((c) => c.caseId)) : new Set<string>();
  const newIds = new Set(cases.map((c) => c.id));
  const links = await db.receiptLink.findMany({ where: { kind: "stage1" }, select: { candidateId: true, content: true }, take: MAX_SCANNED + 1 });
  const pinnedIds = new Map<string, string>();
  for (const l of links.slice(0, MAX_SCANNED)) {
    const data = (JSON.parse(l.content) as Stage1Data).data;
    const pin = [data?.heldOut?.id, data?.canary?.id].find((id): id is string => typeof id === "string" && label.has(id));
    if (pin) pinnedIds.set(l.candidateId, pin);
  }
  const candidates = await db.candidate.findMany({ where: { id: { in: [...pinnedIds.keys()] } }, select: { id: true, agent: true, resourcesId: true, version: true } });
  return {
    kind: body.kind,
    name: body.name,
    datasetId,
    digest,
    caseCount: cases.length,
    existingVersion: label.get(datasetId) ?? null,
    version: label.get(datasetId) ?? String(versions.length + 1),
    supersedes: last && { version: String(versions.length), datasetId: last.id, caseCount: last.caseCount },
    added: [...newIds].filter((id) => !lastIds.has(id)).length,
    removed: [...lastIds].filter((id) => !newIds.has(id)).length,
    pinnedBy: candidates.map((c) => ({ candidateId: c.id, ...candidateLabel(c), version: label.get(pinnedIds.get(c.id)!)! })),
    scannedAll: links.length <= MAX_SCANNED,
  };
}
