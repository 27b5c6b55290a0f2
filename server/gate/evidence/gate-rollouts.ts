// What the gate reads from the rollouts it asked runners for (stage 3), as pure functions over the store's
// raw shapes: a locked-gate case's score under the pinned evaluator's declared scoring, and a canary task's
// tools, side effects (per the tool contracts in force) and cost (LLM token usage priced by the model
// server's entry). Nothing here trusts what a runner says about itself beyond the spans it recorded.
import { z } from "zod";
import { canonicalJson } from "@/server/digest";
import { ownValue } from "@/lib/own";
import type { CanaryBoundary } from "../receipt/stage1";
import { rewardValueOf, spanFamily } from "./spans";

export type GateSpan = { sequence_id: number; name: string; attributes: Readonly<Record<string, unknown>>; end_time?: number | null };

/** Span attributes the gate reads (the runner contract, README "the rollouts the gate asks for"). */
export const GATE_SPAN_KEYS = { evaluator: "lightgate.evaluator", passed: "lightgate.passed", target: "lightgate.target" } as const;

/** How the pinned evaluator's registry entry says a case is scored. */
export const ZScoringSpec = z.union([
  z.looseObject({ scoring: z.literal("runner_reward"), pass_threshold: z.number().finite().optional() }),
  z.looseObject({ scoring: z.literal("expected_output"), output_attribute: z.string().min(1).max(200) }),
]);
export type ScoringSpec = z.infer<typeof ZScoringSpec>;

export type CaseJudgement = { status: "scored"; score: number; passed: boolean } | { status: "unavailable"; reason: string };

const ordered = (spans: readonly GateSpan[]) => [...spans].sort((a, b) => a.sequence_id - b.sequence_id || (a.end_time ?? 0) - (b.end_time ?? 0));

function runnerReward(spans: readonly GateSpan[], evaluator: string, threshold: number): CaseJudgement {
  const rewarded = ordered(spans).filter((s) => rewardValueOf(s) !== null);
  const last = rewarded.at(-1);
  if (!last) return { status: "unavailable", reason: "the rollout recorded no reward span" };
  const named = ownValue(last.attributes, GATE_SPAN_KEYS.evaluator);
  if (named !== evaluator) {
    const said = typeof named === "string" ? `names evaluator ${named.slice(0, 200)}` : `names no evaluator (${GATE_SPAN_KEYS.evaluator})`;
    return { status: "unavailable", reason: `the final reward span ${said}, not the pinned ${evaluator}` };
  }
  const score = rewardValueOf(last)!;
  const passed = ownValue(last.attributes, GATE_SPAN_KEYS.passed);
  return { status: "scored", score, passed: typeof passed === "boolean" ? passed : score >= threshold };
}

function parsedOrText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function expectedOutput(spans: readonly GateSpan[], attribute: string, expected: unknown): CaseJudgement {
  if (expected === null || expected === undefined) return { status: "unavailable", reason: "the case has no expected output to compare with" };
  const last = ordered(spans).filter((s) => Object.hasOwn(s.attributes, attribute)).at(-1);
  if (!last) return { status: "unavailable", reason: `no span carries the output attribute ${attribute}` };
  const value = last.attributes[attribute];
  // An OTLP attribute is a string or a primitive: a JSON-shaped expectation may arrive as its JSON text.
  const matched = canonicalJson(value) === canonicalJson(expected) || canonicalJson(parsedOrText(value)) === canonicalJson(expected);
  return { status: "scored", score: matched ? 1 : 0, passed: matched };
}

export type FinishedRollout = {
  /** The rollout's status in the store; anything but succeeded leaves the case without a result. */
  status: string;
  /** Why its latest attempt failed, when the runner said so. */
  failure?: string | null;
  /** The latest attempt's spans. */
  spans: readonly GateSpan[];
};

/** A locked-gate case's result from its rollout: scored, or unavailable with the reason — never a pass by default. */
export function judgeLockedCase(rollout: FinishedRollout, spec: ScoringSpec, evaluator: string, expected: unknown): CaseJudgement {
  if (rollout.status !== "succeeded") {
    return { status: "unavailable", reason: `the rollout ended ${rollout.status}${rollout.failure ? ` (${rollout.failure.slice(0, 300)})` : ""}` };
  }
  return spec.scoring === "runner_reward" ? runnerReward(rollout.spans, evaluator, spec.pass_threshold ?? 0.5) : expectedOutput(rollout.spans, spec.output_attribute, expected);
}

/** A tool's contract as the registry publishes it: the side effects it has, and whether they are destructive. */
export type ToolContractFacts = { sideEffects: readonly string[]; destructive: boolean };
/** USD per million tokens, from the model server's registry entry; null when it publishes no price. */
export type TokenPricing = { input: number; output: number } | null;

