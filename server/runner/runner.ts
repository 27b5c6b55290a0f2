// A runner: behaves like an Agent Lightning runner against the store's public HTTP API. Loop: dequeue one
// rollout (the store opens its attempt), fetch the resources the rollout names, run the episode with what
// acts (a policy, or a prompt template executed by a responder — see actor.ts), export its spans (one per
// step, one per returned tool call, one reward), heartbeat, and close the attempt as succeeded or failed
// with the failure's reason. Retries are the store's business: a failed attempt is requeued under the
// rollout's retry_condition and comes back with reason retry_after_failed.
// The gate's rollouts (metadata `lightgate.phase`, see gate-rollout.ts) run the same way, deterministically
// for their case (ε = 0, no injected tool failures), scored with the pinned evaluator's weights and named
// on the reward span; canary phases also write their effects to the real destination (the Ticket DB).
import { hostname } from "node:os";
import type { Episode } from "@/server/environments/episode";
import { environments as defaultRegistry, type EnvironmentRegistry } from "@/server/environments/registry";
import { spansFromEpisode } from "@/server/environments/spans";
import type { DestinationResolver } from "@/server/environments/support-desk/ticket-db";
import { pinnedDigest, resourcesDigest } from "@/server/store/resources";
import type { AttemptedRollout, ResourcesUpdate } from "@/server/store/types";
import type { AnyEnvironment } from "@/server/trainers/family";
import type { Responder } from "@/server/trainers/prompt/responder";
import { actEpisode, actorEntry, actorOf, responderFactory, type ActedEpisode, type Actor, type RunnerLlm } from "./actor";
import { RunnerStoreClient, type SpanTransport } from "./client";
import { attemptSeed, distributionOf, resourcesVersionHint, ZEpisodeInput, type EpisodeInput } from "./episode-input";
import { GATE_KEYS, GATE_OPTIONS, gateEpisodeSeed, gateRolloutOf, gateSpanAttributes, type GateRollout } from "./gate-rollout";

export type RunnerOptions = {
  url: string;
  apiKey: string;
  workerId?: string;
  transport?: SpanTransport;
  /** Idle wait between empty dequeues. */
  pollMs?: number;
  registry?: EnvironmentRegistry;
  /** Where canary effects land (the desk's Ticket DB); without it this runner fails canary rollouts, saying so. */
  destinations?: DestinationResolver;
  /** The OpenAI-compatible endpoint prompt resources are executed with; unset, the built-in responder. */
  llm?: RunnerLlm;
  log?: (line: string) => void;
};

export type RunnerStats = { succeeded: number; failed: number; errors: number; spans: number };

const actorKey = (resourcesId: string, version: number, entryName: string) => JSON.stringify([resourcesId, version, entryName]);

