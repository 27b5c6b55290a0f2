// From stored spans back to what an algorithm learns from, and to the evidence the gate counts.
// Nothing here fills a gap: a lost step, tool or reward span makes the trajectory incomplete with a
// named problem, and coverage lists the missing family — absence is never reported as healthy.
import type { EpisodeStep } from "./episode";
import { AGL_ANNOTATION, ATTR, EPISODE_REWARD, REWARD_ATTR, STEP_SPAN, TOOL_SPAN_PREFIX } from "./spans";
import { REWARD_COMPONENTS, zeroComponents } from "./types";

/** The part of a span this module reads; store rows and OTLP-converted spans both fit. */
export type SpanLike = {
  rollout_id: string;
  attempt_id: string;
  span_id: string;
  parent_id: string | null;
  name: string;
  sequence_id?: number;
  attributes: Record<string, unknown>;
};

/** An episode step as the spans carry it: the tool call reduced to its name and outcome. */
export type TrajectoryStep = Omit<EpisodeStep, "toolCall" | "durationMs"> & { tool: { name: string; outcome: string } | null };

export type Trajectory = {
  rolloutId: string;
  attemptId: string;
  taskId: string | null;
  steps: TrajectoryStep[];
  /** The primary reward of the reward span (null when that span is missing). */
  episodeReward: number | null;
  outcomeReached: boolean | null;
  protected: { caseId: string; family: string; pass: boolean } | null;
  /** True only when every expected span is present and consistent; learners skip the rest. */
  complete: boolean;
  /** Families of the spans found missing (e.g. "tool.call:update_ticket", "reward"), sorted, once each. */
  missing: string[];
  problems: string[];
};

const TOTALS_TOLERANCE = 1e-9;

function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** Reward dimensions of a span in the emit_reward layout, in index order (empty if it carries none). */
export function rewardDimensions(attributes: Record<string, unknown>): { name: string; value: number }[] {
  const dims: { name: string; value: number }[] = [];
  for (let i = 0; ; i++) {
    const name = attributes[`${REWARD_ATTR}.${i}.name`];
    const value = num(attributes[`${REWARD_ATTR}.${i}.value`]);
    if (typeof name !== "string" || value === null) break;
    dims.push({ name, value });
  }
  return dims;
}

export function isRewardSpan(span: SpanLike): boolean {
  return rewardDimensions(span.attributes).length > 0;
}

/** The evidence family a span belongs to, as the expected-evidence declaration names it. */
export function spanFamily(span: SpanLike): string {
  return isRewardSpan(span) ? "reward" : span.name;
}

/** Families present in a rollout's spans, sorted (e.g. agent.step, reward, tool.call:update_ticket). */
export function spanFamiliesOf(spans: readonly SpanLike[]): string[] {
  return [...new Set(spans.map(spanFamily))].sort();
}

function parseStep(span: SpanLike): TrajectoryStep | string {
  const a = span.attributes;
  const index = num(a[ATTR.stepIndex]);
  const actionIndex = num(a[ATTR.actionIndex]);
  const logProb = num(a[ATTR.logProb]);
  const features = a[ATTR.features];
  const bad: string[] = [];
  if (index === null || !Number.isInteger(index) || index < 0) bad.push("index");
  if (actionIndex === null || !Number.isInteger(actionIndex) || actionIndex < 0) bad.push("action_index");
  if (logProb === null || logProb > 0) bad.push("log_prob");
  if (!Array.isArray(features) || !features.every((f) => typeof f === "number" && Number.isFinite(f))) bad.push("features");
  if (typeof a[ATTR.action] !== "string") bad.push("action");
  if (typeof a[ATTR.stateKey] !== "string") bad.push("state_key");
  const components = zeroComponents();
  for (const k of REWARD_COMPONENTS) {
    const v = num(a[ATTR.stepReward + k]);
    if (v === null) bad.push(`reward.${k}`);
    else components[k] = v;
  }
  if (bad.length) return `step span ${span.span_id} has malformed ${bad.join(", ")}`;
  const tool = a[ATTR.stepTool];
  return {
    index: index!,
    features: features as number[],
    key: a[ATTR.stateKey] as string,
    action: a[ATTR.action] as string,
    actionIndex: actionIndex!,
    logProb: logProb!,
    components,
    tool: typeof tool === "string" ? { name: tool, outcome: "missing" } : null,
  };
}

