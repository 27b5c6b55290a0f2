// A run's candidate reaches the gate: published into the store as a resources update (so Agent Lightning
// tooling sees it), then registered with its stage-1 declaration — which moves the agent's latest-candidate
// pointer and nothing else. The receipt context (evaluator, approvers, model server, destinations) is the
// deployment's — and so is the exam: the held-out and canary datasets the agent's policy owner published —;
// the facts (exact parent, data, config, code revision, expected evidence) are the run's.
import type { AuditActor } from "@/server/audit/audit-log";
import { registerCandidate } from "@/server/candidates/register";
import type { Database, Db } from "@/server/db/client";
import { digestOf, type Digest } from "@/server/digest";
import type { EvaluatorRef } from "@/server/gate/receipt/refs";
import { currentEntries } from "@/server/receipts/registries";
import { latestOf } from "@/server/receipts/versions";
import { DEFAULT_REWARD_WEIGHTS } from "@/server/environments/types";
import type { LightningStore } from "@/server/store";
import type { HeldOutPin } from "@/server/trainers/evaluate";
import type { CandidateResource } from "@/server/trainers/family";
import { stage1Receipt, type Stage1Facts } from "@/server/trainers/stage1";
import { APP_VERSION } from "@/server/version";
import { entryName, type ParentRef } from "./context";
import { publishedGateDatasets } from "@/server/receipts/gate-datasets";

/** Each candidate under its own resources id, so the rollouts that ran it (its stage 2) are exactly its own. */
export const candidateResourcesId = (runId: string, update: number) => `${runId}-u${update}`;

export type PublishInput = {
  run: { id: string; agent: string; environment: string; startedById: string };
  update: number;
  facts: Stage1Facts;
  candidate: CandidateResource;
  parent: ParentRef;
  heldOut: HeldOutPin;
  actor: AuditActor;
};

/** An evaluator name for an agent with none registered: the gate will refuse it, saying it is not in the registry. */
export function evaluatorFor(environment: string, heldOut: HeldOutPin): EvaluatorRef {
  return { id: `${environment}-held-out`, version: "1", digest: digestOf({ heldOut: heldOut.digest, weights: DEFAULT_REWARD_WEIGHTS }) };
}

/** The evaluator stage 1 pins: the agent's current registry record — the one the gate resolves — when there is one. */
export async function pinnedEvaluator(db: Db, agent: string, environment: string, heldOut: HeldOutPin): Promise<EvaluatorRef> {
  const registered = latestOf(await currentEntries(db, agent), "evaluator");
  return registered ? { id: registered.name, version: registered.version, digest: registered.digest } : evaluatorFor(environment, heldOut);
}

export async function publishCandidate(database: Database, store: LightningStore, input: PublishInput) {
  const resourcesId = candidateResourcesId(input.run.id, input.update);
  const update = await store.updateResources(resourcesId, { [entryName(input.candidate.resource_type)]: input.candidate as unknown as Record<string, never> });
  const pinned = await store.resourcesVersion(resourcesId, update.version);
  if (!pinned) throw new Error(`${resourcesId} v${update.version} vanished right after it was written`);
  const digest = pinned.digest as Digest;
  const stage1 = stage1Receipt(input.facts, {
    agent: input.run.agent,
    candidate: { resourceId: resourcesId, version: pinned.version, digest },
    // The exact parent as the store pins it: the resources-version digest the run recorded and the gate re-loads.
    parent: { resourceId: input.parent.resourcesId, version: input.parent.version, digest: input.parent.digest as Digest },
    evaluator: await pinnedEvaluator(database.db, input.run.agent, input.run.environment, input.heldOut),
    approvers: { canary: { actorIds: [], roles: ["canary_approver", "release_approver"] }, default: { actorIds: [], roles: ["release_approver"] } },
    modelServer: `lightgate-policy-server@${APP_VERSION}`,
    destinations: [`${input.run.environment}:tickets`],
    declaredBy: input.run.startedById,
    declaredAt: new Date().toISOString(),
    gateData: await publishedGateDatasets(database.db, input.run.agent),
  });
  const candidate = await registerCandidate(database, {
    agent: input.run.agent,
    resource: { resourcesId, version: pinned.version, digest },
    trainingRunId: input.run.id,
    stage1,
    actor: input.actor,
  });
  return { candidateId: candidate.id, resourcesId, version: pinned.version, digest };
}
