// The contract between an environment, the episode driver, the span mapping and the trainers.
// An environment is a seeded, deterministic simulation: given a task and an episode seed, the same
// actions always produce the same observations, tool outcomes, destination effects and rewards.
import type { Digest } from "@/server/digest";
import type { Rng } from "./prng";

/** The four reward components of the training-system document, in this order everywhere. */
export const REWARD_COMPONENTS = ["task_completion", "user_satisfaction", "efficiency", "accuracy"] as const;
export type RewardComponent = (typeof REWARD_COMPONENTS)[number];
export type RewardComponents = Record<RewardComponent, number>;

/** The training-system document's default weights: completion 0.4, satisfaction 0.3, efficiency 0.2, accuracy 0.1. */
export const DEFAULT_REWARD_WEIGHTS: Readonly<RewardComponents> = Object.freeze({
  task_completion: 0.4,
  user_satisfaction: 0.3,
  efficiency: 0.2,
  accuracy: 0.1,
});

export function weightedReward(components: RewardComponents, weights: Readonly<RewardComponents>): number {
  return (
    components.task_completion * weights.task_completion +
    components.user_satisfaction * weights.user_satisfaction +
    components.efficiency * weights.efficiency +
    components.accuracy * weights.accuracy
  );
}

export function zeroComponents(): RewardComponents {
  return { task_completion: 0, user_satisfaction: 0, efficiency: 0, accuracy: 0 };
}

/** A tool argument in a contract: a string, optionally from a closed set. */
export type ToolArgumentSpec = { type: "string"; required: boolean; enum?: readonly string[]; description: string };

/** A versioned tool contract; `digest` covers everything else in it. */
export type ToolContract = {
  name: string;
  version: string;
  description: string;
  arguments: Record<string, ToolArgumentSpec>;
  /** What the tool changes in the destination, e.g. "ticket.status". Empty for read-only tools. */
  sideEffects: readonly string[];
  destructive: boolean;
  digest: Digest;
};

export type ActionSpec = { name: string; description: string; /** the tool this action calls, if any */ tool: string | null };

/** A versioned task distribution, pinned by the digest of its content. */
export type TaskDistribution = {
  environment: string;
  version: string;
  title: string;
  /** Attribute → value → weight. Weights need not sum to one. */
  mix: Record<string, Record<string, number>>;
  digest: Digest;
};

export type DistributionRef = { environment: string; version: string; digest: Digest };

export type EnvTask = {
  /** `tk-` + 12 hex digits, derived from the distribution digest and the task seed. */
  id: string;
  seed: string;
  distribution: DistributionRef;
  attributes: Record<string, string>;
  /** The protected-case family this task belongs to, if any. */
  protectedFamily: string | null;
};

export type Observation = {
  /** Dense features in the order of `Environment.featureNames`. */
  features: Float64Array;
  /** A compact discrete state (for tabular learners); equal keys mean equal decision-relevant state. */
  key: string;
  /** The words the agent reads at this step, where the environment has them (the text desk: the customer's). */
  text?: string;
};

export type ToolCallStatus = "ok" | "error" | "timeout";

export type ToolCall = {
  tool: string;
  version: string;
  contractDigest: Digest;
  arguments: Record<string, string>;
  status: ToolCallStatus;
  /** Why it failed, for `error` and `timeout`. */
  reason: string | null;
  latencyMs: number;
};

/** A change an action makes in the destination, applied in `seq` order per target. */
export type Effect = {
  target: string;
  seq: number;
  kind: string;
  tool: { name: string; version: string } | null;
  payload: Record<string, string | boolean | null>;
};

export type StepResult = {
  components: RewardComponents;
  toolCall: ToolCall | null;
  effects: Effect[];
  done: boolean;
  /** Set when the step could not finish (a tool hung): the attempt fails and its evidence is partial. */
  aborted: string | null;
  durationMs: number;
};

export type ProtectedVerdict = { caseId: string; family: string; pass: boolean; reasons: string[] };

export type OutcomeVerdict = "verified" | "not_verified" | "unverifiable";
export type OutcomeVerification = {
  verdict: OutcomeVerdict;
  target: string;
  expected: Record<string, unknown>;
  observed: Record<string, unknown> | null;
  mismatches: string[];
  /** Why the effect could not be checked, for `unverifiable`. */
  reason: string | null;
};

export type EnvironmentOptions = {
  /** Probability that one tool call fails. */
  toolFailureRate: number;
  /** Share of failures that hang (the span is lost, the attempt fails) rather than return an error. */
  timeoutShare: number;
};

export type EpisodeContext = {
  /** Target of the episode in the destination (the ticket it works on). */
  target: string;
  /** The environment's own stream (tool outcomes, latencies). */
  rng: Rng;
  options: EnvironmentOptions;
};

export interface Environment<TState = unknown, TRecord = unknown> {
  readonly id: string;
  /** Version of the simulation code; part of the spec digest. */
  readonly version: string;
  readonly actions: readonly ActionSpec[];
  readonly tools: readonly ToolContract[];
  readonly featureNames: readonly string[];
  readonly maxSteps: number;
  readonly distributions: readonly TaskDistribution[];
  /** Digest of everything a policy depends on: actions, features, tool contracts, step limit. */
  readonly specDigest: Digest;
  readonly protectedFamilies: readonly string[];

  sampleTask(distribution: TaskDistribution, seed: string): EnvTask;
  /** The target (e.g. ticket id) an episode of `task` under `episodeKey` works on. */
  targetFor(task: EnvTask, episodeKey: string): string;
  /** Opens an episode: its initial state and the effects of opening it (e.g. the ticket being filed). */
  reset(task: EnvTask, ctx: EpisodeContext): { state: TState; effects: Effect[] };
  observe(state: TState): Observation;
  /** The state as text a language-model agent reads (the ticket, what was done so far); prompt optimization needs it. */
  describe?(state: TState): string;
  /** Applies action `action` (an index into `actions`), mutating `state`. */
  step(state: TState, action: number): StepResult;
  /** Whether the state reached the task's expected outcome (the same check `verifyOutcome` runs on the destination). */
  outcomeReached(state: TState): boolean;
  judgeProtected(task: EnvTask, state: TState): ProtectedVerdict | null;
  /** Re-reads the destination and checks the task's expected effect there. */
  verifyOutcome(task: EnvTask, target: string, destination: Destination<TRecord>): Promise<OutcomeVerification>;
}

/** Where an environment's effects land: tickets in memory for training, in the database for canaries. */
export interface Destination<TRecord> {
  apply(effect: Effect): Promise<void>;
  read(target: string): Promise<TRecord | null>;
}
