// The one interface every learning algorithm implements, so the runner, training runs and automatic
// resume drive PPO and Q-learning the same way: start from an exact parent policy, a validated config
// and a seed; feed batches of trajectories (rebuilt from stored spans); publish `currentPolicy()`;
// save and restore the complete state as plain JSON.
import type { z } from "zod";
import { digestOf, type Digest } from "@/server/digest";
import type { Trajectory } from "@/server/environments/trajectory";
import type { Environment } from "@/server/environments/types";
import { assertPolicyFits, type Policy, type PolicyEnvironment, type PolicyKind } from "./policy";
import { policyDigest } from "./policy-resource";

export const ALGORITHMS = ["ppo", "q-learning"] as const;
export type AlgorithmName = (typeof ALGORITHMS)[number];

export type UpdateStats = {
  /** 1-based number of this update. */
  update: number;
  trajectories: number;
  /** Trajectories left out because spans were missing or inconsistent (never learned from). */
  skippedIncomplete: number;
  steps: number;
  /** Mean undiscounted episode reward of the batch under the run's reward weights. */
  meanEpisodeReward: number;
  /** ε of the behaviour policy published after this update. */
  epsilon: number;
  /** Algorithm-specific figures (losses, clip fraction, TD error, …). */
  figures: Record<string, number>;
};

export interface Trainer {
  readonly algorithm: AlgorithmName;
  /** Number of completed updates. */
  readonly updates: number;
  update(trajectories: readonly Trajectory[]): UpdateStats;
  /** The policy to collect the next batch with (ε of the schedule mixed in). */
  currentPolicy(): Policy;
  checkpoint(): TrainerCheckpoint;
}

export const CHECKPOINT_FORMAT = "lightgate.trainer-checkpoint/1";

export type TrainerCheckpoint = {
  format: typeof CHECKPOINT_FORMAT;
  algorithm: AlgorithmName;
  config: unknown;
  seed: string;
  parentDigest: Digest;
  environment: PolicyEnvironment;
  updates: number;
  state: unknown;
  /** Digest of everything above; restore refuses a checkpoint that does not match it. */
  digest: Digest;
};

export type EnvShape = Pick<Environment, "id" | "specDigest" | "actions" | "featureNames">;

export type TrainerInit = {
  algorithm: AlgorithmName;
  /** Validated with the algorithm's zod schema; omitted options take their defaults. */
  config: unknown;
  /** The exact parent: training starts from these parameters. */
  parent: Policy;
  seed: string;
  environment: EnvShape;
};

/** A JSON document with the digest of everything else in it. */
export function sealJson<T extends { format: string }>(body: T): T & { digest: Digest } {
  return { ...body, digest: digestOf(body) };
}

/** Checks a sealed document's format and digest (`what` names it in errors). */
export function openSealed<T extends { format: string; digest: Digest }>(input: unknown, format: string, what: string): T {
  const c = input as T;
  if (!c || typeof c !== "object" || c.format !== format) throw new Error(`not a ${what} (expected format ${format})`);
  const { digest, ...body } = c;
  if (digestOf(body) !== digest) throw new Error(`${what} digest mismatch: it was altered or truncated`);
  return c;
}

export function sealCheckpoint(c: Omit<TrainerCheckpoint, "digest" | "format">): TrainerCheckpoint {
  return sealJson({ format: CHECKPOINT_FORMAT, ...c } as const);
}

export function openCheckpoint(input: unknown, env: EnvShape): TrainerCheckpoint {
  const c = openSealed<TrainerCheckpoint>(input, CHECKPOINT_FORMAT, "trainer checkpoint");
  if (c.environment.id !== env.id || c.environment.specDigest !== env.specDigest) {
    throw new Error(`checkpoint is for ${c.environment.id} ${c.environment.specDigest}, not ${env.id} ${env.specDigest}`);
  }
  return c;
}

/** Parses a config with clear, field-named messages. */
export function parseConfig<S extends z.ZodType>(schema: S, input: unknown, algorithm: string): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) {
    throw new Error(`invalid ${algorithm} config: ${parsed.error.issues.map((i) => `${i.path.join(".") || "config"}: ${i.message}`).join("; ")}`);
  }
  return parsed.data;
}

/** Splits a batch into trajectories fit to learn from and the incomplete ones; rejects another environment's data. */
export function usableTrajectories(trajectories: readonly Trajectory[], env: EnvShape): { used: Trajectory[]; skipped: number } {
  const used: Trajectory[] = [];
  let skipped = 0;
  for (const t of trajectories) {
    if (!t.complete) {
      skipped++;
      continue;
    }
    for (const s of t.steps) {
      if (s.features.length !== env.featureNames.length || s.actionIndex >= env.actions.length || env.actions[s.actionIndex]!.name !== s.action) {
        throw new Error(`trajectory ${t.rolloutId}/${t.attemptId} step ${s.index} does not match environment ${env.id}: wrong feature count or action`);
      }
    }
    used.push(t);
  }
  return { used, skipped };
}

export function parentDigestOf(parent: Policy): Digest {
  return policyDigest(parent);
}

/** What every trainer holds besides its own state: validated config, environment, exact parent, seed. */
export type TrainerBase<C, P extends Policy> = { cfg: C; env: EnvShape; parent: P; seed: string };

/** Validates a new trainer's config and parent. */
export function startTrainer<S extends z.ZodType, K extends PolicyKind>(
  algorithm: AlgorithmName,
  kind: K,
  schema: S,
  init: Omit<TrainerInit, "algorithm">,
): TrainerBase<z.output<S>, Extract<Policy, { kind: K }>> {
  const cfg = parseConfig(schema, init.config, algorithm);
  if (init.parent.kind !== kind) throw new Error(`${algorithm} trains ${kind} policies; the parent is ${init.parent.kind}`);
  assertPolicyFits(init.parent, init.environment);
  return { cfg, env: init.environment, parent: init.parent as Extract<Policy, { kind: K }>, seed: init.seed };
}

/** Opens a checkpoint of `algorithm`: its base, its update count and its algorithm-specific state. */
export function resumeTrainer<S extends z.ZodType, P extends Policy, State>(
  algorithm: AlgorithmName,
  schema: S,
  input: unknown,
  env: EnvShape,
): { base: TrainerBase<z.output<S>, P>; updates: number; state: State } {
  const c = openCheckpoint(input, env);
  if (c.algorithm !== algorithm) throw new Error(`checkpoint is for ${c.algorithm}, not ${algorithm}`);
  const cfg = parseConfig(schema, c.config, algorithm);
  const { parent, ...state } = c.state as State & { parent: P };
  if (parentDigestOf(parent) !== c.parentDigest) throw new Error("checkpoint parent does not match its parent digest");
  return { base: { cfg, env, parent, seed: c.seed }, updates: c.updates, state: state as State };
}

export function checkpointOf<C, P extends Policy>(algorithm: AlgorithmName, base: TrainerBase<C, P>, updates: number, state: object): TrainerCheckpoint {
  return sealCheckpoint({
    algorithm,
    config: base.cfg,
    seed: base.seed,
    parentDigest: parentDigestOf(base.parent),
    environment: base.parent.environment,
    updates,
    state: { parent: base.parent, ...state },
  });
}
