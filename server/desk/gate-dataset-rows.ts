// Writes a published gate dataset (held-out or canary task set) in the shape the design fixes for
// `POST /v1/gate/datasets`: cases normalised (family "general", protected false, expected null by
// default), digest over the RFC 8785 canonical JSON of {name, kind, cases}, id "gds-" + 16 hex of it;
// the same content answers the existing dataset. INTERIM: the desk seeds its datasets through this until
// the gate API's own domain function is merged, which then replaces it (same rows, same digest).
import type { Database } from "@/server/db/client";
import { AUDIT_LOCK, appendAudit, type AuditActor } from "@/server/audit/audit-log";
import { canonicalJson, digestOf, type Digest } from "@/server/digest";
import type { JsonValue } from "@/server/gate/digest";

export type GateDatasetKind = "held_out" | "canary";
export type GateCaseInput = { id: string; input: JsonValue; family?: string; protected?: boolean; expected?: JsonValue | null };
export type GateCase = { id: string; input: JsonValue; family: string; protected: boolean; expected: JsonValue | null };
export type PublishedDataset = { datasetId: string; digest: Digest; caseCount: number; created: boolean };

export function normaliseCases(cases: readonly GateCaseInput[]): GateCase[] {
  return cases.map((c) => ({ id: c.id, input: c.input, family: c.family ?? "general", protected: c.protected ?? false, expected: c.expected ?? null }));
}

export function gateDatasetDigest(name: string, kind: GateDatasetKind, cases: readonly GateCase[]): Digest {
  return digestOf({ name, kind, cases });
}

export const gateDatasetId = (digest: Digest) => `gds-${digest.slice("sha256:".length, "sha256:".length + 16)}`;

/** Publishes the dataset once; publishing the same content again answers the existing one. */
export async function writeGateDataset(database: Database, input: { name: string; kind: GateDatasetKind; cases: readonly GateCaseInput[]; actor: AuditActor }): Promise<PublishedDataset> {
  const cases = normaliseCases(input.cases);
  if (cases.length === 0) throw new Error("a gate dataset needs at least one case");
  if (new Set(cases.map((c) => c.id)).size !== cases.length) throw new Error(`cases: case ids must be unique in ${input.name}`);
  const digest = gateDatasetDigest(input.name, input.kind, cases);
  const datasetId = gateDatasetId(digest);
  return database.transaction(
    async (tx) => {
      const existing = await tx.gateDataset.findUnique({ where: { digest } });
      if (existing) return { datasetId: existing.id, digest, caseCount: existing.caseCount, created: false };
      await tx.gateDataset.create({ data: { id: datasetId, name: input.name, kind: input.kind, digest, caseCount: cases.length, createdById: input.actor.id, createdAt: new Date() } });
      await tx.gateDatasetCase.createMany({
        data: cases.map((c, ordinal) => ({
          datasetId,
          ordinal,
          caseId: c.id,
          input: canonicalJson(c.input),
          family: c.family,
          protected: c.protected,
          expected: c.expected === null ? null : canonicalJson(c.expected),
        })),
      });
      await appendAudit(tx, { actor: input.actor, action: "gate.dataset.publish", target: { type: "gate_dataset", id: datasetId }, after: { name: input.name, kind: input.kind, digest, caseCount: cases.length } });
      return { datasetId, digest, caseCount: cases.length, created: true };
    },
    { locks: [AUDIT_LOCK, `gate-dataset:${digest}`] },
  );
}
