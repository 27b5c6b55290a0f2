// Issue 23, findings 1 and 5 on the store side, over real HTTP on both databases.
// (a) The learner never sees nor serves its own exam: after the gate enqueues a gate run's locked-gate
//     rollouts, an algorithm key's every /v1/agl read leaves them (and their inputs) out, its dequeue gets none
//     of them, and writing into the attempt a runner serves is 403 with nothing written.
// (b) Each agent's work goes to its own runners: keys bound to agents A and B dequeue concurrently and never
//     take each other's rollouts; an unbound runner key keeps the single FIFO.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { requestGateRun, runPendingGates } from "@/server/receipts/gate-queue";
import type { Rollout } from "@/server/store";
import { AglClient, HttpStatusError } from "../../helpers/agl-client";
import { describeEachDialect } from "../../helpers/db";
import { DESK_ALGORITHM } from "../../helpers/desk-candidate";
import { DESK_AGENT, deskCandidate, deskGateWorld, type DeskGateWorld } from "../../helpers/desk-gate";
import { keyHeaders } from "../../helpers/matrix-client";
import { makeSpan } from "../../helpers/store";

const statusOf = async (p: Promise<unknown>) => p.then(() => 200, (e: unknown) => (e instanceof HttpStatusError ? e.status : -1));

