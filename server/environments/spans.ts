// The span mapping the runner and the trainers share: an episode becomes Agent Lightning span JSON —
// one `agent.step` per step, one `tool.call:<tool>` per tool call that returned, and one reward
// annotation per episode in the shape `agentlightning.emitter.reward.emit_reward` produces
// (`agentlightning.annotation` with `agentlightning.reward.<i>.name/value`, index 0 the primary).
// Everything a learner needs (features, action, behaviour log-probability, reward components) travels
// in the spans, so trajectoryFromSpans (trajectory.ts) can rebuild it from the store alone.
import { canonicalJson, hexId } from "@/server/digest";
import type { Episode } from "./episode";
import { DEFAULT_REWARD_WEIGHTS, REWARD_COMPONENTS, weightedReward, type RewardComponents } from "./types";

export type AttributeValue = string | number | boolean | string[] | number[] | boolean[];
export type SpanAttributes = Record<string, AttributeValue>;
export type SpanContext = { trace_id: string; span_id: string; is_remote: boolean; trace_state: Record<string, string> };

/** A span as Agent Lightning 0.3's store exchanges it (agentlightning/types/tracer.py). */
export type AglSpan = {
  rollout_id: string;
  attempt_id: string;
  sequence_id: number;
  trace_id: string;
  span_id: string;
  parent_id: string | null;
  name: string;
  status: { status_code: "UNSET" | "OK" | "ERROR"; description: string | null };
  attributes: SpanAttributes;
  events: { name: string; attributes: SpanAttributes; timestamp: number | null }[];
  links: { context: SpanContext; attributes: SpanAttributes | null }[];
  start_time: number | null;
  end_time: number | null;
  context: SpanContext | null;
  parent: SpanContext | null;
  resource: { attributes: SpanAttributes; schema_url: string };
};

export const STEP_SPAN = "agent.step";
export const TOOL_SPAN_PREFIX = "tool.call:";
export const AGL_ANNOTATION = "agentlightning.annotation";
export const REWARD_ATTR = "agentlightning.reward";
/** The primary reward dimension's name; the components follow as dimensions 1..4. */
export const EPISODE_REWARD = "episode_reward";

/** Attribute keys of Lightgate's own spans (flat, dotted, as OpenTelemetry requires). */
export const ATTR = {
  stepIndex: "lightgate.step.index",
  action: "lightgate.step.action",
  actionIndex: "lightgate.step.action_index",
  logProb: "lightgate.step.log_prob",
  features: "lightgate.step.features",
  stateKey: "lightgate.step.state_key",
  stepTool: "lightgate.step.tool",
  stepReward: "lightgate.step.reward.", // + component
  toolName: "lightgate.tool.name",
  toolVersion: "lightgate.tool.version",
  toolContract: "lightgate.tool.contract_digest",
  toolArguments: "lightgate.tool.arguments",
  toolOutcome: "lightgate.tool.outcome",
  episodeSteps: "lightgate.episode.steps",
  outcomeReached: "lightgate.episode.outcome_reached",
  taskId: "lightgate.task.id",
  distribution: "lightgate.task.distribution",
  distributionDigest: "lightgate.task.distribution_digest",
  environment: "lightgate.environment.id",
  specDigest: "lightgate.environment.spec_digest",
  caseId: "lightgate.protected.case_id",
  family: "lightgate.protected.family",
  protectedPass: "lightgate.protected.pass",
  protectedReasons: "lightgate.protected.reasons",
} as const;

export type SpanIds = {
  rolloutId: string;
  attemptId: string;
  /** Epoch seconds of the episode's first step. */
  startTime: number;
  /** Sequence id of the first span; the rest follow one by one. */
  firstSequenceId?: number;
  /** Weights of the primary reward (the run's reward model); the seed's defaults if omitted. */
  rewardWeights?: Readonly<RewardComponents>;
  /** Extra attributes of the reward span (a gate rollout names the evaluator that scored it). */
  rewardAttributes?: SpanAttributes;
  /** Extra attributes of every tool span (a canary names the destination record its tools acted on). */
  toolAttributes?: SpanAttributes;
};

/** Deterministic ids, so a re-sent span is a duplicate the store rejects, not a second copy. */
export function traceIdFor(rolloutId: string, attemptId: string): string {
  return hexId(32, "trace", rolloutId, attemptId);
}
export function spanIdFor(rolloutId: string, attemptId: string, kind: string, index: number): string {
  return hexId(16, "span", rolloutId, attemptId, kind, index);
}

