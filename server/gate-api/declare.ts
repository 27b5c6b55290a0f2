// `POST /v1/gate/receipts`: the stage-1 declaration before training. Everything the receipt pins is resolved
// here, from the server's own records — the exact parent's digest from the store, the two published datasets
// (digest and case count), the evaluator's digest from the registry — so the learner cannot declare a digest
// it made up. The caller is `declaredBy`; the versions in force are recorded with it.
import { randomBytes } from "node:crypto";
import { AUDIT_LOCK, appendAudit } from "@/server/audit/audit-log";
import type { Actor } from "@/server/auth/actor";
import type { Database } from "@/server/db/client";
import { canonicalJson, type Digest } from "@/server/digest";
import { ZStage1 } from "@/server/gate/receipt/stage1";
import { ZCandidateDeclaration } from "@/server/gate/receipt/refs";
import { trainingResourcesRef, type DeclaredStage1, type StoredDeclaration } from "@/server/receipts/declarations";
import { currentVersions } from "@/server/receipts/versions";
import { storeFor } from "@/server/store";
import { badField } from "./answer";
import { findDataset } from "./datasets";
import type { DatasetKind } from "./datasets.schema";
import type { DeclareReceiptBody } from "./declaration.schema";
import { snakeFieldOf } from "./declaration-view";

export const newReceiptId = () => `rcpt-${randomBytes(6).toString("hex")}`;

async function resolveParent(database: Database, parent: DeclareReceiptBody["parent"]) {
  const version = await storeFor(database).resourcesVersion(parent.resources_id, parent.version);
  if (version) return { resourceId: parent.resources_id, version: parent.version, digest: version.digest as Digest };
  const known = await database.db.storeResourcesVersion.count({ where: { resourcesId: parent.resources_id } });
  if (known === 0) throw badField("parent.resources_id", `no resources "${parent.resources_id.slice(0, 200)}" in the store`);
  throw badField("parent.version", `${parent.resources_id.slice(0, 200)} has no version ${parent.version} in the store`);
}

async function resolveDataset(database: Database, field: string, id: string, kind: DatasetKind) {
  const dataset = await findDataset(database.db, id);
  if (!dataset) throw badField(field, `no published dataset ${id}`);
  if (dataset.kind !== kind) throw badField(field, `${id} is a ${dataset.kind} dataset, not a ${kind} one`);
  return { id: dataset.id, digest: dataset.digest, caseCount: dataset.caseCount };
}

async function resolveEvaluator(database: Database, agent: string, evaluator: DeclareReceiptBody["evaluator"]) {
  const rows = await database.db.registryEntry.findMany({ where: { kind: "evaluator", name: evaluator.id, agent: { in: [agent, "*"] } }, select: { version: true, digest: true, agent: true } });
  if (rows.length === 0) throw badField("evaluator.id", `no evaluator "${evaluator.id.slice(0, 200)}" is registered for ${agent.slice(0, 200)}`);
  // The agent's own entry over the instance-wide one of the same name (as the registries resolve).
  const row = rows.find((r) => r.version === evaluator.version && r.agent === agent) ?? rows.find((r) => r.version === evaluator.version);
  if (!row) throw badField("evaluator.version", `evaluator ${evaluator.id.slice(0, 200)} has no version "${evaluator.version}"`);
  return { id: evaluator.id, version: evaluator.version, digest: row.digest as Digest };
}

/** The stage-1 fields the body declares, every pin resolved; the candidate's version and digest come at bind. */
async function declaredStage1(database: Database, actor: Actor, body: DeclareReceiptBody, declaredAt: Date): Promise<DeclaredStage1> {
  const parent = await resolveParent(database, body.parent);
  const heldOut = await resolveDataset(database, "held_out_dataset", body.held_out_dataset, "held_out");
  const canary = await resolveDataset(database, "canary_dataset", body.canary_dataset, "canary");
  const evaluator = await resolveEvaluator(database, body.agent, body.evaluator);
  const t = body.training_data;
  const training = t.resources_ids ? trainingResourcesRef(t.resources_ids) : { id: t.id!, digest: t.digest! as Digest };
  const e = body.expected_evidence;
  const b = body.canary_boundary;
  return {
    agent: body.agent,
    ...(body.candidate_resources_id === undefined ? {} : { candidate: { resourceId: body.candidate_resources_id } }),
    parent,
    data: { training, heldOut, canary },
    evaluator,
    algorithm: body.algorithm,
    codeRevision: body.code_revision,
    scope: body.scope,
    approvers: body.approvers,
    expectedEvidence: {
      spanFamilies: e.span_families,
      retryBudget: { expectedResamplesPerRollout: e.retry_budget.expected_resamples_per_rollout, unexpectedRetries: e.retry_budget.unexpected_retries },
      protectedFamilies: e.protected_families.map((f) => ({ family: f.family, maxRegressions: f.max_regressions })),
      canaryBoundary: { maxTasks: b.max_tasks, maxWallTimeSeconds: b.max_wall_time_seconds, allowedTools: b.allowed_tools, maxCostUsd: b.max_cost_usd, allowedSideEffects: b.allowed_side_effects },
    },
    versions: await currentVersions(database.db, body.agent, { parentIfNoDefault: parent.digest }),
    declaredBy: actor.id,
    declaredAt: declaredAt.toISOString(),
  };
}

// The receipt's own schema, with the candidate still open: what binding completes.
const ZDeclared = ZStage1.omit({ candidate: true }).extend({ candidate: ZCandidateDeclaration.pick({ resourceId: true }).optional() });

export async function declareReceipt(database: Database, actor: Actor, body: DeclareReceiptBody): Promise<{ receiptId: string; declaration: StoredDeclaration }> {
  const declaredAt = new Date();
  const stage1 = await declaredStage1(database, actor, body, declaredAt);
  const checked = ZDeclared.safeParse(stage1);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw badField(snakeFieldOf(issue.path), issue.message);
  }
  const declaration: StoredDeclaration = { ...stage1, trainingResourcesIds: body.training_data.resources_ids ?? [] };
  const id = newReceiptId();
  await database.transaction(
    async (tx) => {
      await tx.receiptDeclaration.create({ data: { id, agent: body.agent, declaration: canonicalJson(declaration), declaredById: actor.id, declaredAt } });
      await appendAudit(tx, { actor, action: "receipt.declare", target: { type: "receipt", id }, after: { agent: body.agent, parent: stage1.parent, heldOut: stage1.data.heldOut, canary: stage1.data.canary, evaluator: stage1.evaluator } });
    },
    { locks: [AUDIT_LOCK] },
  );
  return { receiptId: id, declaration };
}