/** Rebuilds one attempt's trajectory from its spans (any order, duplicates allowed). */
export function trajectoryFromSpans(spans: readonly SpanLike[]): Trajectory {
  if (spans.length === 0) throw new Error("no spans: a trajectory needs at least one");
  const { rollout_id: rolloutId, attempt_id: attemptId } = spans[0]!;
  if (spans.some((s) => s.rollout_id !== rolloutId || s.attempt_id !== attemptId)) {
    throw new Error("spans of more than one attempt: pass one attempt's spans at a time");
  }
  const unique = [...new Map(spans.map((s) => [s.span_id, s])).values()];
  const problems: string[] = [];
  const missing = new Set<string>();
  const lost = (family: string, problem: string) => {
    missing.add(family);
    problems.push(problem);
  };
  const steps: TrajectoryStep[] = [];
  const stepSpanIds = new Map<number, string>();
  for (const span of unique) {
    if (span.name !== STEP_SPAN) continue;
    const parsed = parseStep(span);
    if (typeof parsed === "string") problems.push(parsed);
    else if (stepSpanIds.has(parsed.index)) problems.push(`two step spans claim step ${parsed.index}`);
    else {
      steps.push(parsed);
      stepSpanIds.set(parsed.index, span.span_id);
    }
  }
  steps.sort((x, y) => x.index - y.index);
  const toolsByParent = new Map(unique.filter((s) => s.name.startsWith(TOOL_SPAN_PREFIX)).map((s) => [s.parent_id, s]));
  for (const step of steps) {
    if (!step.tool) continue;
    const toolSpan = toolsByParent.get(stepSpanIds.get(step.index)!);
    if (!toolSpan || toolSpan.name !== TOOL_SPAN_PREFIX + step.tool.name) {
      lost(TOOL_SPAN_PREFIX + step.tool.name, `step ${step.index}: ${TOOL_SPAN_PREFIX}${step.tool.name} span is missing`);
    } else {
      const outcome = toolSpan.attributes[ATTR.toolOutcome];
      step.tool.outcome = typeof outcome === "string" ? outcome : "unknown";
    }
  }

  const rewardSpans = unique.filter(isRewardSpan);
  let episodeReward: number | null = null;
  let outcomeReached: boolean | null = null;
  let protectedCase: Trajectory["protected"] = null;
  let taskId: string | null = null;
  for (const s of unique) if (typeof s.attributes[ATTR.taskId] === "string") taskId = s.attributes[ATTR.taskId] as string;
  if (rewardSpans.length === 0) lost("reward", "reward span is missing");
  else if (rewardSpans.length > 1) problems.push(`${rewardSpans.length} reward spans: expected exactly one per episode`);
  else {
    const r = rewardSpans[0]!;
    const dims = rewardDimensions(r.attributes);
    if (r.name !== AGL_ANNOTATION || dims[0]!.name !== EPISODE_REWARD) problems.push(`reward span ${r.span_id} is not an ${EPISODE_REWARD} annotation`);
    episodeReward = dims[0]!.value;
    const declared = num(r.attributes[ATTR.episodeSteps]);
    if (declared === null) problems.push("reward span does not say how many steps the episode had");
    for (let i = 0; i < (declared ?? 0); i++) if (!stepSpanIds.has(i)) lost(STEP_SPAN, `step ${i}: ${STEP_SPAN} span is missing`);
    if (declared !== null && steps.length > declared) problems.push(`${steps.length} step spans for an episode of ${declared} steps`);
    for (const k of REWARD_COMPONENTS) {
      const total = dims.find((d) => d.name === k)?.value;
      const sum = steps.reduce((acc, s) => acc + s.components[k], 0);
      if (total === undefined) problems.push(`reward span has no ${k} dimension`);
      else if (Math.abs(total - sum) > TOTALS_TOLERANCE) problems.push(`${k}: steps add up to ${sum}, the reward span says ${total}`);
    }
    const reached = r.attributes[ATTR.outcomeReached];
    outcomeReached = typeof reached === "boolean" ? reached : null;
    const caseId = r.attributes[ATTR.caseId];
    if (typeof caseId === "string") {
      protectedCase = { caseId, family: String(r.attributes[ATTR.family]), pass: r.attributes[ATTR.protectedPass] === true };
    }
  }
  if (steps.length === 0) lost(STEP_SPAN, `no ${STEP_SPAN} spans`);
  return {
    rolloutId,
    attemptId,
    taskId,
    steps,
    episodeReward,
    outcomeReached,
    protected: protectedCase,
    complete: problems.length === 0,
    missing: [...missing].sort(),
    problems,
  };
}

/** The evidence each rollout must have, declared before training (receipt stage 1). */
export type EvidenceDeclaration = {
  /** Families every rollout must contain. */
  required: string[];
  /** Each step that names a tool must have that tool's `tool.call:<tool>` span. */
  toolSpanPerToolStep: boolean;
};

export const EPISODE_EVIDENCE: EvidenceDeclaration = { required: [STEP_SPAN, "reward"], toolSpanPerToolStep: true };

export type Coverage = { complete: boolean; present: string[]; missing: string[]; problems: string[] };

/** What of the declared evidence one attempt's spans contain; `missing` names each absent family. */
export function coverageOf(spans: readonly SpanLike[], declaration: EvidenceDeclaration = EPISODE_EVIDENCE): Coverage {
  const present = spanFamiliesOf(spans);
  const missing = new Set(declaration.required.filter((f) => !present.includes(f)));
  const problems: string[] = [];
  if (spans.length > 0) {
    const t = trajectoryFromSpans(spans);
    for (const family of t.missing) {
      if (declaration.toolSpanPerToolStep || !family.startsWith(TOOL_SPAN_PREFIX)) missing.add(family);
    }
    problems.push(...t.problems.filter((p) => declaration.toolSpanPerToolStep || !p.includes(TOOL_SPAN_PREFIX)));
  } else {
    problems.push("no spans at all");
  }
  return { complete: missing.size === 0 && problems.length === 0, present, missing: [...missing].sort(), problems };
}
