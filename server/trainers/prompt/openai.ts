// The language-model path of prompt optimization: any OpenAI-compatible endpoint (`OPENAI_BASE_URL`,
// optional `OPENAI_API_KEY`, `OPENAI_MODEL`), called with plain fetch on /chat/completions. The model
// acts as the support agent (one call per step, the prompt as system message, the ticket as text) and
// edits prompts the APO way: a critique of the prompt from failed episodes ("textual gradient"), then
// a rewrite that applies it.
import type { Environment, EnvTask, Observation } from "@/server/environments/types";
import { Rng, streamSeed } from "@/server/environments/prng";
import { DEFAULT_REWARD_WEIGHTS, weightedReward, zeroComponents, REWARD_COMPONENTS } from "@/server/environments/types";
import { renderTemplate } from "./template";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEnvironment = Environment<any, any>;

export type LlmEndpoint = { baseUrl: string; model: string; apiKey: string | null; timeoutMs: number };

export function endpointFromEnv(env: Record<string, string | undefined> = process.env): LlmEndpoint | null {
  const base = env.OPENAI_BASE_URL?.trim();
  if (!base) return null;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new Error(`OPENAI_BASE_URL is not a URL: "${base}"`);
  }
  return { baseUrl: url.toString().replace(/\/+$/, ""), model: env.OPENAI_MODEL?.trim() || "gpt-4o-mini", apiKey: env.OPENAI_API_KEY?.trim() || null, timeoutMs: 30_000 };
}

export function scorerId(e: LlmEndpoint): string {
  return `openai-compatible:${e.model}@${e.baseUrl}`;
}

export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

export async function chat(e: LlmEndpoint, messages: ChatMessage[]): Promise<string> {
  const res = await fetch(`${e.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(e.apiKey ? { authorization: `Bearer ${e.apiKey}` } : {}) },
    body: JSON.stringify({ model: e.model, messages, temperature: 0 }),
    signal: AbortSignal.timeout(e.timeoutMs),
  });
  if (!res.ok) throw new Error(`${e.baseUrl}/chat/completions answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== "string") throw new Error(`${e.baseUrl}/chat/completions returned no choices[0].message.content`);
  return content;
}

/** The observation as text: the non-zero features by name (bias and progress left out). */
export function describeObservation(env: AnyEnvironment, obs: Observation): string {
  const parts: string[] = [];
  env.featureNames.forEach((name, i) => {
    const v = obs.features[i]!;
    if (v !== 0 && name !== "bias" && name !== "progress" && !name.includes("*")) parts.push(v === 1 ? name : `${name}=${v.toFixed(2)}`);
  });
  return parts.join(", ");
}

/** The first action name the reply mentions, or null. */
export function actionIn(reply: string, actions: readonly string[]): string | null {
  let best: { name: string; at: number } | null = null;
  for (const a of actions) {
    const at = reply.indexOf(a);
    if (at >= 0 && (!best || at < best.at)) best = { name: a, at };
  }
  return best?.name ?? null;
}

export type LlmEpisode = { reward: number; outcomeReached: boolean; actions: string[]; invalidReplies: number };

/** One episode with the model choosing every action (async, so it has its own small driver). */
export async function llmEpisode(env: AnyEnvironment, e: LlmEndpoint, template: string, task: EnvTask, seed: string): Promise<LlmEpisode> {
  const names = env.actions.map((a) => a.name);
  const { state } = env.reset(task, { target: `apo/${seed}`, rng: Rng.from(streamSeed(seed, "env")), options: { toolFailureRate: 0, timeoutShare: 0 } });
  const totals = zeroComponents();
  const actions: string[] = [];
  let invalid = 0;
  for (let i = 0; i < env.maxSteps; i++) {
    const obs = env.observe(state);
    const system = renderTemplate(template, { ticket: describeObservation(env, obs), actions: names.join(", ") });
    const reply = await chat(e, [
      { role: "system", content: system },
      { role: "user", content: `Ticket: ${describeObservation(env, obs)}\nChoose the next action. Reply with exactly one of: ${names.join(", ")}.` },
    ]);
    let action = actionIn(reply, names);
    if (!action) {
      invalid++;
      action = "provide_direct_answer";
    }
    actions.push(action);
    const r = env.step(state, names.indexOf(action));
    for (const k of REWARD_COMPONENTS) totals[k] += r.components[k];
    if (r.done || r.aborted) break;
  }
  return { reward: weightedReward(totals, DEFAULT_REWARD_WEIGHTS), outcomeReached: env.outcomeReached(state), actions, invalidReplies: invalid };
}

/** APO's edit: a critique from failures, then a rewrite applying it; the ticket placeholder is kept. */
export async function llmEdit(e: LlmEndpoint, template: string, failures: readonly string[]): Promise<string> {
  const critique = await chat(e, [
    { role: "system", content: "You review the instructions (prompt) of a customer-support agent and say concisely what to change so it handles tickets correctly." },
    { role: "user", content: `Prompt:\n${template}\n\nEpisodes that went wrong:\n${failures.join("\n") || "(none)"}\n\nWhat should change in the prompt?` },
  ]);
  let rewritten = await chat(e, [
    { role: "system", content: "You rewrite prompts. Return only the new prompt text, nothing else." },
    { role: "user", content: `Prompt:\n${template}\n\nCritique:\n${critique}\n\nRewrite the prompt applying the critique. Keep the {ticket} placeholder.` },
  ]);
  rewritten = rewritten.replace(/^```[a-z]*\n?|```$/g, "").trim();
  if (!rewritten) return template;
  return rewritten.includes("{ticket}") ? rewritten : `${rewritten}\n{ticket}`;
}
