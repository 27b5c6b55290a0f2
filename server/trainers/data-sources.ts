// Turning episodes into dataset records: expert demonstrations, the deployed agent's interactions
// (what feedback refers to) and unlabeled tasks. Deterministic for a seed; timestamps count from a
// given start so temporal protocols have an order without reading a clock.
import type { Demonstration, DemoStep, Interaction, TaskRecord } from "@/server/datasets/records";
import { hexId } from "@/server/digest";
import { simulateEpisode, type ActingPolicy, type Episode } from "@/server/environments/episode";
import { Rng, streamSeed } from "@/server/environments/prng";
import { DEFAULT_REWARD_WEIGHTS, weightedReward, type EnvTask, type Environment, type EnvironmentOptions, type TaskDistribution } from "@/server/environments/types";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEnvironment = Environment<any, any>;

export type DemoSource = { id: string; policyFor: (task: EnvTask) => ActingPolicy; /** relative share of episodes */ share?: number };

export type CollectRecordsOptions = {
  distribution: TaskDistribution;
  count: number;
  seed: string;
  /** Names each task's family (the record's `domain`). Defaults to the distribution version. */
  domainOf?: (task: EnvTask) => string;
  options?: Partial<EnvironmentOptions>;
  /** ISO start of the record clock; record i is stamped start + i minutes. */
  startAt?: string;
};

const clamp01 = (v: number) => Math.max(0, Math.min(1, v));

/** Success puts quality in [0.5, 1], failure in [0, 0.5]; the weighted reward orders within each half. */
export function demonstrationQuality(ep: Episode): number {
  const success = ep.outcomeReached && ep.protected?.pass !== false;
  return (success ? 0.5 : 0) + 0.5 * clamp01((weightedReward(ep.totals, DEFAULT_REWARD_WEIGHTS) + 1) / 2);
}

export function stepsOf(ep: Episode): DemoStep[] {
  return ep.steps.map((s) => ({ features: s.features, key: s.key, ...(s.text === undefined ? {} : { text: s.text }), action: s.action, components: { ...s.components } }));
}

function stamp(start: string | undefined, i: number): string | null {
  return start ? new Date(Date.parse(start) + i * 60_000).toISOString() : null;
}

function episodes(env: AnyEnvironment, o: CollectRecordsOptions, pick: (task: EnvTask, i: number) => ActingPolicy) {
  const out: { task: EnvTask; ep: Episode; i: number }[] = [];
  for (let i = 0; i < o.count; i++) {
    const seed = streamSeed(o.seed, "records", i);
    const task = env.sampleTask(o.distribution, seed);
    const ep = simulateEpisode(env, pick(task, i), task, { episodeKey: `rec/${seed}`, seed, options: o.options });
    if (!ep.aborted) out.push({ task, ep, i });
  }
  return out;
}

/** Demonstrations from one or more sources (experts of different skill), drawn by share per episode. */
export function collectDemonstrations(env: AnyEnvironment, sources: readonly DemoSource[], o: CollectRecordsOptions): Demonstration[] {
  if (sources.length === 0) throw new Error("collectDemonstrations needs at least one source");
  const rng = Rng.from(streamSeed(o.seed, "sources"));
  const chosen: DemoSource[] = [];
  const runs = episodes(env, o, (task) => {
    const s = sources[rng.weighted(sources.map((x) => x.share ?? 1))]!;
    chosen.push(s);
    return s.policyFor(task);
  });
  return runs.map(({ task, ep, i }, k) => ({
    kind: "demonstration",
    id: `demo-${hexId(16, o.seed, i)}`,
    taskId: task.id,
    domain: o.domainOf?.(task) ?? o.distribution.version,
    source: chosen[k]!.id,
    quality: demonstrationQuality(ep),
    steps: stepsOf(ep),
    outcomeReached: ep.outcomeReached,
    text: "",
    recordedAt: stamp(o.startAt, i),
  }));
}

/** What a deployed policy (or a per-task one) did on sampled tasks, plus each episode (so callers can simulate feedback on it). */
export function collectInteractions(env: AnyEnvironment, policy: ActingPolicy | ((task: EnvTask) => ActingPolicy), policyDigest: string, o: CollectRecordsOptions): { interaction: Interaction; episode: Episode }[] {
  return episodes(env, o, (task) => (typeof policy === "function" ? policy(task) : policy)).map(({ task, ep, i }) => ({
    interaction: {
      kind: "interaction",
      id: `int-${hexId(16, o.seed, i)}`,
      taskId: task.id,
      domain: o.domainOf?.(task) ?? o.distribution.version,
      policy: policyDigest,
      steps: stepsOf(ep),
      text: "",
      recordedAt: stamp(o.startAt, i),
    },
    episode: ep,
  }));
}

/** Unlabeled tasks: the features of each task's first observation and its visible attributes. */
export function observeTasks(env: AnyEnvironment, o: Omit<CollectRecordsOptions, "domainOf">, visible: readonly string[] = []): TaskRecord[] {
  const out: TaskRecord[] = [];
  for (let i = 0; i < o.count; i++) {
    const seed = streamSeed(o.seed, "tasks", i);
    const task = env.sampleTask(o.distribution, seed);
    const opts = { toolFailureRate: 0, timeoutShare: 0, ...o.options };
    const { state } = env.reset(task, { target: `observe/${task.id}`, rng: Rng.from(seed), options: opts });
    const obs = env.observe(state);
    const attributes = Object.fromEntries(visible.filter((k) => k in task.attributes).map((k) => [k, task.attributes[k]!]));
    out.push({ kind: "task", id: `task-${hexId(16, o.seed, i)}`, features: Array.from(obs.features), attributes, text: "" });
  }
  return out;
}
