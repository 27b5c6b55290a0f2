// Traces and rollouts, Langfuse-like: each rollout's final reward and error on the list, filters by reward
// range and error (server-side, with the scan bound stated), one "failed" count the Runners and Rollouts pages
// share, and a trace's reward, tokens and cost per attempt — on a real store, both databases.
import { afterAll, beforeAll, expect, it } from "vitest";
import { publishRegistryEntry } from "@/server/receipts/registries";
import { makeActor } from "@/server/auth/actor";
import { spanIo } from "@/lib/spans/io";
import { callerAs, refusal } from "../../helpers/caller";
import { describeEachDialect } from "../../helpers/db";
import { createTestStore, makeSpan, type StoreFixture } from "../../helpers/store";

const retry = { max_attempts: 2, retry_condition: ["failed" as const], timeout_seconds: null, unresponsive_seconds: null };

describeEachDialect("traces and rollouts", (dialect) => {
  let f: StoreFixture;
  const ids = { r1: "", r2: "", r3: "" };
  let firstAttempt = "";
  beforeAll(async () => {
    f = await createTestStore(dialect, "traces");
    // R1: the first attempt fails with an ERROR span and is retried; the retry succeeds with reward 0.8.
    const r1 = await f.store.startRollout({ input: { task: "refund" }, mode: "train", config: retry, worker_id: "W-1" });
    ids.r1 = r1.rollout_id;
    firstAttempt = r1.attempt.attempt_id;
    await f.store.addSpans([makeSpan(ids.r1, firstAttempt, 1, "tool.call:search", { status: { status_code: "ERROR", description: "backend down" } })]);
    await f.store.updateAttempt(ids.r1, firstAttempt, { status: "failed" });
    const second = await f.store.startAttempt(ids.r1, "W-2");
    const a2 = second.attempt.attempt_id;
    await f.store.addSpans([
      makeSpan(ids.r1, a2, 2, "llm.call", { attributes: { "gen_ai.usage.input_tokens": 1000, "gen_ai.usage.output_tokens": 200, "gen_ai.prompt.0.content": "Where is my refund?", "gen_ai.completion.0.content": "Issued today." } }),
      makeSpan(ids.r1, a2, 3, "agentlightning.annotation", { attributes: { "agentlightning.reward.0.name": "episode_reward", "agentlightning.reward.0.value": 0.8 } }),
    ]);
    await f.store.updateAttempt(ids.r1, a2, { status: "succeeded" });
    // R2: succeeds with reward 0.2 on a span of another name (the v3 attribute is what counts).
    const r2 = await f.store.startRollout({ input: { task: "address" }, mode: "train", worker_id: "W-1" });
    ids.r2 = r2.rollout_id;
    await f.store.addSpans([makeSpan(ids.r2, r2.attempt.attempt_id, 1, "reward", { attributes: { "agentlightning.reward.0.value": 0.2 } })]);
    await f.store.updateAttempt(ids.r2, r2.attempt.attempt_id, { status: "succeeded" });
    // R3: fails for good (no retry policy), no reward.
    const r3 = await f.store.startRollout({ input: { task: "delete" }, mode: "val", worker_id: "W-2" });
    ids.r3 = r3.rollout_id;
    await f.store.updateAttempt(ids.r3, r3.attempt.attempt_id, { status: "failed", metadata: { "lightgate.failure": "runner error: tool hung" } });
  });
  afterAll(() => f?.drop());

  const list = (input: Record<string, unknown> = {}) => callerAs(f.database, "viewer").store.listRollouts(input);
  const rewards = async (input: Record<string, unknown>) => Object.fromEntries((await list(input)).items.map((r) => [r.rollout_id, r.evidence.reward]));

  it("shows each rollout's final reward (latest attempt) and error", async () => {
    const page = await list();
    const by = new Map(page.items.map((r) => [r.rollout_id, r.evidence]));
    expect(by.get(ids.r1)).toEqual({ reward: 0.8, error: null, errorSpans: 0 });
    expect(by.get(ids.r2)).toEqual({ reward: 0.2, error: null, errorSpans: 0 });
    expect(by.get(ids.r3)).toEqual({ reward: null, error: "attempt failed: runner error: tool hung", errorSpans: 0 });
    expect(page.scan).toBeNull();
  });

  it("filters by reward range and error on the server, paging what matches", async () => {
    expect(await rewards({ reward_min: 0.5 })).toEqual({ [ids.r1]: 0.8 });
    expect(await rewards({ reward_min: 0, reward_max: 0.5 })).toEqual({ [ids.r2]: 0.2 });
    expect(Object.keys(await rewards({ has_error: true }))).toEqual([ids.r3]);
    expect(Object.keys(await rewards({ has_error: false })).sort()).toEqual([ids.r1, ids.r2].sort());
    const page = await list({ has_error: false, limit: 1, offset: 1 });
    expect(page).toMatchObject({ total: 2, scan: { scanned: 3, complete: true } });
    expect(page.items).toHaveLength(1);
    expect(Object.keys(await rewards({ reward_min: 0.1, status_in: ["succeeded"], mode_in: ["train"] })).sort()).toEqual([ids.r1, ids.r2].sort());
    const refused = await refusal(list({ reward_min: 1, reward_max: 0 }));
    expect(refused.code).toBe("BAD_REQUEST");
  });

  it("counts failed the same way for both pages: 1 rollout failed, 2 attempts failed, 1 rollout recovered", async () => {
    const c = await callerAs(f.database, "viewer").store.countFailures();
    expect(c).toEqual({
      rolloutsFailed: 1,
      attemptsFailed: { failed: 2, timeout: 0, unresponsive: 0 },
      rolloutsRecovered: 1,
      byWorker: [
        { workerId: "W-1", failed: 1, total: 2 },
        { workerId: "W-2", failed: 1, total: 2 },
      ],
    });
    const stats = await f.store.statistics();
    expect(stats.rollouts_by_status?.failed ?? 0).toBe(c.rolloutsFailed);
  });

  it("sums a trace's reward, tokens and cost per attempt; cost priced by the model server's published pricing", async () => {
    const viewer = callerAs(f.database, "viewer");
    const before = await viewer.store.getTraceSummary({ rollout_id: ids.r1 });
    expect(before.pricing).toBe("none");
    expect(before.attempts.map((a) => [a.attemptId === firstAttempt, a.spans, a.errorSpans, a.reward, a.inputTokens, a.outputTokens, a.costUsd])).toEqual([
      [true, 1, 1, null, 0, 0, null],
      [false, 2, 0, 0.8, 1000, 200, null],
    ]);
    const owner = makeActor("user", "owner", "owner", ["policy_owner"]);
    await publishRegistryEntry(f.database, { kind: "model_server", name: "vllm", agent: "*", body: { endpoint: "http://vllm", pricing: { input_usd_per_million_tokens: 1, output_usd_per_million_tokens: 2 } }, actor: owner });
    const after = await viewer.store.getTraceSummary({ rollout_id: ids.r1 });
    expect(after.pricing).toBe("model_server");
    expect(after.attempts[1]!.costUsd).toBeCloseTo((1000 * 1 + 200 * 2) / 1e6, 12);
    expect(after.complete).toBe(true);
  });

  it("reads a span's input, output, reward and tokens from its attributes", () => {
    const io = spanIo({ "gen_ai.prompt.0.content": "Q", "gen_ai.completion.0.content": '{"answer": 1}', "gen_ai.usage.input_tokens": 5, "agentlightning.reward.0.value": 1, __proto__x: 1 });
    expect(io.input).toEqual({ "gen_ai.prompt.0.content": "Q" });
    expect(io.output).toEqual({ "gen_ai.completion.0.content": { answer: 1 } });
    expect(io.reward).toEqual({ "agentlightning.reward.0.value": 1 });
    expect([io.inputTokens, io.outputTokens, io.costUsd]).toEqual([5, null, null]);
  });
});
