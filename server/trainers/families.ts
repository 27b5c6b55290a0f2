// The family registry: every learning family with its zod config schema (field-named messages), its
// defaults and a one-line description, and one way to run any of them — from an exact parent, with a
// seed and pinned data, for N updates — producing a candidate resource and the facts stage 1 of its
// receipt needs. Training runs drive families only through here; checkpoints round-trip as sealed JSON.
import type { z } from "zod";
import type { JsonObject } from "@/server/gate/digest";
import type { Digest } from "@/server/digest";
import type { FieldSpec } from "@/lib/training/config-hints";
import { openSealed, sealJson } from "./algorithm";
import { configFieldSpecs } from "./config-form";
import { curriculumFamily } from "./advanced/curriculum";
import { CLUSTERS_RESOURCE_TYPE, clustersResource, patternDiscoveryFamily, type TaskClusters } from "./advanced/pattern-discovery";
import { reptileFamily } from "./advanced/reptile";
import { continualFamily } from "./continual/continual";
import { onlineFamily } from "./continual/online";
import { isLockedSet } from "./evaluate";
import { FAMILY_NAMES, type CandidateResource, type FamilyContext, type FamilyDefinition, type FamilyName, type FamilySession, type FamilyUpdate, type ResourceKind } from "./family";
import { behaviourCloningFamily } from "./imitation/behaviour-cloning";
import { maxentIrlFamily } from "./imitation/maxent-irl";
import { dqnMlpFamily } from "./neural/dqn-mlp";
import { ppoMlpFamily } from "./neural/ppo-mlp";
import { textPolicyFamily } from "./text/text-policy";
import type { Policy } from "./policy";
import { policyDigest } from "./policy-resource";
import { promptOptimizationFamily, resolveScorer } from "./prompt/apo";
import { promptResource, type PromptTemplate } from "./prompt/template";
import { ppoFamily, qLearningFamily } from "./rl-families";
import { CODE_REVISION, distributionDataRef, expectedEvidenceFor, type Stage1Facts } from "./stage1";
import { feedbackFamily } from "./supervised/feedback";
import { fineTuneFamily } from "./supervised/fine-tune";
import { supervisedFamily } from "./supervised/supervised";
import { ownValue } from "@/lib/own";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFamily = FamilyDefinition<z.ZodType, any>;

export const FAMILIES: Record<FamilyName, AnyFamily> = {
  ppo: ppoFamily,
  "q-learning": qLearningFamily,
  supervised: supervisedFamily,
  feedback: feedbackFamily,
  "fine-tune": fineTuneFamily,
  "behaviour-cloning": behaviourCloningFamily,
  "maxent-irl": maxentIrlFamily,
  continual: continualFamily,
  online: onlineFamily,
  curriculum: curriculumFamily,
  reptile: reptileFamily,
  "pattern-discovery": patternDiscoveryFamily,
  "prompt-optimization": promptOptimizationFamily,
  "ppo-mlp": ppoMlpFamily,
  "text-policy": textPolicyFamily,
  "dqn-mlp": dqnMlpFamily,
};

export function familyOf(name: string): AnyFamily {
  const f = ownValue(FAMILIES as Record<string, AnyFamily>, name);
  if (!f) throw new Error(`unknown learning family "${name}" (known: ${FAMILY_NAMES.join(", ")})`);
  return f;
}