/** Resources versions whose actors a runner keeps parsed (a batch uses one; a gate run a candidate and its parent). */
const ACTOR_CACHE = 16;

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
  readonly #opts: Required<Omit<RunnerOptions, "workerId" | "url" | "apiKey" | "llm">>;
  readonly #responder: (env: AnyEnvironment) => Responder;

  constructor(opts: RunnerOptions) {
    this.workerId = opts.workerId ?? `runner-${hostname()}-${process.pid}`;
    this.#client = new RunnerStoreClient(opts.url, opts.apiKey);
    this.#opts = {
      transport: opts.transport ?? "otlp",
      pollMs: opts.pollMs ?? 200,
      registry: opts.registry ?? defaultRegistry,
      destinations: opts.destinations ?? (async () => null),
      log: opts.log ?? (() => {}),
    };
    this.#responder = responderFactory(opts.llm ?? null);
  }

  /** Dequeues and executes one rollout; false when the queue was empty. */
  async runOnce(): Promise<boolean> {
    const [item] = await this.#client.dequeue(this.workerId, 1);
    if (!item) return false;
    await this.execute(item);
    return true;
  }

  /** The actor of a version this runner already parsed, when the rollout names that version; else null (fetch). */
  #knownActor(resourcesId: string | null, version: number | null, entryName: string): Actor | null {
    if (resourcesId === null || version === null) return null;
    return this.#actors.get(actorKey(resourcesId, version, entryName)) ?? null;
  }

  /** Parsed actors by resources id, version and entry: a version never changes, so it is checked once. */
  readonly #actors = new Map<string, Actor>();

  /**
   * The actor a resources version names. Parsing and verifying a policy entry (its schema, and its digest over
   * canonical JSON) cost an MLP's ~8,000 weights every episode; a training batch runs one version hundreds of times.
   * The entry's name comes from the rollout's input: own entries only.
   */
  #actorFor(resources: ResourcesUpdate, entryName: string): Actor {
    const key = actorKey(resources.resources_id, resources.version, entryName);
    const cached = this.#actors.get(key);
    if (cached) return cached;
    const actor = actorOf(actorEntry(resources.resources, entryName));
    this.#actors.set(key, actor);
    if (this.#actors.size > ACTOR_CACHE) this.#actors.delete(this.#actors.keys().next().value!);
    return actor;
  }

  async execute(item: AttemptedRollout): Promise<"succeeded" | "failed"> {
    const { rollout_id: rid, attempt } = item;
    const aid = attempt.attempt_id;
    try {
      const input = ZEpisodeInput.parse(item.input);
      const gate = gateRolloutOf(item.metadata);
      const env = this.#opts.registry.get(input.environment);
      if (gate?.spec.environment !== undefined && gate.spec.environment !== env.id) {
        throw new Error(`${GATE_KEYS.evaluatorSpec}.environment: the evaluator scores ${gate.spec.environment}, the rollout runs ${env.id}`);
      }
      const dist = distributionOf(env, input.distribution, input.distribution_digest);
      const known = gate ? null : this.#knownActor(item.resources_id, resourcesVersionHint(item.metadata), input.policy_resource);
      const resources = known ? null : await this.#client.resources(item.resources_id);
      if (!known && !resources) throw new Error(`resources ${item.resources_id ?? "(latest)"} not found`);
      const actor = known ?? this.#actorFor(resources!, input.policy_resource);
      const version = known ? resourcesVersionHint(item.metadata)! : resources!.version;
      await this.#client.updateAttempt(rid, aid, { status: "running" });
      const { episode, responder, parseFailure } = await this.#episode(env, dist, actor, input, gate, `${rid}/${aid}`, attempt.sequence_id);
      const spans = spansFromEpisode(episode, {
        rolloutId: rid,
        attemptId: aid,
        startTime: Date.now() / 1000,
        ...(gate ? gateSpanAttributes(gate, episode) : {}),
      });
      await this.#client.sendSpans(spans, this.#opts.transport);
      this.stats.spans += spans.length;
      const status = episode.aborted ? "failed" : "succeeded";
      const metadata = {
        "lightgate.resources_version": version,
        "lightgate.policy_digest": actor.digest,
        // A prompt's attempt says who answered, and a reply naming no action is reported, not mapped to one.
        ...(responder ? { "lightgate.responder": responder } : {}),
        ...(parseFailure !== null ? { "lightgate.parse_failure": parseFailure.slice(0, 500) } : {}),
        ...(gate ? gateAttemptMetadata(gate, resources!, episode) : {}),
        ...(episode.aborted ? { "lightgate.failure": episode.aborted.reason, "lightgate.failed_step": episode.aborted.step } : {}),
      };
      await this.#client.updateAttempt(rid, aid, { status, metadata });
      this.stats[status]++;
      this.#opts.log(`${rid} attempt ${attempt.sequence_id}${gate ? ` (${gate.phase})` : ""}: ${status}${episode.aborted ? ` (${episode.aborted.reason})` : ""}, ${spans.length} spans`);
      return status;
    } catch (e) {
      // The runner itself could not run it (bad input, missing resources): fail the attempt with why.
      this.stats.errors++;
      this.#opts.log(`${rid}: ${(e as Error).message}`);
      await this.#client.updateAttempt(rid, aid, { status: "failed", metadata: { "lightgate.failure": `runner error: ${(e as Error).message.slice(0, 500)}` } }).catch(() => {});
      return "failed";
    }
  }

  /**
   * A training episode samples with the policy's own exploration and the input's tool failures, seeded per
   * attempt; a gate episode is the case itself (ε = 0, no injected failures, seeded by the case), and a
   * canary's effects are written to the destination before the attempt reports back.
   */
  async #episode(env: AnyEnvironment, dist: ReturnType<typeof distributionOf>, actor: Actor, input: EpisodeInput, gate: GateRollout | null, episodeKey: string, attemptNumber: number): Promise<ActedEpisode> {
    const task = env.sampleTask(dist, input.task_seed);
    if (!gate) return actEpisode(env, actor, task, { episodeKey, seed: attemptSeed(input.task_seed, attemptNumber), options: input.options }, false, this.#responder);
    const destination = gate.acts ? await this.#opts.destinations(env.id) : null;
    if (gate.acts && !destination) throw new Error(`${gate.phase}: this runner has no destination for ${env.id} to act on`);
    const acted = await actEpisode(env, actor, task, { episodeKey, seed: gateEpisodeSeed(input.task_seed), options: GATE_OPTIONS }, true, this.#responder);
    for (const effect of destination ? acted.episode.effects : []) await destination!.apply(effect);
    return acted;
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

/** What a gate attempt reports: exactly which resources it ran, and the destination record it acted on. */
function gateAttemptMetadata(gate: GateRollout, resources: ResourcesUpdate, episode: Episode) {
  return {
    [GATE_KEYS.resourcesId]: resources.resources_id,
    [GATE_KEYS.resourcesDigest]: pinnedDigest(resourcesDigest(resources.resources)),
    ...(gate.acts ? { [GATE_KEYS.target]: episode.target, [GATE_KEYS.episodeKey]: episode.episodeKey } : {}),
  };
}
