/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON from the REST API */
// Seeds the store through its real REST API (/v1/agl/*), as runners and algorithms would: resources with
// two versions, train/val/test rollouts, a failed attempt retried by another worker, a span tree, workers
// with heartbeat stats. Used by e2e/store-pages.spec.ts and for screenshots (scripts/seed-store-demo.ts).
import { type AglClient, rolloutConfig } from "../../tests/helpers/agl-client";

let spanCounter = 0;
const hex = (n: number, w: number) => n.toString(16).padStart(w, "0");

/** An Agent Lightning span (wire shape) under `parent`, `offset`/`length` seconds after `t0`. */
export function wireSpan(rid: string, aid: string, name: string, parent: string | null, t0: number, offset: number, length: number, extra: Record<string, unknown> = {}) {
  const id = ++spanCounter;
  return {
    rollout_id: rid,
    attempt_id: aid,
    sequence_id: id,
    trace_id: hex(1, 32),
    span_id: hex(id, 16),
    parent_id: parent,
    name,
    status: { status_code: "OK", description: null },
    attributes: {},
    events: [],
    links: [],
    start_time: t0 + offset,
    end_time: t0 + offset + length,
    context: null,
    parent: null,
    resource: { attributes: { "service.name": "support-desk-agent" }, schema_url: "" },
    ...extra,
  };
}

/** agent.run ⟶ llm.call ⟶ tool.call:search, plus a reward span: a small realistic tree. */
export async function addSpanTree(client: AglClient, rid: string, aid: string, error = false) {
  const t0 = Date.now() / 1000 - 30;
  const root = wireSpan(rid, aid, "agent.run", null, t0, 0, 12, { attributes: { "agent.name": "support-desk", "task.id": "case-17" } });
  const llm = wireSpan(rid, aid, "llm.call", root.span_id, t0, 0.5, 4, { attributes: { "gen_ai.request.model": "qwen2.5-7b", "gen_ai.usage.input_tokens": 812, "gen_ai.usage.output_tokens": 96 } });
  const tool = wireSpan(rid, aid, "tool.call:search", llm.span_id, t0, 1.5, 2, {
    attributes: { "tool.name": "search", "tool.args": '{"q":"refund policy"}' },
    events: [{ name: "retrieved", attributes: { docs: 3 }, timestamp: t0 + 3 }],
    ...(error ? { status: { status_code: "ERROR", description: "search backend timed out" } } : {}),
  });
  const llm2 = wireSpan(rid, aid, "llm.call", root.span_id, t0, 5, 5.5, { attributes: { "gen_ai.request.model": "qwen2.5-7b" } });
  const reward = wireSpan(rid, aid, "reward", root.span_id, t0, 11, 0.2, { attributes: { "agentlightning.reward.0.value": error ? 0 : 1 } });
  for (const s of [root, llm, tool, llm2, reward]) await client.addSpan(s);
  return { root, llm, tool, llm2, reward };
}

export type Seeded = Awaited<ReturnType<typeof seedStore>>;

