// Shared set-up for trainer tests: the support desk, the locked held-out set, and short training runs.
import { createSupportDesk, findDistribution } from "@/server/environments/support-desk";
import type { AlgorithmName, Trainer } from "@/server/trainers/algorithm";
import { evaluatePolicy, lockHeldOutSet } from "@/server/trainers/evaluate";
import { train, type TrainingStep } from "@/server/trainers/loop";
import { initialPolicy } from "@/server/trainers/policy";
import { policyDigest } from "@/server/trainers/policy-resource";
import { createTrainer, policyKindFor, restoreTrainer } from "@/server/trainers/trainers";

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

/** Zod issues as "path: message" lines (empty when the input is valid). */
export function configProblems(schema: { safeParse(input: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }, input: unknown): string[] {
  const r = schema.safeParse(input);
  return r.success ? [] : r.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

/**
 * Trains from the uniform parent and compares parent and trained policy on the locked held-out set.
 * Returns the figures and the curve (mean batch reward per update).
 */
export function learningRun(algorithm: AlgorithmName, config: unknown, o: RunOptions) {
  const trainer = newTrainer(algorithm, config, o.seed);
  const parent = trainer.currentPolicy();
  const history = trainFor(trainer, o);
  return {
    before: evaluatePolicy(desk, { ...parent, epsilon: 0 }, HELD_OUT),
    after: evaluatePolicy(desk, trainer.currentPolicy(), HELD_OUT),
    curve: history.map((h) => h.stats.meanEpisodeReward),
  };
}

/**
 * Runs 2 × `updates` straight, and `updates` + checkpoint → JSON → restore + `updates`; returns what
 * must be identical: final policy digests, per-update stats and final checkpoint digests.
 */
export function resumeComparison(algorithm: AlgorithmName, config: unknown, o: RunOptions) {
  const straight = newTrainer(algorithm, config, o.seed);
  const straightStats = trainFor(straight, { ...o, updates: 2 * o.updates }).map((h) => h.stats);
  const first = newTrainer(algorithm, config, o.seed);
  const firstStats = trainFor(first, o).map((h) => h.stats);
  const resumed = restoreTrainer(JSON.parse(JSON.stringify(first.checkpoint())), desk);
  const resumedAt = resumed.updates;
  const restStats = trainFor(resumed, o).map((h) => h.stats);
  return {
    resumedAt,
    policies: [policyDigest(straight.currentPolicy()), policyDigest(resumed.currentPolicy())],
    stats: [JSON.stringify(straightStats), JSON.stringify([...firstStats, ...restStats])],
    checkpoints: [straight.checkpoint().digest, resumed.checkpoint().digest],
  };
}
