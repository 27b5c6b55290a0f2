// The contract every learning family implements so the registry (families.ts) can start, step,
// checkpoint and restore any of them the same way: an exact parent resource, a validated config, a
// seed, the pinned data it reads, and one `step()` per update. Families that learn from a dataset
// count one epoch (or one stream batch, or one search round) as an update; families that act in the
// environment count one collect-and-learn round.
import type { z } from "zod";
import type { DatasetRecord, RecordKind } from "@/server/datasets/records";
import type { Digest } from "@/server/digest";
import type { Environment, TaskDistribution } from "@/server/environments/types";
import type { Trajectory } from "@/server/environments/trajectory";
import type { HeldOutPin, HeldOutSet } from "./evaluate";
import { assertPolicyFits, GREEDY, type Policy, type PolicyKind, type SoftmaxLinearPolicy } from "./policy";
import { toPolicyResource } from "./policy-resource";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEnvironment = Environment<any, any>;

export const FAMILY_NAMES = [
  "ppo",
  "q-learning",
  "supervised",
  "feedback",
  "fine-tune",
  "behaviour-cloning",
  "maxent-irl",
  "continual",
  "online",
  "curriculum",
  "reptile",
  "pattern-discovery",
  "prompt-optimization",
  "ppo-mlp",
  "dqn-mlp",
  "text-policy",
] as const;
export type FamilyName = (typeof FAMILY_NAMES)[number];

/** What a family produces and what its parent must be. */
export type ResourceKind = "policy" | "prompt-template" | "task-clusters";

/** Any candidate resource: a JSON object with its resource type and content digest. */
export type CandidateResource = { resource_type: string; digest: Digest } & Record<string, unknown>;

/** A dataset snapshot as a family reads it: pinned by id and digest, records already verified. */
export type LoadedData = { id: string; digest: Digest; records: readonly DatasetRecord[] };

export type FamilyContext = {
  environment: AnyEnvironment;
  /** The task distribution the family acts on or evaluates against (and the receipt's task scope). */
  distribution: TaskDistribution;
  seed: string;
  /** The training snapshot, for families that read one. */
  data: LoadedData | null;
  /**
   * The locked held-out set the gate will judge on, known by its pin only: a learner never reads the exam's
   * tasks or expected answers (stage 1 pins it).
   */
  heldOut: HeldOutPin | null;
  /** The trainer's own validation split (validation namespace): what families select, monitor and plot on. */
  validation?: HeldOutSet | null;
};

export type FamilyUpdate = { update: number; finished: boolean; figures: Record<string, number>; note?: string };

export interface FamilySession {
  readonly family: FamilyName;
  readonly updates: number;
  /** True when the family has nothing more to do (early stopping, end of its stream, converged search). */
  readonly finished: boolean;
  step(): Promise<FamilyUpdate>;
  candidate(): CandidateResource;
  /** Family-specific figures and decisions for the run's report (JSON). */
  report(): Record<string, unknown>;
  /** Everything needed to continue exactly (JSON). */
  state(): unknown;
}

/** A batch of episodes someone else collected: their trajectories, the retries they took and their span coverage. */
export type CollectedBatch = { trajectories: readonly Trajectory[]; retries: number; coverage: number | null };

/**
 * A family whose episodes may be collected by runner processes through the store (a trainer worker's run), as
 * Agent Lightning algorithms collect theirs: the policy to act with next, and one update from what came back.
 * `step()` stays the in-process path (the same learning on a batch this process collects).
 */
export interface RunnerCollected {
  collectionPolicy(): Policy;
  learn(batch: CollectedBatch): Promise<FamilyUpdate>;
}

export function isRunnerCollected(s: FamilySession): s is FamilySession & RunnerCollected {
  return typeof (s as Partial<RunnerCollected>).collectionPolicy === "function" && typeof (s as Partial<RunnerCollected>).learn === "function";
}

export type FamilyStart<C, P> = FamilyContext & { config: C; parent: P };

