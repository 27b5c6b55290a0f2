// The learner-forges-its-exam world (issue 23, finding 1) over real HTTP: a foreign prompt agent whose
// algorithm key declares, trains, binds and asks for a gate run; runner keys serve the rollouts honestly, or
// lie about their own results; a verifier re-reads the canary's destination (an in-memory map here); and
// the gate's orchestrator loop. `forgeAsLearner` leaves exactly the rows a store without the serving guard
// left when the learner's own key dequeued and served its exam (attempt served_by = that key).
import { randomBytes } from "node:crypto";
import type { Dialect } from "@/server/db/config";
import { orchestrateGates } from "@/server/receipts/gate-queue";
import { publishRegistryEntry } from "@/server/receipts/registries";
import type { Span } from "@/server/store/types";
import { AglClient } from "./agl-client";
import { SYSTEM } from "./auth";
import { AGENT, declaration, gateWorld, publishExams, type Answer, type GateWorld } from "./gate-api";

/** An API key's id from its token (lgk_<16 hex>_<secret> → ak-<16 hex>). */
export const keyId = (token: string) => `ak-${token.split("_")[1]}`;

export const HELD_OUT_CASES = 20;
export const REWARD_EVALUATOR = { id: "foreign-exam", version: "3" };
export const OUTPUT_EVALUATOR = { id: "foreign-exam", version: "4" };
const BEAM = "foreign-apo-beam";
const RULES = ["briefly", "cite the knowledge base", "never promise a refund"];
const CANDIDATE_TEMPLATE = "Answer {question} briefly, cite the knowledge base and never promise a refund.";

export type ExamWorld = GateWorld & { exams: { heldOut: string; canary: string }; destination: Map<string, string>; stop: AbortController };

export async function examWorld(dialect: Dialect, label: string): Promise<ExamWorld> {
  const world = await gateWorld(dialect, label);
  await publishRegistryEntry(world.database, { kind: "tool_contract", name: "search_kb", agent: AGENT, body: { tool: "search_kb", side_effects: [] }, actor: SYSTEM });
  await publishRegistryEntry(world.database, { kind: "model_server", name: "rule-based", agent: AGENT, version: "1", body: { pricing: { input_usd_per_million_tokens: 0.5, output_usd_per_million_tokens: 1.5 } }, actor: SYSTEM });
  await publishRegistryEntry(world.database, { kind: "evaluator", name: OUTPUT_EVALUATOR.id, agent: "*", version: OUTPUT_EVALUATOR.version, body: { scoring: "expected_output", output_attribute: "agent.output" }, actor: SYSTEM });
  // 20 held-out cases: the default floor for check 4, so an honest run can pass it.
  const exams = await publishExams(world, label, HELD_OUT_CASES);
  const stop = new AbortController();
  void orchestrateGates(world.database, stop.signal, { intervalMs: 50, owner: `${label}-orchestrator` });
  const close = world.close;
  return { ...world, exams, destination: new Map(), stop, close: async () => (stop.abort(), close()) };
}

/** The rule-based agent: a prompt template applied to a question, rewarded by how many rules it follows. */
function runAgent(template: string, input: unknown) {
  const question = String((input as { question?: unknown } | null)?.question ?? "");
  const followed = RULES.filter((r) => template.includes(r)).length;
  return { answer: question.replace("question", "answer"), reward: 0.25 + 0.25 * followed };
}

const hex = (n: number) => randomBytes(n).toString("hex");

function span(rolloutId: string, attemptId: string, sequenceId: number, traceId: string, name: string, attributes: Record<string, unknown>): Span {
  const now = Date.now() / 1000;
  const spanId = hex(8);
  return {
    rollout_id: rolloutId, attempt_id: attemptId, sequence_id: sequenceId, trace_id: traceId, span_id: spanId, parent_id: null, name,
    status: { status_code: "OK", description: null }, attributes, events: [], links: [], start_time: now, end_time: now,
    context: { trace_id: traceId, span_id: spanId, is_remote: false, trace_state: {} }, parent: null, resource: { attributes: { "service.name": "foreign-agent" }, schema_url: "" },
  } as unknown as Span;
}

/**
 * How a served rollout's spans read. honest: the agent's answer and reward. forge: the learner's wish — every
 * candidate case passes with reward 1, every parent case fails with 0. liar: an honest identity that serves a
 * wrong candidate answer but writes a perfect reward and `lightgate.passed: true` about it.
 */
