// The language-model path of prompt optimization: any OpenAI-compatible endpoint (`OPENAI_BASE_URL`,
// optional `OPENAI_API_KEY`, `OPENAI_MODEL`) through the maintained `openai` client, which retries
// 429 and 5xx with exponential backoff (honouring Retry-After) up to `maxRetries` and times each request
// out. Calls share one p-limit queue, so a search never has more than `concurrency` requests in flight.
// The model acts with temperature 0 and edits with the configured sampling temperature and a seed.
import OpenAI from "openai";
import pLimit from "p-limit";
import { rolloutText, type ActRequest, type EditRequest, type Responder, type RolloutSummary } from "./responder";

export type LlmEndpoint = { baseUrl: string; model: string; apiKey: string | null };
export type LlmLimits = { concurrency: number; timeoutMs: number; maxRetries: number };

export function endpointFromEnv(env: Record<string, string | undefined> = process.env): LlmEndpoint | null {
  const base = env.OPENAI_BASE_URL?.trim();
  if (!base) return null;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new Error(`OPENAI_BASE_URL is not a URL: "${base}"`);
  }
  return { baseUrl: url.toString().replace(/\/+$/, ""), model: env.OPENAI_MODEL?.trim() || "gpt-4o-mini", apiKey: env.OPENAI_API_KEY?.trim() || null };
}

export function scorerId(e: LlmEndpoint): string {
  return `openai-compatible:${e.model}@${e.baseUrl}`;
}

/** A reply the model gave that carries no usable text (no choices, empty content). */
export class UnusableReply extends Error {
  override readonly name = "UnusableReply";
}

const CRITIC = "You review the instructions (prompt) of a customer-support agent. From the rollouts shown, say concisely what to change in the prompt so the agent handles such tickets correctly. Requests that must reach a human must never be handled by a destructive tool.";
const EDITOR = "You rewrite prompts. Return only the new prompt text, nothing else. Keep the {ticket} placeholder.";

export function openaiResponder(e: LlmEndpoint, limits: LlmLimits): Responder {
  // The client does the retries (429, 408, 409, 5xx, connection errors) and the timeouts.
  const client = new OpenAI({ baseURL: e.baseUrl, apiKey: e.apiKey ?? "unused", maxRetries: limits.maxRetries, timeout: limits.timeoutMs });
  const limit = pLimit(limits.concurrency);
  const chat = (messages: { role: "system" | "user"; content: string }[], temperature: number, seed?: number) =>
    limit(async () => {
      const res = await client.chat.completions.create({ model: e.model, messages, temperature, ...(seed === undefined ? {} : { seed }) });
      const content = res.choices?.[0]?.message?.content;
      if (typeof content !== "string" || !content.trim()) throw new UnusableReply(`${e.baseUrl}: the reply had no choices[0].message.content`);
      return content;
    });
  return {
    id: scorerId(e),
    act: (req: ActRequest) => chat([{ role: "system", content: req.system }, { role: "user", content: `Ticket:\n${req.ticket}\n\nChoose the next action. Reply with exactly one of: ${req.actions.join(", ")}.` }], 0),
    critique: (req: EditRequest & { rollouts: readonly RolloutSummary[] }) =>
      chat([{ role: "system", content: CRITIC }, { role: "user", content: `Prompt:\n${req.prompt}\n\nRollouts:\n\n${req.rollouts.map(rolloutText).join("\n\n")}\n\nWhat should change in the prompt?` }], req.temperature, req.seed),
    rewrite: async (req: EditRequest & { critique: string }) => {
      const text = await chat([{ role: "system", content: EDITOR }, { role: "user", content: `Prompt:\n${req.prompt}\n\nCritique:\n${req.critique}\n\nRewrite the prompt applying the critique.` }], req.temperature, req.seed);
      return text.replace(/^```[a-z]*\n?|```\s*$/g, "").trim();
    },
  };
}
