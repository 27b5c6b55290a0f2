// Collecting a batch through the store, the Agent Lightning way: publish the acting policy as a resources
// update, enqueue one rollout per episode naming it, let runners (any process, any machine) execute them,
// then read every attempt and span back. What the learner sees comes only from the store's spans, so a lost
// tool span or reward really makes a trajectory incomplete, and retries carry the reasons the store recorded.
import { computeCoverage } from "@/server/gate/evidence/coverage";
import { rollupRollout } from "@/server/gate/evidence/spans";
import type { RolloutRollup } from "@/server/gate/receipt/stage2";
import { trajectoryFromSpans, type SpanLike, type Trajectory } from "@/server/environments/trajectory";
import type { LightningStore, Rollout, RolloutStatus } from "@/server/store";
import { AGENT_KEY } from "@/server/store/types";
import { trainingTaskSeed } from "@/server/trainers/loop";
import type { Policy } from "@/server/trainers/policy";
import { toPolicyResource } from "@/server/trainers/policy-resource";
import { windowStatsOf } from "@/server/trainers/reward-model";
import { POLICY_RESOURCE_NAME, RESOURCES_VERSION_KEY, type EpisodeInput } from "@/server/runner/episode-input";

export const RUN_ID_KEY = "lightgate.run_id";
export const UPDATE_KEY = "lightgate.update";

export type StoreCollectRequest = {
  runId: string;
  /** The agent trained: its runners (keys bound to it) serve these rollouts; untagged ones only unbound keys. */
  agent?: string;
  update: number;
  environment: string;
  distribution: string;
  seed: string;
  episodes: number;
  toolFailureRate: number;
  maxAttempts: number;
  policy: Policy;
  /** Run the episodes against these already-published resources instead of publishing `policy`. */
  resourcesId?: string;
  /** "train" for learning batches; "val" for a candidate's validation rollouts (the gate's stage 2). */
  mode?: "train" | "val";
  /** Span families every succeeded rollout must show (stage 1's expected evidence). */
  expectedFamilies: readonly string[];
};

export type StoreBatch = {
  resourcesId: string;
  rolloutIds: string[];
  trajectories: Trajectory[];
  rollups: RolloutRollup[];
  /** The gate's coverage over this batch: fully covered / succeeded rollouts (null when none succeeded). */
  coverage: number | null;
  /** Attempts beyond the first (each with the reason the store recorded). */
  retries: number;
  failed: number;
  meanReward: number | null;
};

/** An attempt that exported nothing: incomplete, with both families missing — never silently healthy. */
function noSpans(rolloutId: string, attemptId: string): Trajectory {
  return { rolloutId, attemptId, taskId: null, steps: [], episodeReward: null, outcomeReached: null, protected: null, complete: false, missing: ["agent.step", "reward"], problems: ["the attempt exported no spans"] };
}

const TERMINAL: RolloutStatus[] = ["succeeded", "failed", "cancelled"];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Enqueues the batch and waits for the runners. `keepGoing` is asked between polls; when it says no (the run
 * was paused or stopped, or the lease was lost) the unfinished rollouts are cancelled and null is returned.
 */
export async function collectThroughStore(store: LightningStore, req: StoreCollectRequest, keepGoing: () => Promise<boolean>, pollMs = 100): Promise<StoreBatch | null> {
  const published = req.resourcesId ? { resources_id: req.resourcesId } : await store.addResources({ [POLICY_RESOURCE_NAME]: toPolicyResource(req.policy) as unknown as Record<string, never> });
  const mode = req.mode ?? "train";
  const inputs = Array.from({ length: req.episodes }, (_, e) => {
    const input: EpisodeInput = {
      kind: "lightgate.episode",
      environment: req.environment,
      distribution: req.distribution,
      task_seed: mode === "train" ? trainingTaskSeed(req.seed, req.update, e) : `${req.seed}/val/${req.update}/${e}`,
      options: { toolFailureRate: req.toolFailureRate },
      policy_resource: POLICY_RESOURCE_NAME,
    };
    return {
      input,
      mode,
      resources_id: published.resources_id,
      // Failed, hung and silent attempts are retried up to max_attempts; the store records why.
      config: { max_attempts: req.maxAttempts, retry_condition: ["failed", "timeout", "unresponsive"] as ("failed" | "timeout" | "unresponsive")[], timeout_seconds: 300, unresponsive_seconds: 60 },
      metadata: {
        [RUN_ID_KEY]: req.runId,
        [UPDATE_KEY]: req.update,
        ...(req.agent ? { [AGENT_KEY]: req.agent } : {}),
        // The version just published: runners that hold it parsed skip fetching the whole network per episode.
        ...("version" in published ? { [RESOURCES_VERSION_KEY]: published.version } : {}),
      },
    };
  });
  const enqueued = await store.enqueueRollouts(inputs);
  const ids = enqueued.map((r) => r.rollout_id);
  let done: Rollout[] = [];
  for (;;) {
    done = (await store.queryRollouts({ rollout_id_in: ids, status_in: TERMINAL, limit: -1 })).items;
    if (done.length === ids.length) break;
    if (!(await keepGoing())) {
      const finished = new Set(done.map((r) => r.rollout_id));
      for (const id of ids) if (!finished.has(id)) await store.updateRollout(id, { status: "cancelled" }).catch(() => {});
      return null;
    }
    await sleep(pollMs);
  }
  const byId = new Map(done.map((r) => [r.rollout_id, r]));
  const trajectories: Trajectory[] = [];
  const rollups: RolloutRollup[] = [];
  let retries = 0;
  let failed = 0;
  for (const id of ids) {
    const rollout = byId.get(id)!;
    const attempts = (await store.queryAttempts(id, { limit: -1 })).items;
    const spans = (await store.querySpans({ rollout_id: id, limit: -1 })).items;
    const latest = attempts.reduce((a, b) => (b.sequence_id > a.sequence_id ? b : a));
    const latestSpans = spans.filter((s) => s.attempt_id === latest.attempt_id).sort((a, b) => a.sequence_id - b.sequence_id);
    trajectories.push(latestSpans.length ? trajectoryFromSpans(latestSpans as unknown as SpanLike[]) : noSpans(id, latest.attempt_id));
    rollups.push(rollupRollout({ rollout_id: id, mode: rollout.mode, status: rollout.status as RolloutRollup["status"], end_time: rollout.end_time }, attempts as never, spans as never));
    retries += attempts.length - 1;
    if (rollout.status !== "succeeded") failed++;
  }
  const stats = windowStatsOf(trajectories);
  const rewarded = trajectories.some((t) => t.episodeReward !== null);
  return {
    resourcesId: published.resources_id,
    rolloutIds: ids,
    trajectories,
    rollups,
    retries,
    failed,
    meanReward: rewarded ? stats.meanReward : null,
    coverage: computeCoverage(rollups, req.expectedFamilies).ratio,
  };
}
