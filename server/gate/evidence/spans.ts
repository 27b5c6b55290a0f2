// From the store's raw shapes (Agent Lightning 0.3 wire format) to per-rollout rollups: the span family of
// each span, the reward it carries, and the family counts per attempt. The store calls these at ingest.
import type { AttemptReason, AttemptRollup, FamilyCounts, RolloutRollup } from "../receipt/stage2";
import { dictionary } from "@/lib/own";

type Attributes = Readonly<Record<string, unknown>>;

export type StoreSpan = {
  rollout_id: string;
  attempt_id: string;
  sequence_id: number;
  name: string;
  attributes: Attributes;
  end_time?: number | null;
};

export type StoreAttempt = {
  rollout_id: string;
  attempt_id: string;
  sequence_id: number;
  status: AttemptRollup["status"];
  worker_id: string | null;
  start_time: number;
  end_time: number | null;
  /** Recorded by Lightgate's store beside each attempt; null/absent when unknown. */
  reason?: AttemptReason | null;
};

export type StoreRollout = {
  rollout_id: string;
  mode: RolloutRollup["mode"];
  status: RolloutRollup["status"];
  end_time: number | null;
};

// Span names Agent Lightning's LLM proxy and instrumentations give LLM calls (reference §2.3).
const LLM_SPAN_NAMES = new Set(["raw_gen_ai_request", "litellm_request", "Received Proxy Server Request"]);
const REWARD_VALUE = "agentlightning.reward.0.value";

function stringAttr(attributes: Attributes, key: string): string | null {
  const v = attributes[key];
  return typeof v === "string" && v.length > 0 ? v : null;
}

function agentOpsReward(attributes: Attributes): number | null {
  for (const key of ["agentops.task.output", "agentops.entity.output"]) {
    const text = stringAttr(attributes, key);
    if (!text) continue;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === "object" && (parsed as { type?: unknown }).type === "reward") {
        const value = (parsed as { value?: unknown }).value;
        if (typeof value === "number" && Number.isFinite(value)) return value;
      }
    } catch {
      // Not JSON: not a reward.
    }
  }
  return null;
}

/** The primary reward a span carries, in any of the three formats Agent Lightning reads; null if none. */
export function rewardValueOf(span: Pick<StoreSpan, "name" | "attributes">): number | null {
  const v3 = span.attributes[REWARD_VALUE];
  if (typeof v3 === "number" && Number.isFinite(v3)) return v3;
  const legacy = span.attributes.reward;
  if (span.name === "agentlightning.annotation" && typeof legacy === "number" && Number.isFinite(legacy)) return legacy;
  return agentOpsReward(span.attributes);
}

/**
 * The family a span counts towards in the expected-evidence declaration: `reward`, `tool.call:<tool>`,
 * `llm.call`, `exception`, or otherwise its own name.
 */
export function spanFamily(span: Pick<StoreSpan, "name" | "attributes">): string {
  if (span.name === "agentlightning.reward" || rewardValueOf(span) !== null) return "reward";
  const tool = stringAttr(span.attributes, "gen_ai.tool.name") ?? stringAttr(span.attributes, "tool.name");
  if (tool) return `tool.call:${tool}`;
  if (span.name.startsWith("tool.call:")) return span.name;
  const executeTool = /^execute_tool (.+)$/.exec(span.name);
  if (executeTool) return `tool.call:${executeTool[1]}`;
  if (/^openai\.chat\.completion/.test(span.name) || LLM_SPAN_NAMES.has(span.name)) return "llm.call";
  if (stringAttr(span.attributes, "gen_ai.request.model") || stringAttr(span.attributes, "gen_ai.system")) return "llm.call";
  if (span.name === "agentlightning.exception") return "exception";
  return span.name;
}

export function familyCountsOf(spans: Iterable<Pick<StoreSpan, "name" | "attributes">>): FamilyCounts {
  // Without a prototype: a family is a span's own name, and a span may be called `constructor`.
  const counts: FamilyCounts = dictionary();
  for (const span of spans) {
    const family = spanFamily(span);
    counts[family] = (counts[family] ?? 0) + 1;
  }
  return counts;
}

/** The last reward in sequence order, as Agent Lightning's `find_final_reward` reads it. */
export function finalReward(spans: readonly StoreSpan[]): number | null {
  const ordered = [...spans].sort((a, b) => a.sequence_id - b.sequence_id || (a.end_time ?? 0) - (b.end_time ?? 0));
  let reward: number | null = null;
  for (const span of ordered) reward = rewardValueOf(span) ?? reward;
  return reward;
}

/** One rollout's rollup from its raw attempts and spans (the batch form of what ingest maintains). */
export function rollupRollout(rollout: StoreRollout, attempts: readonly StoreAttempt[], spans: readonly StoreSpan[]): RolloutRollup {
  const byAttempt = new Map<string, StoreSpan[]>();
  for (const span of spans) {
    if (span.rollout_id !== rollout.rollout_id) continue;
    const list = byAttempt.get(span.attempt_id) ?? [];
    list.push(span);
    byAttempt.set(span.attempt_id, list);
  }
  const ordered = attempts.filter((a) => a.rollout_id === rollout.rollout_id).sort((a, b) => a.sequence_id - b.sequence_id);
  const latest = ordered.at(-1);
  return {
    rolloutId: rollout.rollout_id,
    mode: rollout.mode,
    status: rollout.status,
    attempts: ordered.map((a) => ({
      attemptId: a.attempt_id,
      sequenceId: a.sequence_id,
      status: a.status,
      workerId: a.worker_id,
      startTime: a.start_time,
      endTime: a.end_time,
      reason: a.reason ?? null,
      families: familyCountsOf(byAttempt.get(a.attempt_id) ?? []),
    })),
    reward: latest ? finalReward(byAttempt.get(latest.attempt_id) ?? []) : null,
    endTime: rollout.end_time,
  };
}
