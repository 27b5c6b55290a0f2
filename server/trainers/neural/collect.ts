// One update's episodes for the neural families: collected with the run's policy and settings, then split into
// the trajectories a learner may use and those it must skip (environment-side failures).
import { usableTrajectories } from "../algorithm";
import type { FamilyStart } from "../family";
import { collectBatch } from "../loop";
import type { MlpPolicy } from "../policy";

type CollectConfig = { episodesPerUpdate: number; toolFailureRate: number; maxAttempts: number };

export function collectUsable<C extends CollectConfig>(init: FamilyStart<C, MlpPolicy>, policy: MlpPolicy, updates: number) {
  const env = init.environment;
  const batch = collectBatch(env, policy, updates, {
    distribution: init.distribution,
    episodesPerUpdate: init.config.episodesPerUpdate,
    seed: init.seed,
    options: { toolFailureRate: init.config.toolFailureRate },
    maxAttempts: init.config.maxAttempts,
  });
  return { batch, ...usableTrajectories(batch.trajectories, env) };
}