export function spansFromEpisode(episode: Episode, ids: SpanIds): AglSpan[] {
  const traceId = traceIdFor(ids.rolloutId, ids.attemptId);
  const resource = {
    attributes: { "agentlightning.rollout_id": ids.rolloutId, "agentlightning.attempt_id": ids.attemptId, "service.name": "lightgate-runner" },
    schema_url: "",
  };
  const spans: AglSpan[] = [];
  let sequence = ids.firstSequenceId ?? 1;
  const make = (kind: string, index: number, name: string, parent: string | null, start: number, end: number, attributes: SpanAttributes, error: string | null): AglSpan => {
    const spanId = spanIdFor(ids.rolloutId, ids.attemptId, kind, index);
    const ctx = (id: string): SpanContext => ({ trace_id: traceId, span_id: id, is_remote: false, trace_state: {} });
    return {
      rollout_id: ids.rolloutId,
      attempt_id: ids.attemptId,
      sequence_id: sequence++,
      trace_id: traceId,
      span_id: spanId,
      parent_id: parent,
      name,
      status: error ? { status_code: "ERROR", description: error } : { status_code: "OK", description: null },
      attributes,
      events: [],
      links: [],
      start_time: start,
      end_time: end,
      context: ctx(spanId),
      parent: parent ? ctx(parent) : null,
      resource,
    };
  };

  let clock = ids.startTime;
  for (const step of episode.steps) {
    const start = clock;
    const end = start + step.durationMs / 1000;
    clock = end;
    const aborted = episode.aborted?.step === step.index ? episode.aborted.reason : null;
    const attributes: SpanAttributes = {
      [ATTR.stepIndex]: step.index,
      [ATTR.action]: step.action,
      [ATTR.actionIndex]: step.actionIndex,
      [ATTR.logProb]: step.logProb,
      [ATTR.features]: step.features,
      [ATTR.stateKey]: step.key,
      [ATTR.taskId]: episode.task.id,
    };
    for (const k of REWARD_COMPONENTS) attributes[ATTR.stepReward + k] = step.components[k];
    if (step.toolCall) attributes[ATTR.stepTool] = step.toolCall.tool;
    const stepSpan = make("step", step.index, STEP_SPAN, null, start, end, attributes, aborted);
    spans.push(stepSpan);
    const call = step.toolCall;
    // A call that hung never ended, so its span was never exported: the gap is the evidence.
    if (call && call.status !== "timeout") {
      spans.push(
        make("tool", step.index, TOOL_SPAN_PREFIX + call.tool, stepSpan.span_id, start, start + call.latencyMs / 1000, {
          [ATTR.toolName]: call.tool,
          [ATTR.toolVersion]: call.version,
          [ATTR.toolContract]: call.contractDigest,
          [ATTR.toolArguments]: canonicalJson(call.arguments),
          [ATTR.toolOutcome]: call.status,
          [ATTR.stepIndex]: step.index,
          ...ids.toolAttributes,
        }, call.reason),
      );
    }
  }
  if (!episode.aborted) {
    const weights = ids.rewardWeights ?? DEFAULT_REWARD_WEIGHTS;
    const attributes: SpanAttributes = {
      [`${REWARD_ATTR}.0.name`]: EPISODE_REWARD,
      [`${REWARD_ATTR}.0.value`]: weightedReward(episode.totals, weights),
    };
    REWARD_COMPONENTS.forEach((k, i) => {
      attributes[`${REWARD_ATTR}.${i + 1}.name`] = k;
      attributes[`${REWARD_ATTR}.${i + 1}.value`] = episode.totals[k];
    });
    Object.assign(attributes, {
      [ATTR.episodeSteps]: episode.steps.length,
      [ATTR.outcomeReached]: episode.outcomeReached,
      [ATTR.taskId]: episode.task.id,
      [ATTR.distribution]: episode.task.distribution.version,
      [ATTR.distributionDigest]: episode.task.distribution.digest,
      [ATTR.environment]: episode.environment.id,
      [ATTR.specDigest]: episode.environment.specDigest,
    });
    if (episode.protected) {
      Object.assign(attributes, {
        [ATTR.caseId]: episode.protected.caseId,
        [ATTR.family]: episode.protected.family,
        [ATTR.protectedPass]: episode.protected.pass,
        [ATTR.protectedReasons]: episode.protected.reasons,
      });
    }
    if (ids.rewardAttributes) Object.assign(attributes, ids.rewardAttributes);
    spans.push(make("reward", 0, AGL_ANNOTATION, null, clock, clock, attributes, null));
  }
  return spans;
}
