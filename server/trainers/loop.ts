// The in-process training loop: collect a batch of episodes with the trainer's current policy, turn
// each attempt into Agent Lightning spans and back into a trajectory (exactly what the runner and the
// store will do across processes), retry attempts that failed, and update. Task and episode seeds
// derive from the run seed and the update number, so a trainer restored from a checkpoint collects
// exactly the batches the uninterrupted run would have.
import { hexId } from "@/server/digest";
import { simulateEpisode } from "@/server/environments/episode";
import { spansFromEpisode, type AglSpan } from "@/server/environments/spans";
import { trajectoryFromSpans, type Trajectory } from "@/server/environments/trajectory";
import type { EnvTask, Environment, EnvironmentOptions, RewardComponents, TaskDistribution } from "@/server/environments/types";
import type { Trainer, UpdateStats } from "./algorithm";
import { HELD_OUT_NAMESPACE } from "./evaluate";
import { actingPolicy, type Policy } from "./policy";
import { windowStatsOf, type WindowStats } from "./reward-model";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEnvironment = Environment<any, any>;

export type CollectOptions = {
  distribution: TaskDistribution;
  episodesPerUpdate: number;
  /** The run's seed; every task and episode seed derives from it. */
  seed: string;
  options?: Partial<EnvironmentOptions>;
  /** Attempts per rollout before it counts as failed (the rollout's max_attempts). */
  maxAttempts?: number;
  rewardWeights?: Readonly<RewardComponents>;
  /** Only tasks it accepts are run (curriculum levels); others are redrawn from derived seeds. */
  taskFilter?: (task: EnvTask) => boolean;
};

export type AttemptRecord = { attemptId: string; status: "succeeded" | "failed"; reason: string | null; spans: AglSpan[]; trajectory: Trajectory };
export type RolloutRecord = { rolloutId: string; taskId: string; attempts: AttemptRecord[] };

export type Batch = {
  update: number;
  rollouts: RolloutRecord[];
  /** The last attempt of each rollout: what the algorithm learns from (incomplete ones are skipped there). */
  trajectories: Trajectory[];
  /** Attempts beyond the first: unexpected retries (retry debt), each with its reason. */
  retries: number;
  window: WindowStats;
};

export function trainingTaskSeed(seed: string, update: number, episode: number): string {
  const s = `${seed}/train/${update}/${episode}`;
  if (s.startsWith(HELD_OUT_NAMESPACE)) throw new Error(`run seed must not start with "${HELD_OUT_NAMESPACE}": that namespace is the locked gate's`);
  return s;
}

const MAX_REDRAWS = 10_000;

/** The task for a seed, redrawn from `<seed>/r<k>` until the filter (if any) accepts it. */
function drawTask(env: AnyEnvironment, opts: CollectOptions, seed: string): { taskSeed: string; task: EnvTask } {
  for (let k = 0; k <= MAX_REDRAWS; k++) {
    const taskSeed = k === 0 ? seed : `${seed}/r${k}`;
    const task = env.sampleTask(opts.distribution, taskSeed);
    if (!opts.taskFilter || opts.taskFilter(task)) return { taskSeed, task };
  }
  throw new Error(`no task of ${opts.distribution.version} passed the task filter in ${MAX_REDRAWS} draws`);
}

export function collectBatch(env: AnyEnvironment, policy: Policy, update: number, opts: CollectOptions): Batch {
  const acting = actingPolicy(policy);
  const maxAttempts = opts.maxAttempts ?? 3;
  const rollouts: RolloutRecord[] = [];
  let retries = 0;
  for (let e = 0; e < opts.episodesPerUpdate; e++) {
    const { taskSeed, task } = drawTask(env, opts, trainingTaskSeed(opts.seed, update, e));
    const rolloutId = `ro-${hexId(12, taskSeed)}`;
    const attempts: AttemptRecord[] = [];
    for (let k = 1; k <= maxAttempts; k++) {
      const attemptId = `at-${hexId(8, rolloutId, k)}`;
      const episode = simulateEpisode(env, acting, task, { episodeKey: `${rolloutId}/${attemptId}`, seed: `${taskSeed}/attempt-${k}`, options: opts.options });
      const spans = spansFromEpisode(episode, { rolloutId, attemptId, startTime: 0, rewardWeights: opts.rewardWeights });
      const trajectory = trajectoryFromSpans(spans);
      attempts.push({ attemptId, status: episode.aborted ? "failed" : "succeeded", reason: episode.aborted?.reason ?? null, spans, trajectory });
      if (!episode.aborted) break;
      if (k < maxAttempts) retries++;
    }
    rollouts.push({ rolloutId, taskId: task.id, attempts });
  }
  const trajectories = rollouts.map((r) => r.attempts[r.attempts.length - 1]!.trajectory);
  return { update, rollouts, trajectories, retries, window: windowStatsOf(trajectories) };
}

export type TrainingStep = { stats: UpdateStats; batch: Omit<Batch, "rollouts"> };

/** Runs `updates` collect-and-update rounds, continuing from the trainer's own update count. */
export function train(env: AnyEnvironment, trainer: Trainer, opts: CollectOptions & { updates: number }): TrainingStep[] {
  const history: TrainingStep[] = [];
  for (let i = 0; i < opts.updates; i++) {
    const batch = collectBatch(env, trainer.currentPolicy(), trainer.updates, opts);
    const stats = trainer.update(batch.trajectories);
    const { rollouts: _rollouts, ...summary } = batch;
    history.push({ stats, batch: summary });
  }
  return history;
}