describeEachDialect("the learner never sees nor serves its own exam (store)", (dialect) => {
  let world: DeskGateWorld;
  let algorithm: AglClient;
  let runner: AglClient;
  let gateIds: string[];
  let inputs: string[];

  beforeAll(async () => {
    world = await deskGateWorld(dialect, "exam-hidden", { heldOut: 6, canary: 4 });
    algorithm = new AglClient(world.url, keyHeaders(world.keys.get("algorithm")!));
    runner = new AglClient(world.url, keyHeaders(world.keys.get("runner")!));
    // The learner's own training rollout, so "sees nothing" cannot pass by seeing nothing at all.
    await algorithm.enqueueRollout({ task: "my own training" }, { mode: "train", metadata: { "lightgate.agent": DESK_AGENT } });
    const { candidateId } = await deskCandidate(world, { name: "a" });
    const run = await requestGateRun(world.database, { candidateId, actor: DESK_ALGORITHM, deadlineSeconds: 120 });
    for (let i = 0; i < 20; i++) {
      await runPendingGates(world.database, { limit: 1 });
      if ((await world.database.db.gateRunTask.count({ where: { gateRunId: run.id, phase: "locked_gate" } })) > 0) break;
    }
    const tasks = await world.database.db.gateRunTask.findMany({ where: { gateRunId: run.id } });
    gateIds = tasks.map((t) => t.rolloutId);
    expect(tasks.filter((t) => t.phase === "locked_gate").length).toBe(12);
    inputs = await Promise.all(gateIds.map(async (id) => JSON.stringify((await world.store.getRollout(id))!.input)));
  }, 120_000);
  afterAll(() => world?.close());

  it("an algorithm key's reads leave the gate's rollouts and their inputs out; a runner key's do not", async () => {
    const listed = (await algorithm.request("GET", "/rollouts", { params: [["limit", 500], ["sort_by", "start_time"], ["sort_order", "desc"]] })) as { items: Rollout[]; total: number };
    const text = JSON.stringify(listed);
    expect(listed.items.map((r) => r.rollout_id).filter((id) => gateIds.includes(id))).toEqual([]);
    for (const input of inputs) expect(text).not.toContain(input);
    expect(listed.items.some((r) => JSON.stringify(r.input).includes("my own training"))).toBe(true);
    expect(listed.total).toBe(listed.items.length);
    const searched = (await algorithm.request("POST", "/rollouts/search", { json: { rollout_id_in: gateIds, limit: -1 } })) as { items: Rollout[] };
    expect(searched.items).toEqual([]);

    const id = gateIds[0]!;
    expect(await algorithm.request("GET", `/rollouts/${id}`)).toBeNull();
    expect(await algorithm.request("GET", `/rollouts/${id}/attempts/latest`)).toBeNull();
    expect(((await algorithm.request("GET", `/rollouts/${id}/attempts`)) as { items: unknown[] }).items).toEqual([]);
    expect(await algorithm.waitForRollouts(gateIds, 0.05)).toEqual([]);
    expect(await statusOf(algorithm.request("POST", "/spans/next", { json: { rollout_id: id, attempt_id: "at-x" } }))).toBe(404);
    const stats = await algorithm.statistics();
    expect(stats.total_rollouts).toBe(listed.total);

    // A runner serves the gate: it sees the rollouts.
    const seen = (await runner.request("POST", "/rollouts/search", { json: { rollout_id_in: gateIds, limit: -1 } })) as { items: Rollout[] };
    expect(seen.items.length).toBe(gateIds.length);
  });

  it("dequeue hands an algorithm key none of them; writes into a runner-served gate attempt are 403 and nothing is written", async () => {
    const got = await algorithm.dequeueMany(100, "learner");
    expect(got.map((r: Rollout) => r.rollout_id).filter((id: string) => gateIds.includes(id))).toEqual([]);
    expect((await world.store.queryRollouts({ rollout_id_in: gateIds, status_in: ["queuing"], limit: -1 })).total).toBe(gateIds.length);

    const claimed = await runner.dequeue("exam-runner");
    expect(gateIds).toContain(claimed.rollout_id);
    const { rollout_id: rid, attempt: { attempt_id: aid } } = claimed;
    const stored = await world.database.db.storeAttempt.findUniqueOrThrow({ where: { rolloutId_attemptId: { rolloutId: rid, attemptId: aid } } });
    expect(stored.servedBy).toMatch(/^ak-/);

    const forged = makeSpan(rid, aid, 1, "reward", { attributes: { "lightgate.passed": true } });
    const refusal = await fetch(`${world.url}/v1/agl/spans`, { method: "POST", headers: { ...keyHeaders(world.keys.get("algorithm")!), "content-type": "application/json" }, body: JSON.stringify(forged) });
    expect(refusal.status).toBe(403);
    expect(((await refusal.json()) as { detail: string }).detail).toMatch(/served by/);
    expect(await statusOf(algorithm.updateAttempt(rid, aid, { status: "succeeded" }))).toBe(403);
    expect(await statusOf(algorithm.updateAttempt(rid, "latest", { status: "succeeded" }))).toBe(403);
    expect(await statusOf(algorithm.updateRollout(rid, { status: "succeeded" }))).toBe(403);
    expect(await statusOf(algorithm.startAttempt(rid, "learner"))).toBe(403);
    // Another runner identity is not the server either.
    const otherRunner = new AglClient(world.url, keyHeaders((await createApiKey(world.database.db, { name: "another runner", role: "runner" })).token));
    expect(await statusOf(otherRunner.addSpan(forged))).toBe(403);
    // OTLP too: the same span as an OTLP/JSON export with the learner's key.
    const otlp = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: "agentlightning.rollout_id", value: { stringValue: rid } }, { key: "agentlightning.attempt_id", value: { stringValue: aid } }] },
          scopeSpans: [{ spans: [{ traceId: "5b8efff798038103d269b633813fc60c", spanId: "eee19b7ec3c1b174", name: "reward", status: { code: 1 }, attributes: [{ key: "lightgate.passed", value: { boolValue: true } }] }] }],
        },
      ],
    };
    const viaOtlp = await fetch(`${world.url}/v1/traces`, { method: "POST", headers: { ...keyHeaders(world.keys.get("algorithm")!), "content-type": "application/json" }, body: JSON.stringify(otlp) });
    expect(viaOtlp.status).toBe(403);
    expect(((await viaOtlp.json()) as { message: string }).message).toMatch(/served by another identity/);

    expect(await world.database.db.storeSpan.count({ where: { rolloutId: rid } })).toBe(0);
    expect((await world.store.getRollout(rid))!.status).toBe("preparing");
    expect((await world.database.db.storeAttempt.count({ where: { rolloutId: rid } }))).toBe(1);

    // The server of the attempt writes as before — but gate work stays gate work of its agent.
    const meta = (await world.store.getRollout(rid))!.metadata!;
    expect(await statusOf(runner.updateRollout(rid, { metadata: { ...meta, "lightgate.phase": null } }))).toBe(403);
    expect(await statusOf(runner.updateRollout(rid, { metadata: { ...meta, "lightgate.agent": "elsewhere" } }))).toBe(403);
    expect((await world.store.getRollout(rid))!.metadata).toEqual(meta);
    expect(await runner.addSpan(makeSpan(rid, aid, 1, "work"))).not.toBeNull();
    expect((await runner.updateAttempt(rid, aid, { status: "succeeded" })).status).toBe("succeeded");
  });
});


