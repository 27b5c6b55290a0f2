// Creating and restoring a trainer by algorithm name: the entry point training runs and automatic
// resume use, so they never branch on the algorithm themselves.
import { openCheckpoint, type AlgorithmName, type EnvShape, type Trainer, type TrainerInit } from "./algorithm";
import type { PolicyKind } from "./policy";
import { createPpoTrainer, ppoConfigSchema, restorePpoTrainer } from "./ppo";
import { createQLearningTrainer, qLearningConfigSchema, restoreQLearningTrainer } from "./q-learning";
import { ownValue } from "@/lib/own";

export const ALGORITHM_SPECS = {
  ppo: { policyKind: "softmax-linear", configSchema: ppoConfigSchema, create: createPpoTrainer, restore: restorePpoTrainer },
  "q-learning": { policyKind: "q-tabular", configSchema: qLearningConfigSchema, create: createQLearningTrainer, restore: restoreQLearningTrainer },
} as const satisfies Record<AlgorithmName, { policyKind: PolicyKind; configSchema: unknown; create: unknown; restore: unknown }>;

function spec(name: string) {
  const s = ownValue(ALGORITHM_SPECS as Record<string, (typeof ALGORITHM_SPECS)[AlgorithmName]>, name);
  if (!s) throw new Error(`unknown algorithm "${name}" (known: ${Object.keys(ALGORITHM_SPECS).join(", ")})`);
  return s;
}

export function createTrainer(init: TrainerInit): Trainer {
  return spec(init.algorithm).create(init);
}

/** Rebuilds a trainer from a checkpoint (e.g. after its worker was killed); it continues exactly. */
export function restoreTrainer(checkpoint: unknown, env: EnvShape): Trainer {
  const c = openCheckpoint(checkpoint, env);
  return spec(c.algorithm).restore(c, env);
}

/** The policy kind an algorithm trains (the parent must be of this kind). */
export function policyKindFor(algorithm: AlgorithmName): PolicyKind {
  return spec(algorithm).policyKind;
}