export type Mode = "honest" | "forge" | "liar";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the wire JSON is untyped
function spansFor(item: any, attemptId: string, template: string, mode: Mode, sequence: () => number): Span[] {
  const meta = (item.metadata ?? {}) as Record<string, unknown>;
  const phase = meta["lightgate.phase"];
  const side = meta["lightgate.side"];
  const out = runAgent(template, item.input);
  const candidateSide = side === "candidate";
  const answer = mode === "liar" && candidateSide ? "refund promised" : out.answer;
  const reward = mode === "forge" || mode === "liar" ? (candidateSide ? 1 : 0) : out.reward;
  const trace = hex(16);
  const rid = item.rollout_id as string;
  const spans = [span(rid, attemptId, sequence(), trace, "openai.chat.completion", { "gen_ai.request.model": "rule-based-1", "gen_ai.usage.input_tokens": 120, "gen_ai.usage.output_tokens": 30, "agent.output": JSON.stringify({ answer }) })];
  if (phase === "canary" || phase === "canary_stage") spans.push(span(rid, attemptId, sequence(), trace, "execute_tool search_kb", { "gen_ai.tool.name": "search_kb", "lightgate.target": rid }));
  spans.push(span(rid, attemptId, sequence(), trace, "agentlightning.annotation", {
    "agentlightning.reward.0.name": "quality",
    "agentlightning.reward.0.value": reward,
    ...(phase ? { "lightgate.evaluator": meta["lightgate.evaluator"] as string, ...(mode === "honest" ? {} : { "lightgate.passed": candidateSide }) } : {}),
  }));
  return spans;
}

/** A runner process's loop over HTTP with `token`: dequeue, resources, spans, attempt status. */
export async function runnerLoop(world: ExamWorld, token: string, mode: Mode, signal: AbortSignal, workerId = `runner-${hex(3)}`): Promise<void> {
  const client = new AglClient(world.url, { authorization: `Bearer ${token}` });
  while (!signal.aborted) {
    const items = await client.dequeueMany(4, workerId);
    if (items.length === 0) await new Promise((r) => setTimeout(r, 30));
    for (const item of items) {
      const rid = item.rollout_id as string;
      const aid = item.attempt.attempt_id as string;
      await client.updateAttempt(rid, aid, { status: "running" });
      const template = ((await client.getResources(item.resources_id)) as { resources?: { prompt?: { template?: string } } })?.resources?.prompt?.template ?? "";
      let seq = 0;
      for (const s of spansFor(item, aid, template, mode, () => (seq += 1))) await client.addSpan({ ...s, sequence_id: await client.nextSequenceId(rid, aid) });
      world.destination.set(rid, runAgent(template, item.input).answer);
      await client.updateAttempt(rid, aid, { status: "succeeded" });
    }
  }
}

/**
 * What a store without the serving guard recorded when the learner's key served the gate's rollouts: an
 * attempt started by that key (served_by), the learner's spans, succeeded — for each task the gate is waiting on.
 */
