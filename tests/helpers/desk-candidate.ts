// A desk candidate as a training run would declare it, registered straight into a database: its exact parent
// and itself in the store (policies under "policy", prompt templates under "prompt_template" as a run
// publishes them), stage 1 pinning the desk's published exam, evaluator and boundary. No
// test framework here, so the gate-run bench registers candidates the same way the tests do.
import type { Database } from "@/server/db/client";
import { digestOf, type Digest } from "@/server/digest";
import { registerCandidate } from "@/server/candidates/register";
import { DESK_EVALUATOR } from "@/server/desk/registry";
import { createSupportDesk } from "@/server/environments/support-desk";
import type { Stage1 } from "@/server/gate/receipt/stage1";
import { adoptRootDefault } from "@/server/receipts/default-pointer";
import { currentVersions } from "@/server/receipts/versions";
import type { LightningStore } from "@/server/store";
import type { JsonObject, NamedResources } from "@/server/store/types";
import { expectedEvidenceFor } from "@/server/trainers/stage1";
import { toPolicyResource } from "@/server/trainers/policy-resource";
import type { Policy } from "@/server/trainers/policy";
import { promptResource, PROMPT_RESOURCE_TYPE, type PromptTemplate } from "@/server/trainers/prompt/template";

const desk = createSupportDesk();
const SETUP = { kind: "system" as const, id: "desk-setup", name: "Desk setup", grants: [] };
export const DESK_ALGORITHM = { kind: "service" as const, id: "svc-desk-trainer", name: "desk trainer", grants: [{ role: "algorithm" as const, agent: null }] };

export type DeskWorldLike = { database: Database; store: LightningStore; agent: string; datasets: { heldOut: string; canary: string } };

export type DeskActor = Policy | PromptTemplate;
const isPrompt = (a: DeskActor): a is PromptTemplate => (a as PromptTemplate).resource_type === PROMPT_RESOURCE_TYPE;

async function putActor(store: LightningStore, id: string, actor: DeskActor) {
  const entry: NamedResources = isPrompt(actor) ? { prompt_template: promptResource(actor) as unknown as JsonObject } : { policy: toPolicyResource(actor) as unknown as JsonObject };
  const put = await store.updateResources(id, entry);
  const v = (await store.resourcesVersion(id, put.version))!;
  return { resourceId: id, version: v.version, digest: v.digest as Digest };
}

export type DeskCandidateOptions = { name: string; parent: DeskActor; candidate: DeskActor; boundary?: Partial<Stage1["expectedEvidence"]["canaryBoundary"]> };

/** Registers a desk candidate against its exact parent (adopted as the agent's lineage root the first time). */
export async function registerDeskCandidate(world: DeskWorldLike, opts: DeskCandidateOptions) {
  const parent = await putActor(world.store, `rs-${opts.name}-base`, opts.parent);
  const candidate = await putActor(world.store, `rs-${opts.name}-tuned`, opts.candidate);
  await adoptRootDefault(world.database, { agent: world.agent, target: parent, actor: SETUP, reason: "the desk's untrained policy, in production before its first candidate" }).catch(() => {});
  const db = world.database.db;
  const datasetPin = async (id: string) => {
    const d = await db.gateDataset.findUniqueOrThrow({ where: { id } });
    return { id: d.id, digest: d.digest as Digest, caseCount: d.caseCount };
  };
  const evaluator = await db.registryEntry.findFirstOrThrow({ where: { kind: "evaluator", name: DESK_EVALUATOR.id, agent: world.agent } });
  const expected = expectedEvidenceFor(desk, ["reward"], 0);
  const training = { id: `ds-desk-train-${opts.name}`, digest: digestOf({ train: opts.name }) as Digest };
  await db.datasetSnapshot.upsert({ where: { id: training.id }, create: { id: training.id, name: `train ${opts.name}`, version: 1, digest: training.digest, recordCount: 0, kinds: "task", lineage: "{}", createdBy: "setup" }, update: {} });
  const stage1: Stage1 = {
    agent: world.agent,
    candidate,
    parent,
    data: { training, heldOut: await datasetPin(world.datasets.heldOut), canary: await datasetPin(world.datasets.canary) },
    evaluator: { id: evaluator.name, version: evaluator.version, digest: evaluator.digest as Digest },
    algorithm: isPrompt(opts.candidate) ? { name: "prompt-optimization", config: { scorer: "builtin" } } : { name: "supervised", config: { updates: 10 } },
    codeRevision: "0a1b2c3d4e5f",
    scope: { tasks: ["support-desk/v2"], tools: expected.canaryBoundary.allowedTools, destinations: ["support-desk:tickets"] },
    approvers: { canary: { actorIds: [], roles: ["canary_approver"] }, default: { actorIds: [], roles: ["release_approver"] } },
    expectedEvidence: { ...expected, canaryBoundary: { ...expected.canaryBoundary, ...opts.boundary } },
    versions: await currentVersions(db, world.agent),
    declaredBy: DESK_ALGORITHM.id,
    declaredAt: new Date().toISOString(),
  };
  const registered = await registerCandidate(world.database, { agent: world.agent, resource: { resourcesId: candidate.resourceId, version: candidate.version, digest: candidate.digest }, stage1, actor: DESK_ALGORITHM });
  return { candidateId: registered.id, parent, candidate };
}