/** Config problems as "path: message" (empty when valid) — what a form shows next to each field. */
export function familyConfigProblems(name: FamilyName, input: unknown): string[] {
  const r = familyOf(name).configSchema.safeParse(input ?? {});
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".") || "config"}: ${i.message}`);
}

export function parseFamilyConfig(name: FamilyName, input: unknown): unknown {
  const problems = familyConfigProblems(name, input);
  if (problems.length) throw new Error(`invalid ${name} config: ${problems.join("; ")}`);
  return familyOf(name).configSchema.parse(input ?? {});
}

/** `fields`: each option's type, bounds, choices and description, for the form's hints (config-form.ts). */
export type FamilyInfo = { name: FamilyName; description: string; resourceKind: ResourceKind; parentKind: string; reads: string[]; defaults: unknown; required: string[]; fields: Record<string, FieldSpec> };

/** Every family, for the training page: name, description, what it makes and reads, default config. */
export function listFamilies(): FamilyInfo[] {
  return FAMILY_NAMES.map((name) => {
    const f = FAMILIES[name];
    // A family with a required field (fine-tune's domain) has no complete default: name what must be given.
    const parsed = f.configSchema.safeParse({});
    const required = parsed.success ? [] : parsed.error.issues.map((i) => i.path.join("."));
    return { name, description: f.description, resourceKind: f.resourceKind, parentKind: f.parentKind, reads: [...f.reads], defaults: parsed.success ? parsed.data : null, required, fields: configFieldSpecs(f.configSchema) };
  });
}

/** Content digest of a parent resource of any kind (policies as their resources digest them). */
export function resourceDigest(kind: ResourceKind, resource: unknown): Digest {
  if (kind === "policy") return policyDigest(resource as Policy);
  if (kind === "prompt-template") return promptResource(resource as PromptTemplate).digest;
  return clustersResource(resource as TaskClusters).digest;
}

const RESOURCE_TYPE: Record<ResourceKind, string> = { policy: "lightgate_policy", "prompt-template": "prompt_template", "task-clusters": CLUSTERS_RESOURCE_TYPE };

export type FamilyRunInit = FamilyContext & {
  family: FamilyName;
  config: unknown;
  /** The exact parent resource (a policy, a prompt template or task clusters). */
  parent: unknown;
  /** The commit the trainer code was built from (7–64 lowercase hex). */
  codeRevision: string;
  /** Unexpected retries the candidate's evidence may show (stage 1's retry budget). */
  retryBudget?: number;
};

export type StartedFamily = { family: FamilyName; session: FamilySession; facts: Stage1Facts; init: FamilyRunInit };

/**
 * Refuses a context that would hand the learner the exam: a validation split drawn from the locked
 * held-out namespace. The exam itself is kept to its pin.
 */
function learnerContext<C extends FamilyContext>(init: C): C {
  if (init.validation && isLockedSet(init.validation)) throw new LockedSetRefused(`validation: a trainer never reads the locked held-out set (${init.validation.label}); give it a split of its own (lockValidationSet)`);
  // Only the pin's three fields travel on, whatever object was given.
  const h = init.heldOut;
  return { ...init, heldOut: h ? { id: h.id, digest: h.digest, caseCount: h.caseCount } : null };
}

/** A learner asked for the locked held-out set. */
export class LockedSetRefused extends Error {
  override readonly name = "LockedSetRefused";
}

export function startFamily(input: FamilyRunInit, state?: unknown): StartedFamily {
  const init = learnerContext(input);
  const def = familyOf(init.family);
  if (!CODE_REVISION.test(init.codeRevision)) throw new Error(`codeRevision must be a commit hash (7–64 lowercase hex), got "${init.codeRevision}"`);
  const config = parseFamilyConfig(init.family, init.config) as Record<string, unknown>;
  if (init.family === "prompt-optimization" && !config.resolvedScorer) config.resolvedScorer = resolveScorer(config as never).id;
  const parent = def.parentOf(init.parent, init.environment);
  for (const kind of def.reads) {
    if (!init.data?.records.some((r) => r.kind === kind)) throw new Error(`${init.family} reads ${kind} records: the training snapshot ${init.data ? `${init.data.id} has none` : "is missing"}`);
  }
  const session = def.start({ ...init, config, parent }, state);
  const dist = init.distribution;
  const facts: Stage1Facts = {
    algorithm: { name: init.family, config: JSON.parse(JSON.stringify(config)) as JsonObject },
    parent: { resourceType: RESOURCE_TYPE[def.resourceKind], digest: resourceDigest(def.resourceKind, parent) },
    environment: { id: init.environment.id, specDigest: init.environment.specDigest },
    taskDistribution: { environment: dist.environment, version: dist.version, digest: dist.digest },
    data: {
      training: def.reads.length && init.data ? { id: init.data.id, digest: init.data.digest, kind: "dataset-snapshot" } : distributionDataRef(dist),
      heldOut: init.heldOut,
    },
    codeRevision: init.codeRevision,
    expectedEvidence: expectedEvidenceFor(init.environment, def.spanFamilies, init.retryBudget ?? 0),
    toolContracts: Object.fromEntries(init.environment.tools.map((t) => [t.name, t.digest])),
  };
  return { family: init.family, session, facts, init: { ...init, config } };
}

export type FamilyRunResult = { candidate: CandidateResource; history: FamilyUpdate[]; report: Record<string, unknown>; facts: Stage1Facts; updates: number };

/** Runs up to `updates` updates (fewer when the family finishes first) and returns the candidate and facts. */
export async function runFamily(init: FamilyRunInit, updates: number): Promise<FamilyRunResult> {
  if (!Number.isInteger(updates) || updates < 1) throw new Error("updates must be a positive whole number");
  const started = startFamily(init);
  return continueFamily(started, updates);
}

export async function continueFamily(started: StartedFamily, updates: number): Promise<FamilyRunResult> {
  const history: FamilyUpdate[] = [];
  for (let i = 0; i < updates && !started.session.finished; i++) history.push(await started.session.step());
  return { candidate: started.session.candidate(), history, report: started.session.report(), facts: started.facts, updates: started.session.updates };
}

export const FAMILY_CHECKPOINT_FORMAT = "lightgate.family-checkpoint/1";

export type FamilyCheckpoint = {
  format: typeof FAMILY_CHECKPOINT_FORMAT;
  family: FamilyName;
  config: unknown;
  seed: string;
  parent: unknown;
  facts: Stage1Facts;
  updates: number;
  state: unknown;
  digest: Digest;
};

export function checkpointFamily(started: StartedFamily): FamilyCheckpoint {
  return sealJson({
    format: FAMILY_CHECKPOINT_FORMAT,
    family: started.family,
    config: started.init.config,
    seed: started.init.seed,
    parent: started.init.parent,
    facts: started.facts,
    updates: started.session.updates,
    state: JSON.parse(JSON.stringify(started.session.state())),
  } as const);
}

/** Continues a run from its checkpoint; the context must pin the same environment, distribution and data. */
export function restoreFamily(input: unknown, ctx: FamilyContext): StartedFamily {
  const c = openSealed<FamilyCheckpoint>(input, FAMILY_CHECKPOINT_FORMAT, "family checkpoint");
  const f = c.facts;
  if (f.environment.id !== ctx.environment.id || f.environment.specDigest !== ctx.environment.specDigest) throw new Error(`checkpoint is for ${f.environment.id} ${f.environment.specDigest}`);
  if (f.taskDistribution.digest !== ctx.distribution.digest) throw new Error(`checkpoint pins task distribution ${f.taskDistribution.version} (${f.taskDistribution.digest})`);
  if (f.data.training.kind === "dataset-snapshot" && f.data.training.digest !== ctx.data?.digest) throw new Error(`checkpoint pins training snapshot ${f.data.training.id} (${f.data.training.digest})`);
  if (f.data.heldOut && f.data.heldOut.digest !== ctx.heldOut?.digest) throw new Error(`checkpoint pins held-out set ${f.data.heldOut.digest}`);
  const restored = startFamily({ ...ctx, seed: c.seed, family: c.family, config: c.config, parent: c.parent, codeRevision: f.codeRevision, retryBudget: f.expectedEvidence.retryBudget.unexpectedRetries }, c.state);
  return { ...restored, facts: f };
}
