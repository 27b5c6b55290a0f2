// The locked held-out set and evaluation on it. A held-out set pins a task-distribution version (by
// digest), a list of task seeds in a namespace training never draws from, and the environment options,
// all under one digest; evaluating a policy on it is deterministic.
import { digestOf, type Digest } from "@/server/digest";
import { simulateEpisode } from "@/server/environments/episode";
import { resolveDistribution } from "@/server/environments/distributions";
import { DEFAULT_REWARD_WEIGHTS, weightedReward, type DistributionRef, type Environment, type EnvironmentOptions, type RewardComponents, type TaskDistribution } from "@/server/environments/types";
import { actingPolicy, assertPolicyFits, type Policy } from "./policy";

/** Task seeds of held-out sets start with this; training seeds never do (see trainingTaskSeed). */
export const HELD_OUT_NAMESPACE = "held-out";
/**
 * Task seeds of a trainer's own validation split: the learner selects, monitors and plots on these, never
 * on the locked held-out set (the gate's exam), which it knows only by its pin.
 */
export const VALIDATION_NAMESPACE = "validation";

export type HeldOutSet = {
  environment: { id: string; specDigest: string };
  distribution: DistributionRef;
  seeds: string[];
  taskIds: string[];
  options: EnvironmentOptions;
  /** The name the set was locked under (its seeds' namespace): a receipt pins the set by it, so the gate re-locks the same set. */
  label: string;
  digest: Digest;
};

// The environment is generic over its state type; evaluation only drives it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEnvironment = Environment<any, any>;

/** What a learner may know of the exam: its name, digest and size — never its tasks. */
export type HeldOutPin = { id: string; digest: Digest; caseCount: number };

export function pinOf(set: HeldOutSet): HeldOutPin {
  return { id: set.label, digest: set.digest, caseCount: set.seeds.length };
}

/** True when any of the set's tasks lies in the locked namespace: a set no learner may evaluate on. */
export function isLockedSet(set: Pick<HeldOutSet, "seeds">): boolean {
  return set.seeds.some((s) => s === HELD_OUT_NAMESPACE || s.startsWith(`${HELD_OUT_NAMESPACE}/`));
}

/** Locks `count` tasks of a distribution: a published version by name, or a derived distribution (e.g. one domain). */
export function lockHeldOutSet(env: AnyEnvironment, distribution: string | TaskDistribution, count: number, label = "gate"): HeldOutSet {
  return lockTaskSet(env, distribution, count, HELD_OUT_NAMESPACE, label);
}

/** A trainer's validation split: `count` tasks of the distribution under the validation namespace. */
export function lockValidationSet(env: AnyEnvironment, distribution: string | TaskDistribution, count: number, label = "train"): HeldOutSet {
  return lockTaskSet(env, distribution, count, VALIDATION_NAMESPACE, label);
}

/** The exam's pin, for a learner's stage 1: the locked set is built here and only its digest leaves. */
export function lockedSetPin(env: AnyEnvironment, distribution: string | TaskDistribution, count: number, label = "gate"): HeldOutPin {
  return pinOf(lockHeldOutSet(env, distribution, count, label));
}

function lockTaskSet(env: AnyEnvironment, distribution: string | TaskDistribution, count: number, namespace: string, label: string): HeldOutSet {
  const dist = typeof distribution === "string" ? env.distributions.find((d) => d.version === distribution) : distribution;
  if (!dist) throw new Error(`${env.id} has no task distribution ${distribution as string}`);
  if (dist.environment !== env.id) throw new Error(`distribution ${dist.version} belongs to ${dist.environment}, not ${env.id}`);
  if (!Number.isInteger(count) || count < 1) throw new Error("a held-out set needs a positive whole number of tasks");
  const seeds = Array.from({ length: count }, (_, i) => `${namespace}/${label}/${i}`);
  const body = {
    environment: { id: env.id, specDigest: env.specDigest },
    distribution: { environment: dist.environment, version: dist.version, digest: dist.digest },
    seeds,
    taskIds: seeds.map((s) => env.sampleTask(dist, s).id),
    // The locked gate measures decisions, not luck with flaky tools.
    options: { toolFailureRate: 0, timeoutShare: 0 },
  };
  return { ...body, label, digest: digestOf(body) };
}

export type Evaluation = {
  heldOutDigest: Digest;
  policyEpsilon: number;
  episodes: number;
  meanReward: number;
  /** Share of tasks whose expected outcome was reached and whose protected case (if any) passed. */
  successRate: number;
  outcomeRate: number;
  protectedCases: number;
  protectedPassed: number;
  byFamily: Record<string, { cases: number; passed: number }>;
  perTask: { taskId: string; reward: number; outcomeReached: boolean; protectedPass: boolean | null }[];
};

/**
 * Runs the policy once on every held-out task as it serves (its `serving`, no exploration) and scores it with
 * the pinned evaluator weights (the seed's defaults unless given).
 */
export function evaluatePolicy(env: AnyEnvironment, policy: Policy, set: HeldOutSet, weights: Readonly<RewardComponents> = DEFAULT_REWARD_WEIGHTS): Evaluation {
  assertPolicyFits(policy, env);
  if (set.environment.id !== env.id || set.environment.specDigest !== env.specDigest) throw new Error("held-out set was locked for a different environment spec");
  const dist = resolveDistribution(env.distributions, set.distribution.digest);
  if (!dist) throw new Error(`task distribution ${set.distribution.version} (${set.distribution.digest}) is not available in ${env.id}`);
  const acting = actingPolicy(policy, "serve");
  const perTask: Evaluation["perTask"] = [];
  const byFamily: Evaluation["byFamily"] = {};
  for (const seed of set.seeds) {
    const task = env.sampleTask(dist, seed);
    const ep = simulateEpisode(env, acting, task, { episodeKey: `eval/${seed}`, seed: `eval/${seed}`, options: set.options });
    const reward = weightedReward(ep.totals, weights);
    perTask.push({ taskId: task.id, reward, outcomeReached: ep.outcomeReached, protectedPass: ep.protected?.pass ?? null });
    if (ep.protected) {
      const f = (byFamily[ep.protected.family] ??= { cases: 0, passed: 0 });
      f.cases++;
      if (ep.protected.pass) f.passed++;
    }
  }
  const n = perTask.length;
  const cases = perTask.filter((t) => t.protectedPass !== null);
  return {
    heldOutDigest: set.digest,
    policyEpsilon: 0,
    episodes: n,
    meanReward: perTask.reduce((a, t) => a + t.reward, 0) / n,
    successRate: perTask.filter((t) => t.outcomeReached && t.protectedPass !== false).length / n,
    outcomeRate: perTask.filter((t) => t.outcomeReached).length / n,
    protectedCases: cases.length,
    protectedPassed: cases.filter((t) => t.protectedPass).length,
    byFamily,
    perTask,
  };
}
