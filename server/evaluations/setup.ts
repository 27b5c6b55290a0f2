// What an evaluation or A/B test acts on: the support desk at its v2 task distribution, a locked
// held-out set of the requested size, the training data (demonstrations from the scripted expert, or a
// stored snapshot by digest), the parent a family starts from, and a stored policy resource.
import { z } from "zod";
import type { Database } from "@/server/db/client";
import { loadSnapshot } from "@/server/datasets/snapshot";
import type { DatasetRecord } from "@/server/datasets/records";
import { digestOf, type Digest } from "@/server/digest";
import { createSupportDesk, findDistribution } from "@/server/environments/support-desk";
import { deskDomainOfTask, DESK_DOMAIN_NAMES } from "@/server/environments/support-desk/domains";
import { deskExpert } from "@/server/environments/support-desk/expert";
import { badInput } from "@/server/errors";
import { collectDemonstrations } from "@/server/trainers/data-sources";
import { lockHeldOutSet, lockValidationSet, type HeldOutSet } from "@/server/trainers/evaluate";
import type { FamilyName, LoadedData } from "@/server/trainers/family";
import { familyConfigProblems, familyOf } from "@/server/trainers/families";
import { FAMILY_NAMES } from "@/server/trainers/family";
import { initialPolicy, type Policy } from "@/server/trainers/policy";
import { fromPolicyResource, POLICY_RESOURCE_TYPE } from "@/server/trainers/policy-resource";

export const DESK = createSupportDesk();
export const DISTRIBUTION = findDistribution("v2");
export const CODE_REVISION = "0000000";
export { DESK_DOMAIN_NAMES };

const digest = z.string().regex(/^sha256:[0-9a-f]{64}$/, "digest must be sha256:<64 lowercase hex>");

/** Where the training records come from. */
export const ZDataSource = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("expert"),
      /** Demonstrations by the scripted expert (three quarters) and a sloppy one (a quarter). */
      count: z.number().int().min(20, "count must be ≥ 20").max(2000, "count must be ≤ 2000").default(120),
    })
    .strict(),
  z.object({ kind: z.literal("snapshot"), digest }).strict(),
]);
export type DataSource = z.output<typeof ZDataSource>;

/** A learning family with its config, checked against the family's own schema. */
export const ZFamilyConfig = z
  .object({
    family: z.enum(FAMILY_NAMES),
    config: z.record(z.string(), z.unknown()).default({}),
    updates: z.number().int().min(1, "updates must be ≥ 1").max(200, "updates must be ≤ 200").default(30),
  })
  .strict();
export type FamilyConfig = z.output<typeof ZFamilyConfig>;

export const heldOutSize = z.number().int().min(20, "heldOutSize must be ≥ 20").max(1000, "heldOutSize must be ≤ 1000").default(200);

export function heldOutSet(size: number, label = "evaluation"): HeldOutSet {
  return lockHeldOutSet(DESK, DISTRIBUTION, size, label);
}

/** What a family trained inside an evaluation monitors with (online rollback): a split apart from the tasks it is scored on. */
export const TRAINING_VALIDATION = lockValidationSet(DESK, DISTRIBUTION, 100, "evaluation");

/**
 * Refuses a family the evaluation cannot score (it must make a policy) or whose config is invalid,
 * naming the field (`field` is where the family config sits in the request, e.g. "a").
 */
export function checkFamilyConfig(f: FamilyConfig, field: string, data: DataSource): void {
  const def = familyOf(f.family);
  if (def.resourceKind !== "policy") throw badInput(`${field}.family`, `${f.family} makes a ${def.resourceKind}, not a policy: only policies can be scored on the held-out set`);
  const problems = familyConfigProblems(f.family, f.config);
  if (problems.length) throw badInput(`${field}.config`, problems.join("; "));
  if (data.kind === "expert") {
    const missing = def.reads.filter((k) => k !== "demonstration");
    if (missing.length) throw badInput(`${field}.family`, `${f.family} reads ${missing.join(" and ")} records; the scripted expert only gives demonstrations — pick a snapshot that holds them`);
  }
}

export function parentFor(family: FamilyName): Policy {
  return initialPolicy(familyOf(family).parentKind as Policy["kind"], DESK);
}

const loaded = (records: readonly DatasetRecord[], id: string): LoadedData => {
  const sorted = [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { id, digest: digestOf(sorted) as Digest, records: sorted };
};

/** Expert demonstrations for one seed (domain-labelled, time-stamped), as a loaded snapshot. */
export function expertData(count: number, seed: string): LoadedData {
  const demos = collectDemonstrations(
    DESK,
    [
      { id: "expert", policyFor: (t) => deskExpert(t, 0.03), share: 3 },
      { id: "novice", policyFor: (t) => deskExpert(t, 0.4), share: 1 },
    ],
    { distribution: DISTRIBUTION, count, seed, domainOf: deskDomainOfTask, startAt: "2026-03-01T00:00:00.000Z" },
  );
  return loaded(demos, `expert-${count}`);
}

/** The data a source names: regenerated per seed for the expert, the same stored snapshot otherwise. */
export async function dataResolver(database: Database, source: DataSource, field = "data"): Promise<(seed: string) => LoadedData> {
  if (source.kind === "expert") return (seed) => expertData(source.count, seed);
  const snap = await loadSnapshot(database, source.digest).catch((e: Error) => {
    throw badInput(`${field}.digest`, e.message);
  });
  const data = { id: snap.id, digest: snap.digest, records: snap.records };
  return () => data;
}

/** A policy stored as a resources version (the first `lightgate_policy` entry). */
export async function storedPolicy(database: Database, resourcesId: string, version: number): Promise<Policy> {
  const row = await database.db.storeResourcesVersion.findUnique({ where: { resourcesId_version: { resourcesId, version } } });
  if (!row) throw badInput("subject.resourcesId", `no resources ${resourcesId} version ${version}`);
  const entries = Object.values(JSON.parse(row.resources) as Record<string, { resource_type?: string }>);
  const entry = entries.find((e) => e?.resource_type === POLICY_RESOURCE_TYPE);
  if (!entry) throw badInput("subject.resourcesId", `resources ${resourcesId} v${version} holds no ${POLICY_RESOURCE_TYPE} entry`);
  return fromPolicyResource(entry);
}

/** Lets the server answer requests between the steps of a long in-process job. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Refuses a snapshot digest that names no stored snapshot before a job is recorded. */
export async function assertDataExists(database: Database, source: DataSource, field = "data"): Promise<void> {
  if (source.kind !== "snapshot") return;
  const row = await database.db.datasetSnapshot.findUnique({ where: { digest: source.digest }, select: { id: true } });
  if (!row) throw badInput(`${field}.digest`, `no dataset snapshot ${source.digest}`);
}