describeEachDialect("each agent's work goes to its own runners", (dialect) => {
  let world: DeskGateWorld;
  const client = async (name: string, opts: { role?: "runner" | "algorithm"; agents?: string[]; phases?: string[] } = {}) =>
    new AglClient(world.url, keyHeaders((await createApiKey(world.database.db, { name, role: opts.role ?? "runner", agents: opts.agents, phases: opts.phases })).token));
  beforeAll(async () => {
    world = await deskGateWorld(dialect, "partition", { heldOut: 2, canary: 2 });
  }, 60_000);
  afterAll(() => world?.close());

  const enqueue = (agent: string | null, n: number, phase?: string) =>
    world.store.enqueueRollouts(Array.from({ length: n }, (_, i) => ({ input: { agent, i }, mode: "train" as const, metadata: { ...(agent ? { "lightgate.agent": agent } : {}), ...(phase ? { "lightgate.phase": phase } : {}) } })));

  it("runners bound to agents A and B dequeue concurrently and never take each other's rollouts", async () => {
    const a = await client("runner A", { agents: ["agent-a"] });
    const b = await client("runner B", { agents: ["agent-b"] });
    const ids = { a: new Set<string>(), b: new Set<string>() };
    for (let k = 0; k < 6; k++) {
      for (const r of await enqueue("agent-a", 5, k % 2 ? "locked_gate" : undefined)) ids.a.add(r.rollout_id);
      for (const r of await enqueue("agent-b", 5, k % 3 === 0 ? "canary" : undefined)) ids.b.add(r.rollout_id);
    }
    const untagged = new Set((await enqueue(null, 5)).map((r) => r.rollout_id));
    const drain = async (c: AglClient, worker: string) => {
      const got: string[] = [];
      for (let empty = 0; empty < 3; ) {
        const batch = await c.dequeueMany(3, worker);
        if (batch.length === 0) empty++;
        got.push(...batch.map((r: Rollout) => r.rollout_id));
      }
      return got;
    };
    const [gotA1, gotA2, gotB1, gotB2] = await Promise.all([drain(a, "a-1"), drain(a, "a-2"), drain(b, "b-1"), drain(b, "b-2")]);
    const gotA = [...gotA1, ...gotA2];
    const gotB = [...gotB1, ...gotB2];
    expect(gotA.filter((id) => !ids.a.has(id))).toEqual([]);
    expect(gotB.filter((id) => !ids.b.has(id))).toEqual([]);
    expect(new Set(gotA).size).toBe(gotA.length);
    expect(new Set(gotB).size).toBe(gotB.length);
    expect(gotA.length).toBe(ids.a.size);
    expect(gotB.length).toBe(ids.b.size);
    // Untagged rollouts belong to no agent: bound keys leave them for unbound ones.
    expect((await world.store.queryRollouts({ rollout_id_in: [...untagged], status_in: ["queuing"], limit: -1 })).total).toBe(untagged.size);
    const served = await world.database.db.storeAttempt.findMany({ where: { rolloutId: { in: [...ids.a, ...ids.b] } }, select: { rolloutId: true, servedBy: true } });
    expect(served.every((s) => s.servedBy?.startsWith("ak-"))).toBe(true);
    expect(new Set(served.filter((s) => ids.a.has(s.rolloutId)).map((s) => s.servedBy)).size).toBe(1);
    // Drain the untagged ones so the next test starts from an empty queue.
    await (await client("sweeper")).dequeueMany(100, "sweeper");
  });

  it("a key bound to phases gets only those; an unbound runner keeps one FIFO; an unbound algorithm key never gets gate phases", async () => {
    const order = [
      ...(await enqueue("agent-a", 2)),
      ...(await enqueue("agent-b", 1, "locked_gate")),
      ...(await enqueue(null, 2)),
      ...(await enqueue("agent-a", 1, "rollback")),
      ...(await enqueue("agent-a", 1, "canary_stage")),
    ].map((r) => r.rollout_id);
    const trainingOnly = await client("A training", { agents: ["agent-a"], phases: ["training"] });
    expect((await trainingOnly.dequeueMany(10, "t")).map((r: Rollout) => r.rollout_id)).toEqual(order.slice(0, 2));
    const learner = await client("learner", { role: "algorithm" });
    expect((await learner.dequeueMany(10, "l")).map((r: Rollout) => r.rollout_id)).toEqual(order.slice(3, 5));
    const unbound = await client("unbound runner");
    expect((await unbound.dequeueMany(10, "u")).map((r: Rollout) => r.rollout_id)).toEqual([order[2], order[5], order[6]]);
  });

  it("a bound algorithm key sees its agents' rollouts and untagged training ones, never another agent's nor gate work; it may not enqueue for another agent", async () => {
    const mine = (await enqueue("agent-a", 2)).map((r) => r.rollout_id);
    const untagged = (await enqueue(null, 1)).map((r) => r.rollout_id);
    const theirs = (await enqueue("agent-b", 2)).map((r) => r.rollout_id);
    const myExam = (await enqueue("agent-a", 1, "locked_gate")).map((r) => r.rollout_id);
    const learner = await client("A's learner", { role: "algorithm", agents: ["agent-a"] });
    const seen = (await learner.request("POST", "/rollouts/search", { json: { rollout_id_in: [...mine, ...untagged, ...theirs, ...myExam], limit: -1 } })) as { items: Rollout[] };
    expect(seen.items.map((r) => r.rollout_id).sort()).toEqual([...mine, ...untagged].sort());
    expect(await learner.request("GET", `/rollouts/${theirs[0]}`)).toBeNull();
    expect(await statusOf(learner.enqueueRollout({ x: 1 }, { metadata: { "lightgate.agent": "agent-b" } }))).toBe(403);
    expect((await learner.enqueueRollout({ x: 1 }, { metadata: { "lightgate.agent": "agent-a" } })).rollout_id).toMatch(/^ro-/);
    expect(await statusOf(learner.updateRollout(mine[0]!, { metadata: { "lightgate.agent": "agent-b" } }))).toBe(403);
    expect((await world.store.getRollout(mine[0]!))!.metadata).toEqual({ "lightgate.agent": "agent-a" });
    // Its dequeue: its own agent's training and the untagged, in FIFO order — never B's, never the exam.
    const got = (await learner.dequeueMany(50, "learner-a")).map((r: Rollout) => r.rollout_id);
    expect(got.slice(0, 3)).toEqual([...mine, ...untagged]);
    expect(got.filter((id: string) => theirs.includes(id) || myExam.includes(id))).toEqual([]);
    await (await client("sweeper 2")).dequeueMany(100, "sweeper");
  });

  it("refuses a binding that is not one: unknown phases, empty lists", async () => {
    await expect(createApiKey(world.database.db, { name: "x", role: "runner", phases: ["exam"] })).rejects.toThrow(/phases/);
    await expect(createApiKey(world.database.db, { name: "x", role: "runner", agents: [] })).rejects.toThrow(/agents/);
  });
});
