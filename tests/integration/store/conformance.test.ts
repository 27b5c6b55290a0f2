// Conformance over real HTTP: plays agentlightning 0.3's LightningStoreClient calls route by route and
// checks the shapes, status codes and quirks that tests/store/test_client_server.py expects.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDialect } from "../../helpers/db";
import { HttpStatusError, rolloutConfig } from "../../helpers/agl-client";
import { makeSpan } from "../../helpers/store";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";

const status = async (p: Promise<unknown>) => {
  try {
    await p;
    return 200;
  } catch (e) {
    if (e instanceof HttpStatusError) return e.status;
    throw e;
  }
};

describeEachDialect("store REST conformance", (dialect) => {
  let s: StoreServer;
  beforeAll(async () => {
    s = await startStoreServer(dialect, "conf");
  });
  afterAll(() => s?.close());

  it("health and statistics", async () => {
    expect(await s.client.health()).toEqual({ status: "ok" });
    await s.client.startRollout({ source: "statistics" });
    const stats = await s.client.statistics();
    expect(stats.total_rollouts).toBeGreaterThanOrEqual(1);
    expect(typeof stats.uptime).toBe("number");
  });

  it("start_rollout returns an AttemptedRollout (201) and the worker becomes busy", async () => {
    const res = await fetch(`${s.url}/v1/agl/rollouts`, {
      method: "POST",
      headers: { Authorization: `Bearer ${s.keys.runner}`, "content-type": "application/json" },
      body: JSON.stringify({ input: { source: "remote-worker" }, mode: null, resources_id: null, config: null, metadata: null, worker_id: "client-worker-start" }),
    });
    expect(res.status).toBe(201);
    const a = await res.json();
    expect(Object.keys(a).sort()).toEqual(["attempt", "config", "end_time", "input", "metadata", "mode", "resources_id", "rollout_id", "start_time", "status"]);
    expect(a.rollout_id).toMatch(/^ro-[0-9a-f]{12}$/);
    expect(a.attempt.attempt_id).toMatch(/^at-[0-9a-f]{8}$/);
    expect(Object.keys(a.attempt).sort()).toEqual(["attempt_id", "end_time", "last_heartbeat_time", "metadata", "rollout_id", "sequence_id", "start_time", "status", "worker_id"]);
    expect(a.attempt.worker_id).toBe("client-worker-start");
    const w = await s.client.getWorker("client-worker-start");
    expect(w).toMatchObject({ status: "busy", current_rollout_id: a.rollout_id, current_attempt_id: a.attempt.attempt_id });
    const retry = await s.client.startAttempt(a.rollout_id, "client-worker-retry");
    expect(retry.attempt.sequence_id).toBe(2);
    expect((await s.client.getWorker("client-worker-retry")).current_attempt_id).toBe(retry.attempt.attempt_id);
  });

  it("enqueue returns a list (201), rollouts without attempts omit the attempt key", async () => {
    const res = await fetch(`${s.url}/v1/agl/queues/rollouts/enqueue`, {
      method: "POST",
      headers: { Authorization: `Bearer ${s.keys.algorithm}`, "content-type": "application/json" },
      body: JSON.stringify({ rollouts: [{ input: { idx: 0 }, mode: "train", resources_id: null, config: null, metadata: { batch: "left" } }, { input: { idx: 1 }, resources_id: "resources-1" }] }),
    });
    expect(res.status).toBe(201);
    const list = await res.json();
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ status: "queuing", mode: "train", metadata: { batch: "left" }, end_time: null, config: rolloutConfig() });
    expect(list[1].resources_id).toBe("resources-1");
    const got = await s.client.getRollout(list[0].rollout_id);
    expect("attempt" in got).toBe(false);
    expect(await s.client.request("POST", "/queues/rollouts/enqueue", { json: { rollouts: [] } })).toEqual([]);
    // drain so later tests start from an empty queue
    while ((await s.client.dequeueMany(50)).length) {
      /* drain */
    }
  });

  it("the requeue path: a failed attempt with retries left is dequeued again as attempt 2", async () => {
    const r = await s.client.enqueueRollout({ task: "retry" }, { config: rolloutConfig({ max_attempts: 2, retry_condition: ["failed"] }) });
    const first = await s.client.dequeue("runner-a");
    expect(first.rollout_id).toBe(r.rollout_id);
    expect(first.attempt.sequence_id).toBe(1);
    const failed = await s.client.updateAttempt(r.rollout_id, first.attempt.attempt_id, { status: "failed" });
    expect(failed.status).toBe("failed");
    expect(failed.end_time).not.toBeNull();
    expect((await s.client.getRollout(r.rollout_id)).status).toBe("requeuing");
    const second = await s.client.dequeue("runner-b");
    expect(second.rollout_id).toBe(r.rollout_id);
    expect(second.attempt.sequence_id).toBe(2);
    expect((await s.client.getLatestAttempt(r.rollout_id)).attempt_id).toBe(second.attempt.attempt_id);
    await s.client.updateAttempt(r.rollout_id, "latest", { status: "failed" });
    const final = await s.client.getRollout(r.rollout_id);
    expect(final.status).toBe("failed");
    expect(final.attempt.attempt_id).toBe(second.attempt.attempt_id);
    const attempts = await s.client.queryAttempts(r.rollout_id);
    expect(attempts.total).toBe(2);
    expect(attempts.items.map((a: { sequence_id: number }) => a.sequence_id)).toEqual([1, 2]);
    expect(Object.keys(attempts.items[0])).not.toContain("reason");
  });

  it("worker status follows attempts; dequeue marks workers and heartbeats upsert", async () => {
    await s.client.enqueueRollout({ payload: "worker" });
    const claimed = await s.client.dequeue("runner-auto");
    await s.client.updateAttempt(claimed.rollout_id, claimed.attempt.attempt_id, { worker_id: "runner-auto" });
    const busy = await s.client.getWorker("runner-auto");
    expect(busy).toMatchObject({ status: "busy", current_rollout_id: claimed.rollout_id });
    expect(busy.last_dequeue_time).not.toBeNull();
    await s.client.updateAttempt(claimed.rollout_id, claimed.attempt.attempt_id, { status: "succeeded" });
    expect(await s.client.getWorker("runner-auto")).toMatchObject({ status: "idle", current_rollout_id: null, current_attempt_id: null });
    const first = await s.client.updateWorker("runner-1", { cpu: 0.4 });
    expect(first).toMatchObject({ status: "unknown", heartbeat_stats: { cpu: 0.4 } });
    const second = await s.client.updateWorker("runner-1");
    expect(second.heartbeat_stats).toEqual({ cpu: 0.4 });
    expect(second.last_heartbeat_time).toBeGreaterThanOrEqual(first.last_heartbeat_time);
    expect(await status(s.client.updateWorker("runner-err", null))).toBe(400);
    expect(await s.client.getWorker("missing")).toBeNull();
  });

  it("query_workers filters with and/or", async () => {
    await s.client.updateWorker("alpha-worker", { cpu: 0.2 });
    await s.client.updateWorker("beta-worker", { cpu: 0.8 });
    const r = await s.client.startRollout({ worker: "alpha" });
    await s.client.updateAttempt(r.rollout_id, r.attempt.attempt_id, { worker_id: "alpha-worker", status: "running" });
    const busy = await s.client.queryWorkers({ status_in: ["busy"], worker_id_contains: "alpha" });
    expect(busy.items.map((w: { worker_id: string }) => w.worker_id)).toEqual(["alpha-worker"]);
    const or = await s.client.queryWorkers({ status_in: ["busy"], worker_id_contains: "beta", filter_logic: "or", sort_by: "worker_id" });
    expect(or.items.map((w: { worker_id: string }) => w.worker_id)).toEqual(expect.arrayContaining(["alpha-worker", "beta-worker"]));
    expect(or).toMatchObject({ limit: -1, offset: 0 });
  });

  it("update_rollout: absent keys untouched, null clears, null status/config → 400, unknown → 404", async () => {
    const a = await s.client.startRollout({ payload: true }, { metadata: { keep: true } });
    await s.client.updateRollout(a.rollout_id, { mode: "train", metadata: { extra: 1 } });
    expect(await s.client.getRollout(a.rollout_id)).toMatchObject({ mode: "train", metadata: { extra: 1 } });
    await s.client.updateRollout(a.rollout_id, { mode: null, metadata: { extra1: 2 } });
    await s.client.updateRollout(a.rollout_id, { status: "running" });
    const kept = await s.client.getRollout(a.rollout_id);
    expect(kept).toMatchObject({ mode: null, metadata: { extra1: 2 }, status: "running" });
    const updated = await s.client.updateRollout(a.rollout_id, { config: rolloutConfig({ timeout_seconds: 3 }) });
    expect("attempt" in updated).toBe(false);
    expect(updated.config.timeout_seconds).toBe(3);
    expect(await status(s.client.updateRollout(a.rollout_id, { status: null }))).toBe(400);
    expect(await status(s.client.updateRollout(a.rollout_id, { config: null }))).toBe(400);
    const notFound = await s.client.updateRollout("nonexistent", { status: "running" }).catch((e) => e);
    expect(notFound).toBeInstanceOf(HttpStatusError);
    expect(notFound.status).toBe(404);
    expect(notFound.body.detail).toContain("nonexistent");
  });

  it("update_attempt: null → 400, empty worker id and metadata kept, latest resolution", async () => {
    const a = await s.client.startRollout({ payload: true });
    await s.client.updateAttempt(a.rollout_id, a.attempt.attempt_id, { worker_id: "worker-1", metadata: { stage: "init" } });
    expect(await s.client.getLatestAttempt(a.rollout_id)).toMatchObject({ worker_id: "worker-1", metadata: { stage: "init" } });
    await s.client.updateAttempt(a.rollout_id, "latest", { worker_id: "", metadata: {} });
    await s.client.updateAttempt(a.rollout_id, "latest", { status: "running" });
    expect(await s.client.getLatestAttempt(a.rollout_id)).toMatchObject({ worker_id: "", metadata: {}, status: "running" });
    for (const bad of [{ last_heartbeat_time: null }, { metadata: null }, { status: null }, { worker_id: null }]) {
      expect(await status(s.client.updateAttempt(a.rollout_id, a.attempt.attempt_id, bad))).toBe(400);
    }
    expect(await status(s.client.updateAttempt(a.rollout_id, "at-nope", { status: "running" }))).toBe(404);
    expect(await status(s.client.startAttempt("ro-nope"))).toBe(404);
    expect(await s.client.getLatestAttempt("ro-nope")).toBeNull();
    expect(await s.client.getRollout("ro-nope")).toBeNull();
  });

  it("spans: 201 with the span, duplicate → null, sequence ids, filters and pagination", async () => {
    const first = await s.client.startRollout({ origin: "client-span" });
    const second = await s.client.startRollout({ origin: "client-span-2" });
    const fa = first.attempt.attempt_id;
    const base = makeSpan(first.rollout_id, fa, 1, "client-span-1");
    const res = await fetch(`${s.url}/v1/agl/spans`, { method: "POST", headers: { Authorization: `Bearer ${s.keys.runner}`, "content-type": "application/json" }, body: JSON.stringify(base) });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual(base);
    expect(await s.client.addSpan(base)).toBeNull();
    const inserted = await s.client.addManySpans([makeSpan(first.rollout_id, fa, 2, "client-span-2"), makeSpan(second.rollout_id, second.attempt.attempt_id, 1, "client-span-other"), base]);
    expect(inserted.map((x) => x.name)).toEqual(["client-span-2", "client-span-other"]);
    expect(await s.client.manySequenceIds([[first.rollout_id, fa], [second.rollout_id, second.attempt.attempt_id], [first.rollout_id, "latest"]])).toEqual([3, 2, 4]);
    const spans = [makeSpan(first.rollout_id, fa, 11, "planner", { span_id: "00000000000000b1", trace_id: "0".repeat(28) + "abc1" }), makeSpan(first.rollout_id, fa, 12, "reward", { span_id: "00000000000000b2" }), makeSpan(first.rollout_id, fa, 13, "tool-call", { span_id: "00000000000000b3", trace_id: "0".repeat(28) + "fed3" })];
    for (const sp of spans) await s.client.addSpan(sp);
    const planner = await s.client.querySpans(first.rollout_id, fa, { name_contains: "plan" });
    expect(planner.items.map((x: { name: string }) => x.name)).toEqual(["planner"]);
    const or = await s.client.querySpans(first.rollout_id, fa, { span_id: "00000000000000b1", trace_id_contains: "fed3", filter_logic: "or" });
    expect(new Set(or.items.map((x: { span_id: string }) => x.span_id))).toEqual(new Set(["00000000000000b1", "00000000000000b3"]));
    const paged = await s.client.querySpans(first.rollout_id, fa, { sort_by: "sequence_id", sort_order: "desc", limit: 1, offset: 1 });
    expect(paged.items.map((x: { name: string }) => x.name)).toEqual(["reward"]);
    expect(paged).toMatchObject({ limit: 1, offset: 1, total: 5 });
    const latest = await s.client.querySpans(first.rollout_id, "latest");
    expect(latest.total).toBe(5);
    expect((await s.client.getRollout(first.rollout_id)).status).toBe("running");
    expect(await status(s.client.addSpan(makeSpan("ro-missing", "at-x", 1, "orphan")))).toBe(404);
    expect((await s.client.querySpans("ro-missing", "latest")).total).toBe(0);
  });

  it("latest attempt resolution in query_spans follows the newest attempt", async () => {
    const r = await s.client.startRollout({ latest: true });
    await s.client.addSpan(makeSpan(r.rollout_id, r.attempt.attempt_id, 1, "old"));
    const retry = await s.client.startAttempt(r.rollout_id);
    await s.client.addSpan(makeSpan(r.rollout_id, retry.attempt.attempt_id, 2, "new", { span_id: "0000000000000002" }));
    const latest = await s.client.querySpans(r.rollout_id, "latest");
    expect(latest.items.map((x: { name: string }) => x.name)).toEqual(["new"]);
    expect((await s.client.querySpans(r.rollout_id)).total).toBe(2);
  });

  it("span queries answer in the requested order whatever the insertion order (ties by start time, then span id)", async () => {
    const r = await s.client.startRollout({ order: true });
    const aid = r.attempt.attempt_id;
    // Shuffled sequence ids, and three spans sharing sequence id 7 that differ in start time or span id.
    const plan: [number, number, string][] = [
      [9, 5, "0000000000000009"],
      [7, 3, "00000000000000c7"],
      [2, 1, "0000000000000002"],
      [7, 2, "00000000000000b7"],
      [12, 9, "000000000000000c"],
      [7, 3, "00000000000000a7"],
      [1, 0, "0000000000000001"],
    ];
    for (const [seq, start, id] of plan) await s.client.addSpan(makeSpan(r.rollout_id, aid, seq, `seq-${seq}`, { span_id: id, start_time: 1_700_000_000 + start }));
    const ids = async (q: Record<string, unknown>) => (await s.client.querySpans(r.rollout_id, aid, q)).items.map((x: { span_id: string }) => x.span_id);
    const ascending = ["0000000000000001", "0000000000000002", "00000000000000b7", "00000000000000a7", "00000000000000c7", "0000000000000009", "000000000000000c"];
    expect(await ids({})).toEqual(ascending);
    expect(await ids({ sort_by: "sequence_id", sort_order: "asc" })).toEqual(ascending);
    expect(await ids({ sort_by: "sequence_id", sort_order: "asc", limit: 3, offset: 2 })).toEqual(ascending.slice(2, 5));
    // Descending reverses the sequence ids; ties keep their stable (ascending) order, as the reference's sort does.
    expect(await ids({ sort_by: "sequence_id", sort_order: "desc" })).toEqual(["000000000000000c", "0000000000000009", "00000000000000b7", "00000000000000a7", "00000000000000c7", "0000000000000002", "0000000000000001"]);
  });

  it("resources: add (201, rs- id), upsert, latest, history, filters", async () => {
    const llm = { resource_type: "llm", endpoint: "http://localhost:8080/v1", model: "test-model", sampling_parameters: { temperature: 0.7 } };
    const added = await s.client.addResources({ main_llm: llm, greeting: { resource_type: "prompt_template", template: "Hello {name}!", engine: "f-string" } });
    expect(added.resources_id).toMatch(/^rs-[0-9a-f]{12}$/);
    expect(added.resources.main_llm).toEqual({ ...llm, api_key: null });
    expect((await s.client.getResources(added.resources_id)).resources.greeting.template).toBe("Hello {name}!");
    expect((await s.client.getLatestResources()).resources_id).toBe(added.resources_id);
    await s.client.updateResources("manual-alpha", { prompt: { resource_type: "prompt_template", template: "alpha", engine: "jinja" } });
    const beta = await s.client.updateResources("manual-beta", {});
    expect(beta).toMatchObject({ resources_id: "manual-beta", version: 1, resources: {} });
    expect((await s.client.updateResources("manual-beta", {})).version).toBe(2);
    expect((await s.client.queryResources({ resources_id_contains: "beta" })).items.map((x: { resources_id: string }) => x.resources_id)).toEqual(["manual-beta"]);
    const paged = await s.client.queryResources({ resources_id_contains: "manual-", sort_by: "resources_id", sort_order: "desc", limit: 1, offset: 1 });
    expect(paged.items.map((x: { resources_id: string }) => x.resources_id)).toEqual(["manual-alpha"]);
    expect(await s.client.getResources("missing")).toBeNull();
    expect(await status(s.client.addResources({ bad: { resource_type: "llm" } }))).toBe(422);
  });

  it("pagination validation answers 400; FastAPI-style validation answers 422 naming the field", async () => {
    expect(await status(s.client.queryRollouts({ limit: 0 }))).toBe(400);
    expect(await status(s.client.queryRollouts({ limit: -2 }))).toBe(400);
    expect(await status(s.client.queryRollouts({ offset: -1 }))).toBe(400);
    expect(await status(s.client.queryRollouts({ sort_by: "nope" }))).toBe(400);
    // Names every object inherits are not columns either (the malformed-input sweep found `toString`).
    for (const sort_by of ["toString", "constructor", "__proto__", "hasOwnProperty"]) expect(await status(s.client.queryRollouts({ sort_by }))).toBe(400);
    expect(await status(s.client.querySpans("ro-any", null, { sort_by: "valueOf" }))).toBe(400);
    const e = (await s.client.request("POST", "/queues/rollouts/enqueue", { json: { rollouts: [{ mode: "train" }] } }).catch((x: unknown) => x)) as HttpStatusError & { body: { detail: { loc: unknown[] }[] } };
    expect(e.status).toBe(422);
    expect(e.body.detail[0]!.loc).toEqual(["body", "rollouts", 0, "input"]);
    const g = await fetch(`${s.url}/v1/agl/rollouts?limit=abc`, { headers: { Authorization: `Bearer ${s.keys.runner}` } });
    expect(g.status).toBe(422);
  });

  it("query_rollouts: status, ids, contains, sort, pages; GET with repeated params; mode_in", async () => {
    const rs = [await s.client.enqueueRollout({ idx: 0 }, { mode: "val" }), await s.client.enqueueRollout({ idx: 1 }), await s.client.enqueueRollout({ idx: 2 })];
    await s.client.updateRollout(rs[0].rollout_id, { status: "cancelled" });
    const cancelled = await s.client.queryRollouts({ status_in: ["cancelled"], rollout_id_in: rs.map((r) => r.rollout_id) });
    expect(cancelled.items.map((r: { rollout_id: string }) => r.rollout_id)).toEqual([rs[0].rollout_id]);
    const contains = await s.client.queryRollouts({ rollout_id_contains: rs[2].rollout_id.slice(-6) });
    expect(contains.items.some((r: { rollout_id: string }) => r.rollout_id === rs[2].rollout_id)).toBe(true);
    const ids = rs.map((r) => r.rollout_id);
    const paged = await s.client.queryRollouts({ rollout_id_in: ids, sort_by: "rollout_id", sort_order: "desc", limit: 1, offset: 1 });
    expect(paged.items.map((r: { rollout_id: string }) => r.rollout_id)).toEqual([[...ids].sort().reverse()[1]]);
    expect(paged.total).toBe(3);
    const u = new URL(`${s.url}/v1/agl/rollouts`);
    for (const id of ids) u.searchParams.append("rollout_id_in", id);
    u.searchParams.append("status_in", "queuing");
    const get = await (await fetch(u, { headers: { Authorization: `Bearer ${s.keys.runner}` } })).json();
    expect(get.total).toBe(2);
    const val = await s.client.request("POST", "/rollouts/search", { json: { mode_in: ["val"], rollout_id_in: ids } });
    expect((val as { total: number }).total).toBe(1);
  });

  it("wait_for_rollouts returns only terminal rollouts; the client refuses long timeouts", async () => {
    const r = await s.client.startRollout({ wait: 1 });
    expect(await s.client.waitForRollouts([r.rollout_id], 0)).toEqual([]);
    await s.client.updateAttempt(r.rollout_id, "latest", { status: "succeeded" });
    const done = await s.client.waitForRollouts([r.rollout_id, "ro-unknown"], 0.05);
    expect(done.map((x: { status: string }) => x.status)).toEqual(["succeeded"]);
    expect("attempt" in done[0]).toBe(false);
    expect(() => s.client.waitForRollouts(["x"], 0.2)).toThrow();
  });

  it("dequeue with limit ≤ 0 answers [] and an empty body is allowed", async () => {
    expect(await s.client.request("POST", "/queues/rollouts/dequeue", { json: { limit: 0 } })).toEqual([]);
    const res = await fetch(`${s.url}/v1/agl/queues/rollouts/dequeue`, { method: "POST", headers: { Authorization: `Bearer ${s.keys.runner}` } });
    expect(res.status).toBe(200);
    expect(Array.isArray(await res.json())).toBe(true);
  });

  it("501 for OTLP metrics, logs and profiles; 404 for unknown /v1/agl paths", async () => {
    for (const p of ["/v1/metrics", "/v1/logs", "/v1/development/profiles"]) expect((await fetch(`${s.url}${p}`, { method: "POST" })).status).toBe(501);
    const nf = await fetch(`${s.url}/v1/agl/nope`, { headers: { Authorization: `Bearer ${s.keys.runner}` } });
    expect(nf.status).toBe(404);
    expect(await nf.json()).toEqual({ detail: "Not Found" });
  });
});

