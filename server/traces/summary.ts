// A trace at a glance (Langfuse-like): per attempt of a rollout, its final reward, tokens in and out, cost,
// spans and error spans. Tokens are read from the gen_ai / llm usage attributes; cost from a span's own cost
// attribute, else priced by the model server's published pricing when every current model_server entry
// publishes the same one (a rollout does not say which agent it served). Bounded: at most MAX_SPANS spans are
// read, in sequence order, and the summary says when it stopped.
import type { Db } from "@/server/db/client";
import { pricingOf, type TokenPricing } from "@/server/gate/evidence/gate-rollouts";
import { rewardValueOf } from "@/server/gate/evidence/spans";
import { TOKEN_KEYS, COST_KEYS, firstNumber } from "@/lib/spans/io";

export const MAX_SPANS = 20_000;
const CHUNK = 2_000;

export type AttemptSummary = { attemptId: string; spans: number; errorSpans: number; reward: number | null; inputTokens: number; outputTokens: number; costUsd: number | null };
export type TraceSummary = { attempts: AttemptSummary[]; pricing: "span" | "model_server" | "none"; complete: boolean };

async function pricingInForce(db: Db): Promise<TokenPricing> {
  const servers = await db.registryEntry.findMany({ where: { kind: "model_server" }, orderBy: { seq: "desc" }, select: { name: true, agent: true, body: true } });
  const current = new Map<string, string>();
  for (const s of servers) if (!current.has(`${s.name}\u0000${s.agent}`)) current.set(`${s.name}\u0000${s.agent}`, s.body);
  const prices = [...current.values()].map((b) => pricingOf(JSON.parse(b) as unknown));
  const distinct = new Set(prices.map((p) => JSON.stringify(p)));
  return distinct.size === 1 ? prices[0]! : null;
}

export async function traceSummary(db: Db, rolloutId: string): Promise<TraceSummary> {
  const attempts = new Map<string, AttemptSummary & { spanCost: number; priced: boolean }>();
  let read = 0;
  let total = Infinity;
  for (let cursor = 0; read < MAX_SPANS; ) {
    const rows = await db.storeSpan.findMany({ where: { rolloutId, sequenceId: { gt: cursor } }, orderBy: [{ sequenceId: "asc" }], take: CHUNK, select: { attemptId: true, sequenceId: true, name: true, statusCode: true, body: true } });
    for (const r of rows) {
      const a = attempts.get(r.attemptId) ?? { attemptId: r.attemptId, spans: 0, errorSpans: 0, reward: null, inputTokens: 0, outputTokens: 0, costUsd: null, spanCost: 0, priced: false };
      const attributes = (JSON.parse(r.body) as { attributes?: Record<string, unknown> }).attributes ?? {};
      a.spans++;
      if (r.statusCode === "ERROR") a.errorSpans++;
      a.reward = rewardValueOf({ name: r.name, attributes }) ?? a.reward;
      a.inputTokens += firstNumber(attributes, TOKEN_KEYS.input) ?? 0;
      a.outputTokens += firstNumber(attributes, TOKEN_KEYS.output) ?? 0;
      const cost = firstNumber(attributes, COST_KEYS);
      if (cost !== null) {
        a.spanCost += cost;
        a.priced = true;
      }
      attempts.set(r.attemptId, a);
      cursor = r.sequenceId;
    }
    read += rows.length;
    if (rows.length < CHUNK) {
      total = read;
      break;
    }
  }
  const pricing = [...attempts.values()].some((a) => a.priced) ? null : await pricingInForce(db);
  const out = [...attempts.values()].map(({ spanCost, priced, ...a }) => ({
    ...a,
    costUsd: priced ? spanCost : pricing ? (a.inputTokens * pricing.input + a.outputTokens * pricing.output) / 1e6 : null,
  }));
  return { attempts: out, pricing: out.some((a) => a.costUsd !== null) ? ([...attempts.values()].some((a) => a.priced) ? "span" : "model_server") : "none", complete: total !== Infinity };
}