export async function seedStore(client: AglClient) {
  const res = await client.addResources({
    main_llm: { resource_type: "llm", endpoint: "http://vllm:8000/v1", model: "qwen2.5-7b", api_key: "sk-live-first-SECRET", sampling_parameters: { temperature: 0.7 } },
    system_prompt: { resource_type: "prompt_template", template: "You are a support agent. Be brief.", engine: "f-string" },
  });
  const resourcesId: string = res.resources_id;
  await client.updateResources(resourcesId, {
    main_llm: { resource_type: "llm", endpoint: "http://vllm:8000/v1", model: "qwen2.5-7b-ft", api_key: "sk-live-second-SECRET", sampling_parameters: { temperature: 0.3, top_p: 0.9 } },
    system_prompt: { resource_type: "prompt_template", template: "You are a support agent. Be brief.", engine: "f-string" },
  });

  const config = rolloutConfig({ max_attempts: 3, retry_condition: ["failed"] });
  // Alone in the queue: runner-a takes `retried` and fails it; runner-b gets the retry (attempt 2).
  const [retried] = await client.enqueueMany([{ input: { task: "refund for order 1182" }, mode: "train", resources_id: resourcesId, config }]);
  const first = await client.dequeue("runner-a");
  if (first?.rollout_id !== retried.rollout_id) throw new Error("the seed needs an empty queue");
  const firstSpans = await addSpanTree(client, retried.rollout_id, first.attempt.attempt_id, true);
  await client.updateAttempt(retried.rollout_id, first.attempt.attempt_id, { status: "failed" });
  const second = await client.dequeue("runner-b");
  if (second?.rollout_id !== retried.rollout_id) throw new Error("the retry was not dequeued");
  await addSpanTree(client, retried.rollout_id, second.attempt.attempt_id);
  await client.updateAttempt(retried.rollout_id, second.attempt.attempt_id, { status: "succeeded" });

  const [trainQueued, val1, val2, testOne, busyOne] = await client.enqueueMany([
    { input: { task: "reset password" }, mode: "train", config },
    { input: { task: "shipping delay" }, mode: "val", config },
    { input: { task: "cancel subscription" }, mode: "val", config },
    { input: { task: "invoice copy" }, mode: "test", config },
    { input: { task: "change address" }, mode: "train", config },
  ]);
  // val1 succeeds, val2 is still queued; busyOne is held by runner-c (running).
  for (const id of [trainQueued.rollout_id, val1.rollout_id]) {
    const got = await client.dequeue("runner-b");
    if (id === val1.rollout_id) {
      await addSpanTree(client, got.rollout_id, got.attempt.attempt_id);
      await client.updateAttempt(got.rollout_id, got.attempt.attempt_id, { status: "succeeded" });
    } else {
      await client.updateAttempt(got.rollout_id, got.attempt.attempt_id, { status: "succeeded" });
    }
  }
  await client.updateRollout(testOne.rollout_id, { status: "cancelled" });
  // val2 stays queued (FIFO: it is next), so runner-c starts busyOne directly.
  const busy = await client.startAttempt(busyOne.rollout_id, "runner-c");
  await addSpanTree(client, busyOne.rollout_id, busy.attempt.attempt_id);
  await client.updateWorker("runner-a", { cpu_percent: 41.5, gpu_memory_gb: 11.2, rollouts_done: 1 });
  await client.updateWorker("runner-b", { cpu_percent: 12, gpu_memory_gb: 9.8, rollouts_done: 3 });
  await client.updateWorker("runner-c", { cpu_percent: 88, gpu_memory_gb: 14.1, rollouts_done: 0 });

  return {
    resourcesId,
    retried: retried.rollout_id as string,
    firstAttempt: first.attempt.attempt_id as string,
    secondAttempt: second.attempt.attempt_id as string,
    firstSpans,
    trainQueued: trainQueued.rollout_id as string,
    val1: val1.rollout_id as string,
    val2: val2.rollout_id as string,
    testOne: testOne.rollout_id as string,
    busy: busyOne.rollout_id as string,
  };
}

/** A rollout with `n` spans in a wide and deep tree (for the 1,000-span waterfall). */
export async function seedBigRollout(client: AglClient, n: number) {
  const ro = await client.startRollout({ task: "long agent episode" }, { mode: "train", worker_id: "runner-big" });
  const rid = ro.rollout_id as string;
  const aid = ro.attempt.attempt_id as string;
  const t0 = Date.now() / 1000 - 600;
  const spans: any[] = [wireSpan(rid, aid, "agent.run", null, t0, 0, 600)];
  for (let i = 1; i < n; i++) {
    // Groups of ten: an llm.call under the root, its tool calls under it, one tool call nested one deeper.
    const parent = i % 10 === 1 ? spans[0] : i % 10 === 5 ? spans[i - 1] : spans[i - ((i - 1) % 10)];
    const start = (i / n) * 590;
    spans.push(wireSpan(rid, aid, i % 10 === 1 ? "llm.call" : `tool.call:step${i % 10}`, parent.span_id, t0, start, 0.5 + (i % 7) * 0.3));
  }
  // 50 requests in flight at a time, as concurrent runners would send them.
  for (let i = 0; i < spans.length; i += 50) await Promise.all(spans.slice(i, i + 50).map((s) => client.addSpan(s)));
  return { rid, aid };
}
