// A runner: behaves like an Agent Lightning runner against the store's public HTTP API. Loop: dequeue one
// rollout (the store opens its attempt), fetch the resources the rollout names, run the episode with that
// policy, export its spans (one per step, one per returned tool call, one reward), heartbeat, and close the
// attempt as succeeded or failed with the failure's reason. Retries are the store's business: a failed
// attempt is requeued under the rollout's retry_condition and comes back with reason retry_after_failed.
import { hostname } from "node:os";
import { simulateEpisode } from "@/server/environments/episode";
import { environments as defaultRegistry, type EnvironmentRegistry } from "@/server/environments/registry";
import { spansFromEpisode } from "@/server/environments/spans";
import { actingPolicy } from "@/server/trainers/policy";
import { fromPolicyResource } from "@/server/trainers/policy-resource";
import type { AttemptedRollout } from "@/server/store/types";
import { RunnerStoreClient, type SpanTransport } from "./client";
import { attemptSeed, distributionOf, ZEpisodeInput } from "./episode-input";
import { ownValue } from "@/lib/own";

export type RunnerOptions = {
  url: string;
  apiKey: string;
  workerId?: string;
  transport?: SpanTransport;
  /** Idle wait between empty dequeues. */
  pollMs?: number;
  registry?: EnvironmentRegistry;
  log?: (line: string) => void;
};

export type RunnerStats = { succeeded: number; failed: number; errors: number; spans: number };

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    // The listener goes away with the timer, so a long-idle runner does not pile them up on its signal.
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

export class Runner {
  readonly workerId: string;
  readonly stats: RunnerStats = { succeeded: 0, failed: 0, errors: 0, spans: 0 };
  readonly #client: RunnerStoreClient;
  readonly #opts: Required<Omit<RunnerOptions, "workerId" | "url" | "apiKey">>;

  constructor(opts: RunnerOptions) {
    this.workerId = opts.workerId ?? `runner-${hostname()}-${process.pid}`;
    this.#client = new RunnerStoreClient(opts.url, opts.apiKey);
    this.#opts = { transport: opts.transport ?? "otlp", pollMs: opts.pollMs ?? 200, registry: opts.registry ?? defaultRegistry, log: opts.log ?? (() => {}) };
  }

  /** Dequeues and executes one rollout; false when the queue was empty. */
  async runOnce(): Promise<boolean> {
    const [item] = await this.#client.dequeue(this.workerId, 1);
    if (!item) return false;
    await this.execute(item);
    return true;
  }

  async execute(item: AttemptedRollout): Promise<"succeeded" | "failed"> {
    const { rollout_id: rid, attempt } = item;
    const aid = attempt.attempt_id;
    try {
      const input = ZEpisodeInput.parse(item.input);
      const env = this.#opts.registry.get(input.environment);
      const resources = await this.#client.resources(item.resources_id);
      if (!resources) throw new Error(`resources ${item.resources_id ?? "(latest)"} not found`);
      // The entry's name comes from the rollout's input: own entries only.
      const entry = ownValue(resources.resources, input.policy_resource);
      const policy = fromPolicyResource(entry);
      await this.#client.updateAttempt(rid, aid, { status: "running" });
      const task = env.sampleTask(distributionOf(env, input.distribution), input.task_seed);
      const episode = simulateEpisode(env, actingPolicy(policy), task, { episodeKey: `${rid}/${aid}`, seed: attemptSeed(input.task_seed, attempt.sequence_id), options: input.options });
      const spans = spansFromEpisode(episode, { rolloutId: rid, attemptId: aid, startTime: Date.now() / 1000 });
      await this.#client.sendSpans(spans, this.#opts.transport);
      this.stats.spans += spans.length;
      const status = episode.aborted ? "failed" : "succeeded";
      const metadata = {
        "lightgate.resources_version": resources.version,
        "lightgate.policy_digest": (entry as { digest?: string }).digest ?? null,
        ...(episode.aborted ? { "lightgate.failure": episode.aborted.reason, "lightgate.failed_step": episode.aborted.step } : {}),
      };
      await this.#client.updateAttempt(rid, aid, { status, metadata });
      this.stats[status]++;
      this.#opts.log(`${rid} attempt ${attempt.sequence_id}: ${status}${episode.aborted ? ` (${episode.aborted.reason})` : ""}, ${spans.length} spans`);
      return status;
    } catch (e) {
      // The runner itself could not run it (bad input, missing resources): fail the attempt with why.
      this.stats.errors++;
      this.#opts.log(`${rid}: ${(e as Error).message}`);
      await this.#client.updateAttempt(rid, aid, { status: "failed", metadata: { "lightgate.failure": `runner error: ${(e as Error).message.slice(0, 500)}` } }).catch(() => {});
      return "failed";
    }
  }

  /** Runs until the signal aborts; heartbeats with its counters after every rollout and while idle. */
  async run(signal: AbortSignal): Promise<RunnerStats> {
    let lastBeat = 0;
    while (!signal.aborted) {
      let worked = false;
      try {
        worked = await this.runOnce();
        if (worked || Date.now() - lastBeat > 5_000) {
          lastBeat = Date.now();
          await this.#client.heartbeat(this.workerId, { ...this.stats });
        }
      } catch (e) {
        this.stats.errors++;
        this.#opts.log(`store unreachable: ${(e as Error).message}`);
        await sleep(1_000, signal);
      }
      if (!worked) await sleep(this.#opts.pollMs, signal);
    }
    return this.stats;
  }
}
