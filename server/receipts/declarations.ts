// Stage-1 declarations made over HTTP before training (`POST /v1/gate/receipts`, server/gate-api): how one is
// stored and read back. The row keeps the stage-1 fields as canonical JSON — all but the candidate's version
// and digest, which binding fills in — plus the training resources ids the receipt admits to its stage 2.
import type { Db, Tx } from "@/server/db/client";
import { digestOf, type Digest } from "@/server/digest";
import type { Stage1 } from "@/server/gate/receipt/stage1";

/** The training-data pin for `{resources_ids}`: an id and digest over the sorted ids, so check 1 can recompute it. */
export function trainingResourcesRef(resourcesIds: readonly string[]): { id: string; digest: Digest } {
  const ids = [...new Set(resourcesIds)].sort();
  const digest = digestOf({ resources_ids: ids });
  return { id: `rsids-${digest.slice("sha256:".length, "sha256:".length + 16)}`, digest };
}

/** The stage-1 fields of a declaration; the candidate is known only by the resources id declared, if any. */
export type DeclaredStage1 = Omit<Stage1, "candidate"> & { candidate?: { resourceId: string } };

/** What a declaration row's `declaration` column holds. */
export type StoredDeclaration = DeclaredStage1 & {
  /** `training_data.resources_ids`: rollouts that ran these are admitted to stage 2 (empty for a snapshot). */
  trainingResourcesIds: string[];
};

export type DeclarationRecord = {
  id: string;
  agent: string;
  declaration: StoredDeclaration;
  declaredById: string;
  declaredAt: Date;
  candidateId: string | null;
  boundAt: Date | null;
};

type Row = Omit<DeclarationRecord, "declaration"> & { declaration: string };
const toRecord = (r: Row): DeclarationRecord => ({ ...r, declaration: JSON.parse(r.declaration) as StoredDeclaration });

export async function readDeclaration(db: Db | Tx, id: string): Promise<DeclarationRecord | null> {
  const row = await db.receiptDeclaration.findUnique({ where: { id } });
  return row ? toRecord(row) : null;
}

/** The declaration a candidate was bound from, or null for candidates registered directly (internal runs). */
export async function declarationOfCandidate(db: Db | Tx, candidateId: string): Promise<DeclarationRecord | null> {
  const row = await db.receiptDeclaration.findUnique({ where: { candidateId } });
  return row ? toRecord(row) : null;
}
