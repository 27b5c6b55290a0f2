// Shared set-up for trainer tests: the support desk, the locked held-out set, and short training runs.
import { createSupportDesk, findDistribution } from "@/server/environments/support-desk";
import type { AlgorithmName, Trainer } from "@/server/trainers/algorithm";
import { lockHeldOutSet } from "@/server/trainers/evaluate";
import { train, type TrainingStep } from "@/server/trainers/loop";
import { initialPolicy } from "@/server/trainers/policy";
import { policyDigest } from "@/server/trainers/policy-resource";
import { createTrainer, policyKindFor } from "@/server/trainers/trainers";

export const desk = createSupportDesk();
export const TRAIN_DISTRIBUTION = findDistribution("v2");
/** The locked gate: 300 tasks of distribution v2 from seeds training never draws. */
export const HELD_OUT = lockHeldOutSet(desk, "v2", 300, "gate");

export type RunOptions = { seed?: string; updates: number; episodes: number; toolFailureRate?: number };

export function newTrainer(algorithm: AlgorithmName, config: unknown, seed = "seed-1"): Trainer {
  return createTrainer({ algorithm, config, parent: initialPolicy(policyKindFor(algorithm), desk), seed, environment: desk });
}

export function trainFor(trainer: Trainer, o: RunOptions): TrainingStep[] {
  return train(desk, trainer, {
    distribution: TRAIN_DISTRIBUTION,
    episodesPerUpdate: o.episodes,
    seed: o.seed ?? "seed-1",
    updates: o.updates,
    options: { toolFailureRate: o.toolFailureRate ?? 0.05 },
  });
}

/** Trains from scratch and returns the resulting policy's digest (what "the result" is, exactly). */
export function resultDigest(algorithm: AlgorithmName, config: unknown, o: RunOptions): string {
  const t = newTrainer(algorithm, config, o.seed);
  trainFor(t, o);
  return policyDigest(t.currentPolicy());
}

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
