// What a span says in people's terms: its input and output, the reward it carries, tokens and cost — read
// from the attribute names Agent Lightning's instrumentations and OpenTelemetry's gen_ai conventions use (and
// the desk's own lightgate.* ones). Browser-safe: the span detail and the trace summary both read it.
import { ownValue } from "@/lib/own";

export const TOKEN_KEYS = {
  input: ["gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.usage.prompt_tokens"],
  output: ["gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.usage.completion_tokens"],
} as const;
export const COST_KEYS = ["gen_ai.usage.cost", "llm.usage.cost", "cost_usd"] as const;

const INPUT = [/^gen_ai\.prompt(\.|$)/, /^gen_ai\.input\.messages$/, /^input\.value$/, /^gen_ai\.tool\.call\.arguments$/, /^lightgate\.tool\.arguments$/, /^lightgate\.step\.features$/, /^lightgate\.task\.id$/];
const OUTPUT = [/^gen_ai\.completion(\.|$)/, /^gen_ai\.output\.messages$/, /^output\.value$/, /^gen_ai\.tool\.call\.result$/, /^lightgate\.tool\.outcome$/, /^lightgate\.step\.action$/];
const REWARD = [/^agentlightning\.reward(\.|$)/, /^reward$/, /^lightgate\.step\.reward\./];

export function firstNumber(attributes: Readonly<Record<string, unknown>>, keys: readonly string[]): number | null {
  for (const key of keys) {
    const v = ownValue(attributes, key);
    if (typeof v === "number" && Number.isFinite(v) && v >= 0) return v;
  }
  return null;
}

/** A JSON-looking string as its value (prompts are often serialised messages), anything else as it is. */
function readable(v: unknown): unknown {
  if (typeof v !== "string" || !/^\s*[[{]/.test(v)) return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

function pick(attributes: Readonly<Record<string, unknown>>, patterns: readonly RegExp[]): Record<string, unknown> | null {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  let any = false;
  for (const [k, v] of Object.entries(attributes)) {
    if (patterns.some((p) => p.test(k))) {
      out[k] = readable(v);
      any = true;
    }
  }
  return any ? out : null;
}

export type SpanIo = { input: Record<string, unknown> | null; output: Record<string, unknown> | null; reward: Record<string, unknown> | null; inputTokens: number | null; outputTokens: number | null; costUsd: number | null };

export function spanIo(attributes: Readonly<Record<string, unknown>>): SpanIo {
  return {
    input: pick(attributes, INPUT),
    output: pick(attributes, OUTPUT),
    reward: pick(attributes, REWARD),
    inputTokens: firstNumber(attributes, TOKEN_KEYS.input),
    outputTokens: firstNumber(attributes, TOKEN_KEYS.output),
    costUsd: firstNumber(attributes, COST_KEYS),
  };
}
