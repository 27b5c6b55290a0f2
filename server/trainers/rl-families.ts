// PPO and Q-learning as registry families: the existing trainers (trainers.ts) plus in-process
// collection on the run's task distribution — one update = collect a batch, learn from it.
import { z } from "zod";
import type { AlgorithmName, Trainer } from "./algorithm";
import { POLICY_SPAN_FAMILIES, policyCandidate, type AnyEnvironment, type FamilyDefinition, type FamilySession, type FamilyStart } from "./family";
import { collectBatch } from "./loop";
import { assertPolicyFits, type Policy } from "./policy";
import { ppoConfigSchema } from "./ppo";
import { qLearningConfigSchema } from "./q-learning";
import { createTrainer, policyKindFor, restoreTrainer } from "./trainers";

const collectShape = {
  episodesPerUpdate: z.number().int("episodesPerUpdate must be an integer").min(1, "episodesPerUpdate must be ≥ 1").max(100_000, "episodesPerUpdate must be ≤ 100000").default(128).describe("Episodes collected for each update"),
  /** Tool flakiness while collecting (retries and lost spans happen for real). */
  toolFailureRate: z.number().min(0, "toolFailureRate must be ≥ 0").max(1, "toolFailureRate must be ≤ 1").default(0.05).describe("Chance that a tool call fails while collecting (retries and lost spans happen for real)"),
  maxAttempts: z.number().int("maxAttempts must be an integer").min(1, "maxAttempts must be ≥ 1").max(10, "maxAttempts must be ≤ 10").default(3).describe("Attempts a collected rollout may take before it counts as failed"),
};
export const ppoFamilyConfigSchema = ppoConfigSchema.safeExtend(collectShape);
export const qLearningFamilyConfigSchema = qLearningConfigSchema.safeExtend(collectShape);
type Collect = { episodesPerUpdate: number; toolFailureRate: number; maxAttempts: number };

type TrainerState = { checkpoint: unknown; retries: number };

class TrainerSession implements FamilySession {
  readonly family: AlgorithmName;
  readonly #init: FamilyStart<Collect & Record<string, unknown>, Policy>;
  readonly #trainer: Trainer;
  #retries: number;
  #last: Record<string, number> = {};

  constructor(algorithm: AlgorithmName, init: FamilyStart<Collect & Record<string, unknown>, Policy>, state?: TrainerState) {
    this.family = algorithm;
    this.#init = init;
    const { episodesPerUpdate: _e, toolFailureRate: _t, maxAttempts: _m, ...config } = init.config;
    this.#trainer = state ? restoreTrainer(state.checkpoint, init.environment) : createTrainer({ algorithm, config, parent: init.parent, seed: init.seed, environment: init.environment });
    this.#retries = state?.retries ?? 0;
  }

  get updates() {
    return this.#trainer.updates;
  }
  get finished() {
    return false;
  }
  async step() {
    const c = this.#init.config;
    const batch = collectBatch(this.#init.environment, this.#trainer.currentPolicy(), this.#trainer.updates, {
      distribution: this.#init.distribution,
      episodesPerUpdate: c.episodesPerUpdate,
      seed: this.#init.seed,
      options: { toolFailureRate: c.toolFailureRate },
      maxAttempts: c.maxAttempts,
    });
    const stats = this.#trainer.update(batch.trajectories);
    this.#retries += batch.retries;
    this.#last = { meanEpisodeReward: stats.meanEpisodeReward, epsilon: stats.epsilon, skippedIncomplete: stats.skippedIncomplete, retries: batch.retries, coverage: batch.window.coverage, ...stats.figures };
    return { update: stats.update, finished: false, figures: this.#last };
  }
  candidate() {
    return policyCandidate({ ...this.#trainer.currentPolicy(), epsilon: 0 });
  }
  report() {
    return { updates: this.#trainer.updates, unexpectedRetries: this.#retries, last: this.#last };
  }
  state(): TrainerState {
    return { checkpoint: this.#trainer.checkpoint(), retries: this.#retries };
  }
}

function parentFor(algorithm: AlgorithmName) {
  return (resource: unknown, env: AnyEnvironment): Policy => {
    const p = resource as Policy;
    const kind = policyKindFor(algorithm);
    if (!p || typeof p !== "object" || p.kind !== kind) throw new Error(`${algorithm} trains ${kind} policies; the parent is ${(p as { kind?: string })?.kind ?? "not a policy"}`);
    assertPolicyFits(p, env);
    return p;
  };
}

export const ppoFamily: FamilyDefinition<typeof ppoFamilyConfigSchema, Policy> = {
  name: "ppo",
  description: "Proximal Policy Optimization on the environment: clipped surrogate, GAE, value baseline, ε exploration schedule.",
  resourceKind: "policy",
  parentKind: "softmax-linear",
  configSchema: ppoFamilyConfigSchema,
  reads: [],
  spanFamilies: POLICY_SPAN_FAMILIES,
  parentOf: parentFor("ppo"),
  start: (init, state) => new TrainerSession("ppo", init as never, state as TrainerState | undefined),
};

export const qLearningFamily: FamilyDefinition<typeof qLearningFamilyConfigSchema, Policy> = {
  name: "q-learning",
  description: "Tabular Q-learning on the environment with experience replay, double Q and prioritized replay.",
  resourceKind: "policy",
  parentKind: "q-tabular",
  configSchema: qLearningFamilyConfigSchema,
  reads: [],
  spanFamilies: POLICY_SPAN_FAMILIES,
  parentOf: parentFor("q-learning"),
  start: (init, state) => new TrainerSession("q-learning", init as never, state as TrainerState | undefined),
};