describe("store REST auth", () => {
  let s: StoreServer;
  beforeAll(async () => {
    s = await startStoreServer("sqlite", "auth");
  });
  afterAll(() => s?.close());
  const call = (path: string, key: string | null, body?: unknown, header: "bearer" | "x-api-key" = "bearer") =>
    fetch(`${s.url}/v1/agl${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { ...(key === null ? {} : header === "bearer" ? { Authorization: `Bearer ${key}` } : { "X-API-Key": key }), "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("needs a key except for health; X-API-Key works too", async () => {
    expect((await call("/health", null)).status).toBe(200);
    expect((await call("/statistics", null)).status).toBe(401);
    expect((await call("/statistics", "lgk_0000000000000000_" + "a".repeat(43))).status).toBe(401);
    expect((await call("/statistics", s.keys.release_bot, undefined, "x-api-key")).status).toBe(200);
  });

  it("maps routes to scopes: runners write, algorithms also enqueue, bots only read", async () => {
    const enqueue = { rollouts: [{ input: 1 }] };
    expect((await call("/queues/rollouts/enqueue", s.keys.runner, enqueue)).status).toBe(403);
    expect((await call("/resources", s.keys.runner, {})).status).toBe(403);
    expect((await call("/queues/rollouts/enqueue", s.keys.algorithm, enqueue)).status).toBe(201);
    expect((await call("/queues/rollouts/dequeue", s.keys.runner, { limit: 1 })).status).toBe(200);
    expect((await call("/workers/w", s.keys.release_bot, {})).status).toBe(403);
    expect((await call("/rollouts/search", s.keys.release_bot, {})).status).toBe(200);
  });

  it("revoked keys stop working", async () => {
    const { createApiKey, revokeApiKey } = await import("@/server/auth/api-keys");
    const { token, key } = await createApiKey(s.database.db, { name: "short-lived", role: "runner" });
    expect((await call("/statistics", token)).status).toBe(200);
    expect(await revokeApiKey(s.database.db, key.id)).toBe(true);
    expect((await call("/statistics", token)).status).toBe(401);
    const stored = await s.database.db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    // The secret is what follows "lgk_<16 hex>_" (it may itself hold "_": split("_") once gave "" and failed).
    expect(stored.secretHash).not.toContain(token.slice("lgk_".length + 16 + 1));
    expect(stored.lastUsedAt).not.toBeNull();
  });
});

describe("large span queries stream", () => {
  let s: StoreServer;
  beforeAll(async () => {
    s = await startStoreServer("sqlite", "stream");
  });
  afterAll(() => s?.close());

  it("serves 4,500 spans across chunks in order with the right total", { timeout: 60_000 }, async () => {
    const r = await s.client.startRollout({ big: true });
    const spans = Array.from({ length: 4_500 }, (_, i) => makeSpan(r.rollout_id, r.attempt.attempt_id, i + 1, `s${i}`, { span_id: (i + 1).toString(16).padStart(16, "0") }));
    for (let i = 0; i < spans.length; i += 500) await s.store.addSpans(spans.slice(i, i + 500));
    const all = await s.client.querySpans(r.rollout_id);
    expect(all.total).toBe(4_500);
    expect(all.items.map((x: { sequence_id: number }) => x.sequence_id)).toEqual(spans.map((x) => x.sequence_id));
    const tail = await s.client.querySpans(r.rollout_id, null, { offset: 4_000, limit: -1 });
    expect(tail).toMatchObject({ total: 4_500, offset: 4_000 });
    expect(tail.items).toHaveLength(500);
  });
});

// Pages over 1 MB are written into reused buffers (server/http/response-buffers.ts): answers in flight at
// once never share one, an answer smaller than the last one on a buffer carries none of its bytes, and
// multi-byte text is measured and written as UTF-8.
describeEachDialect("span pages written into reused buffers", (dialect) => {
  let s: StoreServer;
  beforeAll(async () => {
    s = await startStoreServer(dialect, "pages");
  });
  afterAll(() => s?.close());

  async function rolloutWith(count: number, label: string, pad: number) {
    const r = await s.client.startRollout({ label });
    const note = `${label} ünïcødé 🚀 ${"·".repeat(pad)}`;
    const spans = Array.from({ length: count }, (_, i) => makeSpan(r.rollout_id, r.attempt.attempt_id, i + 1, `${label}-${i}`, { attributes: { note } }));
    for (let i = 0; i < spans.length; i += 500) await s.store.addSpans(spans.slice(i, i + 500));
    return { id: r.rollout_id, names: spans.map((x) => x.name), note };
  }

  const expectPage = (page: { total: number; items: { name: string; attributes: Record<string, unknown> }[] }, r: { names: string[]; note: string }) => {
    expect(page.total).toBe(r.names.length);
    expect(page.items.map((x) => x.name)).toEqual(r.names);
    expect(page.items.every((x) => x.attributes.note === r.note)).toBe(true);
  };

  it("answers several large pages at once, each its own, then a smaller one on a used buffer", { timeout: 60_000 }, async () => {
    const big = await rolloutWith(1_500, "big", 600); // ~1.5 MB+ per page
    const other = await rolloutWith(1_200, "other", 500);
    const small = await rolloutWith(1_100, "small", 450); // smaller than the first, still over 1 MB
    // Eight at once: more than the four buffers the pool keeps, so some are written the old way.
    const order = [big, other, big, other, small, big, other, small];
    const pages = await Promise.all(order.map((r) => s.client.querySpans(r.id)));
    pages.forEach((page, i) => expectPage(page, order[i]!));
    for (const r of [big, small, other, small]) expectPage(await s.client.querySpans(r.id), r);
  });
});
