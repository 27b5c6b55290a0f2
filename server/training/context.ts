// Everything a run needs besides its own row, resolved from pinned references: the environment and task
// distribution, the pin of the locked held-out set (its digest only: the learner never holds the exam's
// tasks), the trainer's own validation split, the training snapshot (re-verified against its digest) and
// the exact parent resource (store resources id + version, checked against the digest the run recorded).
import type { Database } from "@/server/db/client";
import { loadSnapshot } from "@/server/datasets/snapshot";
import { environments } from "@/server/environments/registry";
import type { TaskDistribution } from "@/server/environments/types";
import { DomainError } from "@/server/errors";
import type { LightningStore } from "@/server/store";
import { pinnedDigest } from "@/server/store/resources";
import { lockedSetPin, lockValidationSet, type HeldOutPin, type HeldOutSet } from "@/server/trainers/evaluate";
import { familyOf } from "@/server/trainers/families";
import type { AnyEnvironment, FamilyName, LoadedData } from "@/server/trainers/family";
import type { CandidateResource } from "@/server/trainers/family";
import { CLUSTERS_RESOURCE_TYPE, clustersResource, initialClusters } from "@/server/trainers/advanced/pattern-discovery";
import { initialPolicy, type PolicyKind } from "@/server/trainers/policy";
import { fromPolicyResource, POLICY_RESOURCE_TYPE, toPolicyResource } from "@/server/trainers/policy-resource";
import { promptResource, promptTemplate } from "@/server/trainers/prompt/template";
import { distributionOf } from "@/server/runner/episode-input";

/** The prompt a prompt-optimization run starts from when no parent is chosen. */
const STARTER_PROMPT = "You are a support agent. Answer the customer's question.\n{ticket}";

export type ParentRef = { resourcesId: string; version: number; digest: string };

/** The NamedResources key a candidate is published under and a parent read from (runners read policies from "policy"). */
export const entryName = (resourceType: string) => (resourceType === "lightgate_policy" ? "policy" : resourceType);

export type RunContext = {
  environment: AnyEnvironment;
  distribution: TaskDistribution;
  /** The exam the gate judges on, by pin. */
  heldOut: HeldOutPin;
  /** What the worker evaluates every update (and the parent) on, and families monitor with. */
  validation: HeldOutSet;
  data: LoadedData | null;
  /** The parent resource itself (a policy, a prompt template, task clusters). */
  parent: unknown;
  parentRef: ParentRef;
};

export function environmentOf(id: string): AnyEnvironment {
  if (!environments.has(id)) throw new DomainError("BAD_REQUEST", `environment: no environment "${id}" is registered`, "environment");
  return environments.get(id);
}

export function distributionFor(env: AnyEnvironment, version: string): TaskDistribution {
  try {
    return distributionOf(env, version);
  } catch (e) {
    throw new DomainError("BAD_REQUEST", `distribution: ${(e as Error).message}`, "distribution");
  }
}

/** The resource a family trains, out of a resources update's single entry (policies digest-checked). */
export function resourceEntry(resources: Record<string, unknown>): unknown {
  const entries = Object.values(resources);
  if (entries.length !== 1) throw new DomainError("BAD_REQUEST", `parent: expected one resource in the parent's resources update, found ${entries.length}`, "parent");
  const entry = entries[0] as { resource_type?: string; clusters?: unknown };
  if (entry?.resource_type === POLICY_RESOURCE_TYPE) return fromPolicyResource(entry);
  if (entry?.resource_type === CLUSTERS_RESOURCE_TYPE) return entry.clusters;
  return entry;
}

/** The exact parent version from the store, refused when missing or when its digest moved. */
export async function loadParent(store: LightningStore, ref: { resourcesId: string; version: number; digest?: string }): Promise<{ parent: unknown; parentRef: ParentRef }> {
  const v = await store.resourcesVersion(ref.resourcesId, ref.version);
  if (!v) throw new DomainError("BAD_REQUEST", `parent: ${ref.resourcesId} v${ref.version} is not in the store`, "parent");
  // Runs recorded before digests were spelled "sha256:<hex>" pinned the bare hex: the same digest.
  if (ref.digest && v.digest !== pinnedDigest(ref.digest)) throw new DomainError("PRECONDITION_FAILED", `parent: ${ref.resourcesId} v${ref.version} is ${v.digest}, the run pinned ${ref.digest}`, "parent");
  return { parent: resourceEntry(v.resources), parentRef: { resourcesId: v.resources_id, version: v.version, digest: v.digest } };
}

/** The ids of the untrained parents below start so (external trainings tell Lightgate's own lineages by it). */
export const INITIAL_PARENT_PREFIX = "initial-";

/** The untrained policy of a kind for an environment, published once under a fixed id (the default parent). */
export async function ensureInitialParent(store: LightningStore, env: AnyEnvironment, family: FamilyName): Promise<ParentRef> {
  const def = familyOf(family);
  const entry: CandidateResource =
    def.resourceKind === "policy" ? toPolicyResource(initialPolicy(def.parentKind as PolicyKind, env)) : def.resourceKind === "prompt-template" ? promptResource(promptTemplate(STARTER_PROMPT)) : clustersResource(initialClusters(env));
  const id = `${INITIAL_PARENT_PREFIX}${env.id}-${def.parentKind}`;
  const name = entryName(entry.resource_type);
  const versions = await store.resourcesVersions(id);
  const same = versions.find((v) => (v.resources[name] as { digest?: string } | undefined)?.digest === entry.digest);
  if (same) return { resourcesId: id, version: same.version, digest: same.digest };
  const u = await store.updateResources(id, { [name]: entry as unknown as Record<string, never> });
  const pinned = await store.resourcesVersion(id, u.version);
  return { resourcesId: id, version: u.version, digest: pinned!.digest };
}

/** Every run of a distribution validates on the same split (runs and sweep configs stay comparable). */
export function trainingValidationSet(environment: AnyEnvironment, distribution: TaskDistribution, cases: number): HeldOutSet {
  return lockValidationSet(environment, distribution, cases, "train");
}

export type RunPins = { environment: string; distribution: string; heldOutCases: number; dataSnapshotDigest: string | null; parentResourcesId: string; parentVersion: number; parentDigest: string };

export async function resolveRunContext(database: Database, store: LightningStore, run: RunPins): Promise<RunContext> {
  const environment = environmentOf(run.environment);
  const distribution = distributionFor(environment, run.distribution);
  const data = run.dataSnapshotDigest ? await loadSnapshot(database, run.dataSnapshotDigest) : null;
  const { parent, parentRef } = await loadParent(store, { resourcesId: run.parentResourcesId, version: run.parentVersion, digest: run.parentDigest });
  return {
    environment,
    distribution,
    heldOut: lockedSetPin(environment, distribution, run.heldOutCases, "gate"),
    validation: trainingValidationSet(environment, distribution, run.heldOutCases),
    data: data ? { id: data.id, digest: data.digest, records: data.records } : null,
    parent,
    parentRef,
  };
}