export type FamilyDefinition<S extends z.ZodType = z.ZodType, P = unknown> = {
  name: FamilyName;
  description: string;
  resourceKind: ResourceKind;
  /** The kind of policy the parent must be (policy families), or the parent resource type. */
  parentKind: PolicyKind | "prompt_template" | "lightgate_task_clusters";
  configSchema: S;
  /** Record kinds read from the training snapshot; empty when the family makes its own experience. */
  reads: readonly RecordKind[];
  /** Span families every rollout of the candidate must show (stage 1's expected evidence). */
  spanFamilies: readonly string[];
  /** Checks and narrows the parent resource; throws with a clear message. */
  parentOf(resource: unknown, env: AnyEnvironment): P;
  start(init: FamilyStart<z.output<S>, P>, state?: unknown): FamilySession;
};

/** What every policy candidate's rollouts show: one step span per decision and the episode's reward. */
export const POLICY_SPAN_FAMILIES = ["agent.step", "reward"] as const;

/** A family that trains softmax-linear policies: the shared fields filled in. */
export function softmaxFamily<S extends z.ZodType>(d: Pick<FamilyDefinition<S, SoftmaxLinearPolicy>, "name" | "description" | "configSchema" | "reads" | "start">): FamilyDefinition<S, SoftmaxLinearPolicy> {
  return { resourceKind: "policy", parentKind: "softmax-linear", spanFamilies: POLICY_SPAN_FAMILIES, parentOf: (r, env) => softmaxParent(d.name, r, env), ...d };
}

/** Records of the kinds a family reads, or a clear error naming what is missing. */
export function requireRecords<K extends RecordKind>(family: string, data: LoadedData | null, kind: K): Extract<DatasetRecord, { kind: K }>[] {
  if (!data) throw new Error(`${family} reads ${kind} records: give it a training snapshot`);
  const out = data.records.filter((r): r is Extract<DatasetRecord, { kind: K }> => r.kind === kind);
  if (out.length === 0) throw new Error(`${family} found no ${kind} records in snapshot ${data.id}`);
  return out;
}

/** The parent as a softmax-linear policy made for this environment. */
export function softmaxParent(family: string, resource: unknown, env: AnyEnvironment): SoftmaxLinearPolicy {
  const p = resource as Policy;
  if (!p || typeof p !== "object" || p.kind !== "softmax-linear") throw new Error(`${family} trains softmax-linear policies; the parent is ${(p as { kind?: string })?.kind ?? "not a policy"}`);
  assertPolicyFits(p, env);
  return p;
}

/** A softmax-linear candidate with new weights (ε 0 unless given: exploration is for training). */
export function withWeights(parent: SoftmaxLinearPolicy, weights: ArrayLike<number>, epsilon = 0): SoftmaxLinearPolicy {
  return { ...parent, weights: Array.from(weights), epsilon };
}

/**
 * A policy as a candidate resource; refuses one that cannot be published (e.g. weights gone non-finite). It serves
 * greedily unless it already says how it serves (a parent published as a sampler passes that on): training
 * explores, serving does not.
 */
export function policyCandidate(policy: Policy): CandidateResource {
  return toPolicyResource({ ...policy, serving: policy.serving ?? GREEDY });
}

/** Index of each action name of the environment; unknown names are refused with the name. */
export function actionIndexer(env: AnyEnvironment): (name: string) => number {
  const index = new Map(env.actions.map((a, i) => [a.name, i]));
  return (name) => {
    const i = index.get(name);
    if (i === undefined) throw new Error(`action "${name}" is not an action of ${env.id}`);
    return i;
  };
}

/** Checks a record's feature vector length against the environment. */
export function featuresOf(env: AnyEnvironment, features: readonly number[], where: string): Float64Array {
  if (features.length !== env.featureNames.length) throw new Error(`${where}: ${features.length} features, ${env.id} has ${env.featureNames.length}`);
  return Float64Array.from(features);
}
