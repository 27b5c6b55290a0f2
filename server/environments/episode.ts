// Runs one episode of any environment with any acting policy, deterministically: the policy's draws
// and the environment's draws (tool outcomes) come from two named streams of the episode seed, so the
// same seed, policy and task always give the same episode, and a tool's flakiness never changes which
// action the policy samples.
import { z } from "zod";
import { Rng, streamSeed } from "./prng";
import {
  REWARD_COMPONENTS,
  zeroComponents,
  type Effect,
  type EnvTask,
  type Environment,
  type EnvironmentOptions,
  type Observation,
  type ProtectedVerdict,
  type RewardComponents,
  type ToolCall,
} from "./types";

/** Anything that maps an observation to a probability for each action. */
export interface ActingPolicy {
  probabilities(observation: Observation, out: Float64Array): void;
}

export const environmentOptionsSchema = z
  .object({
    toolFailureRate: z.number().min(0, "toolFailureRate must be ≥ 0").max(1, "toolFailureRate must be ≤ 1").default(0),
    timeoutShare: z.number().min(0, "timeoutShare must be ≥ 0").max(1, "timeoutShare must be ≤ 1").default(0.5),
  })
  .strict();

/** The options with defaults filled in; the zod schema only runs (for its messages) when a value is off. */
export function resolveOptions(input: Partial<EnvironmentOptions> = {}): EnvironmentOptions {
  const { toolFailureRate = 0, timeoutShare = 0.5, ...rest } = input;
  const inRange = (v: unknown) => typeof v === "number" && v >= 0 && v <= 1;
  if (Object.keys(rest).length || !inRange(toolFailureRate) || !inRange(timeoutShare)) return environmentOptionsSchema.parse(input);
  return { toolFailureRate, timeoutShare };
}

export type EpisodeStep = {
  index: number;
  features: number[];
  key: string;
  /** What the agent read at this step, where the environment has words (Observation.text). */
  text?: string;
  action: string;
  actionIndex: number;
  /** Log-probability of the chosen action under the behaviour policy (PPO's old policy). */
  logProb: number;
  components: RewardComponents;
  toolCall: ToolCall | null;
  durationMs: number;
};

export type Episode = {
  environment: { id: string; version: string; specDigest: string };
  task: EnvTask;
  episodeKey: string;
  seed: string;
  target: string;
  steps: EpisodeStep[];
  /** Every destination effect in order, including the ones made when the episode opened. */
  effects: Effect[];
  /** Set when a step could not finish; the episode then has no outcome and no reward. */
  aborted: { step: number; reason: string } | null;
  outcomeReached: boolean;
  protected: ProtectedVerdict | null;
  totals: RewardComponents;
};

export type EpisodeRun = {
  /** Names the episode (e.g. "<rollout>/<attempt>"); the destination target derives from it. */
  episodeKey: string;
  seed: string;
  options?: Partial<EnvironmentOptions>;
};

export function simulateEpisode<TState>(env: Environment<TState>, policy: ActingPolicy, task: EnvTask, run: EpisodeRun): Episode {
  const options = resolveOptions(run.options);
  const policyRng = Rng.from(streamSeed(run.seed, "policy"));
  const target = env.targetFor(task, run.episodeKey);
  const opened = env.reset(task, { target, rng: Rng.from(streamSeed(run.seed, "env")), options });
  const state = opened.state;
  const effects = [...opened.effects];
  const steps: EpisodeStep[] = [];
  const totals = zeroComponents();
  const probs = new Float64Array(env.actions.length);
  let aborted: Episode["aborted"] = null;
  for (let index = 0; index < env.maxSteps; index++) {
    const obs = env.observe(state);
    policy.probabilities(obs, probs);
    const actionIndex = policyRng.weighted(probs);
    const result = env.step(state, actionIndex);
    for (const k of REWARD_COMPONENTS) totals[k] += result.components[k];
    effects.push(...result.effects);
    steps.push({
      index,
      features: Array.from(obs.features),
      key: obs.key,
      ...(obs.text === undefined ? {} : { text: obs.text }),
      action: env.actions[actionIndex]!.name,
      actionIndex,
      logProb: Math.log(probs[actionIndex]!),
      components: result.components,
      toolCall: result.toolCall,
      durationMs: result.durationMs,
    });
    if (result.aborted) {
      aborted = { step: index, reason: result.aborted };
      break;
    }
    if (result.done) break;
  }
  return {
    environment: { id: env.id, version: env.version, specDigest: env.specDigest },
    task,
    episodeKey: run.episodeKey,
    seed: run.seed,
    target,
    steps,
    effects,
    aborted,
    outcomeReached: !aborted && env.outcomeReached(state),
    protected: env.judgeProtected(task, state),
    totals,
  };
}