export async function forgeAsLearner(world: Pick<ExamWorld, "store" | "database"> & { destination?: Map<string, string> }, runId: string, learnerKeyId: string, signal: AbortSignal): Promise<void> {
  const done = new Set<string>();
  while (!signal.aborted) {
    const tasks = await world.database.db.gateRunTask.findMany({ where: { gateRunId: runId, state: "pending" }, select: { rolloutId: true } });
    for (const { rolloutId } of tasks.filter((t) => !done.has(t.rolloutId))) {
      done.add(rolloutId);
      const item = (await world.store.getRollout(rolloutId))!;
      if (["succeeded", "failed", "cancelled"].includes(item.status)) continue;
      // Queued: it dequeues it now; already dequeued (by its own key over HTTP): it serves that attempt.
      const aid = item.status === "queuing" || item.status === "requeuing" ? (await world.store.startAttempt(rolloutId, "learner-worker")).attempt.attempt_id : (await world.store.getLatestAttempt(rolloutId))!.attempt_id;
      await world.database.db.storeAttempt.update({ where: { rolloutId_attemptId: { rolloutId, attemptId: aid } }, data: { servedBy: learnerKeyId } });
      const template = ((await world.store.resourcesVersion(item.resources_id!, 1))?.resources as { prompt?: { template?: string } } | undefined)?.prompt?.template ?? CANDIDATE_TEMPLATE;
      for (const s of spansFor({ ...item, rollout_id: rolloutId }, aid, template, "forge", () => 0)) await world.store.addSpan({ ...s, sequence_id: (await world.store.nextSpanSequenceIds([rolloutId]))[0]! });
      world.destination?.set(rolloutId, runAgent(template, item.input).answer);
      await world.store.updateAttempt(rolloutId, aid, { status: "succeeded" });
    }
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** The verifier's loop over HTTP: re-reads each canary answer at its destination and records how it was verified. */
export async function verifierLoop(world: ExamWorld, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    const pending = await world.call("verifier", "GET", "/v1/gate/verifications/pending?limit=50");
    for (const p of (pending.body ?? []) as { rollout_id: string; expected: { answer?: string } | null }[]) {
      const observed = world.destination.get(p.rollout_id) ?? null;
      await world.call("verifier", "POST", "/v1/gate/verifications", { rollout_id: p.rollout_id, method: "destination", matched: observed !== null && observed === p.expected?.answer, expected: p.expected, observed });
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function must(world: ExamWorld, method: string, path: string, body?: unknown): Promise<Answer["body"]> {
  const r = await world.call("algorithm", method, path, body);
  if (r.status >= 300) throw new Error(`algorithm ${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 400)}`);
  return r.body;
}

/**
 * The learner's side up to the gate run, as its algorithm key does it over HTTP: declare, train on rollouts
 * tagged with the receipt (served by whichever runner is running), write the candidate, bind it.
 */
export async function declareTrainBind(world: ExamWorld, name: string, evaluator = REWARD_EVALUATOR): Promise<{ receiptId: string; candidateId: string }> {
  const declared = await must(world, "POST", "/v1/gate/receipts", declaration(world, world.exams, { evaluator, training_data: { resources_ids: [BEAM] }, expected_evidence: { span_families: ["llm.call", "reward"], retry_budget: { expected_resamples_per_rollout: 0, unexpected_retries: 0 }, protected_families: [{ family: "refunds", max_regressions: 0 }] } }));
  const receiptId = declared.receipt_id as string;
  await must(world, "POST", `/v1/agl/resources/${BEAM}`, { prompt: { resource_type: "prompt_template", template: CANDIDATE_TEMPLATE, engine: "f-string" } });
  const rollouts = (await must(world, "POST", "/v1/agl/queues/rollouts/enqueue", {
    rollouts: ["Where is my order?", "Change my address", "Cancel order 17", "Track parcel 9"].map((question) => ({ input: { question }, mode: "train", resources_id: BEAM, metadata: { "lightgate.receipt": receiptId, "lightgate.agent": AGENT } })),
  })) as { rollout_id: string }[];
  const ids = rollouts.map((r) => r.rollout_id);
  for (const until = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 50))) {
    if (((await must(world, "POST", "/v1/agl/waits/rollouts", { rollout_ids: ids, timeout: 0 })) as unknown[]).length === ids.length) break;
    if (Date.now() > until) throw new Error("training rollouts did not finish in 60 s");
  }
  const resourcesId = `foreign-tuned-${name}`;
  const written = await must(world, "POST", `/v1/agl/resources/${resourcesId}`, { prompt: { resource_type: "prompt_template", template: CANDIDATE_TEMPLATE, engine: "f-string" } });
  const bound = await must(world, "POST", `/v1/gate/receipts/${receiptId}/candidate`, { resources_id: resourcesId, version: written.version });
  return { receiptId, candidateId: bound.candidate_id as string };
}

export async function requestRun(world: ExamWorld, receiptId: string, deadlineSeconds = 60): Promise<string> {
  return (await must(world, "POST", `/v1/gate/receipts/${receiptId}/gate-runs`, { deadline_seconds: deadlineSeconds })).gate_run_id as string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the wire JSON is untyped
export async function awaitRun(world: ExamWorld, runId: string, timeoutMs = 120_000): Promise<any> {
  for (const until = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 100))) {
    const view = await must(world, "GET", `/v1/gate/gate-runs/${runId}`);
    if (view.status === "done" || view.status === "failed") return view;
    if (Date.now() > until) throw new Error(`gate run ${runId} still ${view.phase} after ${timeoutMs} ms`);
  }
}
