// What a runner reads from a rollout the gate asked for (the runner contract of issue 13): the phase, the
// evaluator it must score with and name on its reward span, and whether the phase acts on the real
// destination. A rollout without `lightgate.phase` is a training rollout and none of this applies.
import { z } from "zod";
import { ownValue } from "@/lib/own";
import { DEFAULT_REWARD_WEIGHTS, REWARD_COMPONENTS, type EnvironmentOptions, type RewardComponents } from "@/server/environments/types";
import type { SpanAttributes } from "@/server/environments/spans";
import type { Episode } from "@/server/environments/episode";
import type { JsonObject } from "@/server/store/types";

/** Rollout metadata keys the gate writes, and attempt/span keys the runner answers with. */
export const GATE_KEYS = {
  phase: "lightgate.phase",
  evaluator: "lightgate.evaluator",
  evaluatorSpec: "lightgate.evaluator_spec",
  case: "lightgate.case",
  /** Reward span: whether the outcome was reached and protected behaviour held. */
  passed: "lightgate.passed",
  /** Attempt and tool spans: the destination record (ticket) acted on; the attempt also names the episode key it derives from. */
  target: "lightgate.target",
  episodeKey: "lightgate.episode_key",
  resourcesId: "lightgate.resources_id",
  resourcesDigest: "lightgate.resources_digest",
} as const;

export const GATE_PHASES = ["locked_gate", "canary", "rollback", "canary_stage"] as const;
export type GatePhase = (typeof GATE_PHASES)[number];

/** Phases whose effects land in the real destination (the bounded canary and its later stage). */
const ACTING_PHASES: ReadonlySet<GatePhase> = new Set(["canary", "canary_stage"]);

/** A gate case measures decisions, not luck with flaky tools: no injected failures. */
export const GATE_OPTIONS: EnvironmentOptions = { toolFailureRate: 0, timeoutShare: 0 };

/** Same seed convention as `evaluatePolicy`, so a case scores the same in a runner as in-process. */
export const gateEpisodeSeed = (taskSeed: string) => `eval/${taskSeed}`;

const ZWeight = z.number().finite("must be a finite number");

/** The registry body of a runner-scored evaluator: how the reward is weighted and what passes. */
export const ZRunnerRewardSpec = z.looseObject({
  scoring: z.literal("runner_reward", { message: 'must be "runner_reward" (this runner scores only with its own reward)' }),
  environment: z.string().min(1).optional(),
  weights: z.object(Object.fromEntries(REWARD_COMPONENTS.map((k) => [k, ZWeight])) as Record<(typeof REWARD_COMPONENTS)[number], typeof ZWeight>).partial().strict().optional(),
  pass_threshold: z.number().finite().optional(),
});
export type RunnerRewardSpec = z.infer<typeof ZRunnerRewardSpec>;

export type GateRollout = {
  phase: GatePhase;
  /** `"<id>@<version>"`, copied onto the reward span. */
  evaluator: string;
  spec: RunnerRewardSpec;
  weights: RewardComponents;
  /** Whether this attempt writes its effects to the real destination. */
  acts: boolean;
};

/** A gate rollout's metadata is not what the contract says; the message names the key. */
export class GateMetadataError extends Error {}

function issueText(key: string, error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${[key, ...issue.path].join(".")}: ${issue.message}`;
}

/** The gate part of a rollout's metadata; null for a training rollout (no `lightgate.phase`). */
export function gateRolloutOf(metadata: JsonObject | null): GateRollout | null {
  const phase = metadata ? ownValue(metadata, GATE_KEYS.phase) : undefined;
  if (phase === undefined || phase === null) return null;
  if (typeof phase !== "string" || !(GATE_PHASES as readonly string[]).includes(phase)) {
    throw new GateMetadataError(`${GATE_KEYS.phase}: must be one of ${GATE_PHASES.join(", ")}`);
  }
  const evaluator = ownValue(metadata!, GATE_KEYS.evaluator);
  if (typeof evaluator !== "string" || !/^[^@\s]{1,200}@[^@\s]{1,200}$/.test(evaluator)) {
    throw new GateMetadataError(`${GATE_KEYS.evaluator}: must name the pinned evaluator as "<id>@<version>"`);
  }
  const parsed = ZRunnerRewardSpec.safeParse(ownValue(metadata!, GATE_KEYS.evaluatorSpec));
  if (!parsed.success) throw new GateMetadataError(issueText(GATE_KEYS.evaluatorSpec, parsed.error));
  const spec = parsed.data;
  return { phase: phase as GatePhase, evaluator, spec, weights: { ...DEFAULT_REWARD_WEIGHTS, ...(spec.weights ?? {}) }, acts: ACTING_PHASES.has(phase as GatePhase) };
}

/** Outcome reached, and the protected behaviour (if the case has one) held. */
export const episodePassed = (episode: Episode) => episode.outcomeReached && episode.protected?.pass !== false;

/**
 * What a gate rollout's spans carry besides the episode: the reward weighted by the pinned evaluator and
 * tagged with it and the pass; for an acting phase, every tool span names the record it acted on, so the
 * gate can attribute each side effect to its target.
 */
export function gateSpanAttributes(gate: GateRollout, episode: Episode): { rewardWeights: RewardComponents; rewardAttributes: SpanAttributes; toolAttributes?: SpanAttributes } {
  return {
    rewardWeights: gate.weights,
    rewardAttributes: { [GATE_KEYS.evaluator]: gate.evaluator, [GATE_KEYS.passed]: episodePassed(episode) },
    ...(gate.acts ? { toolAttributes: { [GATE_KEYS.target]: episode.target } } : {}),
  };
}