const ZContractBody = z.looseObject({
  side_effects: z.array(z.string().min(1)).optional(),
  sideEffects: z.array(z.string().min(1)).optional(),
  destructive: z.boolean().optional(),
});
const ZPricingBody = z.looseObject({
  pricing: z.object({ input_usd_per_million_tokens: z.number().min(0).finite(), output_usd_per_million_tokens: z.number().min(0).finite() }).optional(),
});

/** A tool_contract entry's body as facts (unreadable fields count as none declared). */
export function contractFacts(body: unknown): ToolContractFacts {
  const parsed = ZContractBody.safeParse(body);
  if (!parsed.success) return { sideEffects: [], destructive: false };
  return { sideEffects: parsed.data.side_effects ?? parsed.data.sideEffects ?? [], destructive: parsed.data.destructive ?? false };
}

export function pricingOf(modelServerBody: unknown): TokenPricing {
  const pricing = ZPricingBody.safeParse(modelServerBody).data?.pricing;
  return pricing ? { input: pricing.input_usd_per_million_tokens, output: pricing.output_usd_per_million_tokens } : null;
}

const TOKEN_KEYS = {
  input: ["gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.usage.prompt_tokens"],
  output: ["gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.usage.completion_tokens"],
} as const;

function tokens(attributes: Readonly<Record<string, unknown>>, keys: readonly string[]): number {
  for (const key of keys) {
    const v = ownValue(attributes, key);
    if (typeof v === "number" && Number.isFinite(v) && v >= 0) return v;
  }
  return 0;
}

export type CanaryObservation = {
  toolsUsed: string[];
  sideEffects: { kind: string; target: string; harmful: boolean }[];
  costUsd: number;
  /** Tokens the model server publishes no price for: the cost boundary cannot be judged on them. */
  unpricedTokens: number;
};

/**
 * What one canary task did, from its spans: each tool call's side effects as its contract declares them
 * (a tool without a registered contract has the side effect `<tool>.undeclared`, which no boundary allows),
 * attributed to the record the span names; destructive contracts' effects are harmful.
 */
export function observeCanaryTask(spans: readonly GateSpan[], contracts: ReadonlyMap<string, ToolContractFacts>, pricing: TokenPricing, fallbackTarget: string): CanaryObservation {
  const tools = new Set<string>();
  const effects = new Map<string, CanaryObservation["sideEffects"][number]>();
  let costUsd = 0;
  let unpricedTokens = 0;
  for (const span of spans) {
    const family = spanFamily(span);
    if (family.startsWith("tool.call:")) {
      const tool = family.slice("tool.call:".length);
      tools.add(tool);
      const target = ownValue(span.attributes, GATE_SPAN_KEYS.target);
      const on = typeof target === "string" && target ? target.slice(0, 200) : fallbackTarget;
      const contract = contracts.get(tool);
      for (const kind of contract ? contract.sideEffects : [`${tool}.undeclared`]) effects.set(`${kind}\u0000${on}`, { kind, target: on, harmful: contract?.destructive ?? false });
    }
    const input = tokens(span.attributes, TOKEN_KEYS.input);
    const output = tokens(span.attributes, TOKEN_KEYS.output);
    if (pricing) costUsd += (input * pricing.input + output * pricing.output) / 1e6;
    else unpricedTokens += input + output;
  }
  return { toolsUsed: [...tools].sort(), sideEffects: [...effects.values()], costUsd, unpricedTokens };
}

/**
 * The first way the canary so far leaves its declared boundary, in words; null while it stays inside. Wall
 * time is not a breach but the boundary's end: the run closes the canary there (unfinished tasks stay unverified).
 */
export function boundaryBreach(observed: readonly CanaryObservation[], boundary: CanaryBoundary): string | null {
  const allowedTools = new Set(boundary.allowedTools);
  const allowedEffects = new Set(boundary.allowedSideEffects);
  for (const o of observed) {
    const tool = o.toolsUsed.find((t) => !allowedTools.has(t));
    if (tool) return `tool ${tool} is outside the boundary (allowed: ${boundary.allowedTools.join(", ") || "none"})`;
    const harmful = o.sideEffects.find((e) => e.harmful);
    if (harmful) return `harmful side effect ${harmful.kind} on ${harmful.target}`;
    const effect = o.sideEffects.find((e) => !allowedEffects.has(e.kind));
    if (effect) return `side effect ${effect.kind} on ${effect.target} is not allowed`;
  }
  const unpriced = observed.reduce((s, o) => s + o.unpricedTokens, 0);
  if (unpriced > 0) return `${unpriced} LLM tokens were used, and the model server's entry publishes no price: the cost boundary cannot be enforced`;
  const cost = observed.reduce((s, o) => s + o.costUsd, 0);
  if (cost > boundary.maxCostUsd) return `cost $${cost.toFixed(4)} is over the boundary's $${boundary.maxCostUsd}`;
  return null;
}
