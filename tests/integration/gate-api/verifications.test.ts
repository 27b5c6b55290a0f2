// Verifications of canary outcomes over real HTTP, on both databases: only verifiers (a `verifier` key, a
// person holding `canary:verify` for the agent) record them, only for finished canary tasks a gate run
// enqueued (gate_run_tasks rows are the orchestrator's; inserted here as it writes them), one per rollout,
// never by the receipt's author. Verifiers find their work in /pending, `expected` included.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createCaller } from "@/server/routers/_app";
import { makeActor } from "@/server/auth/actor";
import { describeEachDialect } from "../../helpers/db";
import { AGENT, declaration, gateWorld, publishExams, type GateWorld } from "../../helpers/gate-api";
import { keyHeaders } from "../../helpers/matrix-client";
import { AglClient } from "../../helpers/agl-client";
import { onRolloutEnded } from "@/server/store/ended";

describeEachDialect("gate API: verifications", (dialect) => {
  let world: GateWorld;
  let gateRunId: string;
  let author: { id: string; headers: Record<string, string> };
  const rollouts: Record<"done" | "done2" | "done3" | "running" | "locked", string> = { done: "", done2: "", done3: "", running: "", locked: "" };

  beforeAll(async () => {
    world = await gateWorld(dialect, "gate-verify");
    const exams = await publishExams(world, "v");
    // The author: a person who may both train and verify, declaring the receipt themselves.
    author = await world.person([{ role: "trainer", agent: null }, { role: "policy_owner", agent: null }], "Double Hat");
    const declared = await world.call(author, "POST", "/v1/gate/receipts", declaration(world, exams));
    const put = await world.store.updateResources("foreign-apo-beam", { prompt: { resource_type: "prompt_template", template: "verify me", engine: "f-string" } });
    await world.call("algorithm", "POST", `/v1/gate/receipts/${declared.body.receipt_id}/candidate`, { resources_id: "foreign-apo-beam", version: put.version });
    gateRunId = (await world.call("algorithm", "POST", `/v1/gate/receipts/${declared.body.receipt_id}/gate-runs`, {})).body.gate_run_id;

    // What the orchestrator does: enqueue canary (and locked-gate) rollouts and record them as the run's tasks.
    const algorithm = new AglClient(world.url, keyHeaders(world.keys.get("algorithm")!));
    const runner = new AglClient(world.url, keyHeaders(world.keys.get("runner")!));
    const cases = { done: "v-c-0", done2: "v-c-1", done3: "v-c-2", running: "v-c-3", locked: "v-h-0" } as const;
    for (const [name, caseId] of Object.entries(cases) as [keyof typeof cases, string][]) {
      const r = await algorithm.enqueueRollout({ question: caseId.replace(/-(\d+)$/, " question $1") }, { mode: "test", metadata: { "lightgate.gate_run": gateRunId, "lightgate.phase": name === "locked" ? "locked_gate" : "canary", "lightgate.case": caseId } });
      rollouts[name] = r.rollout_id;
      await world.database.db.gateRunTask.create({ data: { rolloutId: r.rollout_id, gateRunId, phase: name === "locked" ? "locked_gate" : "canary", side: name === "locked" ? "candidate" : null, caseId, resourcesId: "lg-pin-0000000000000000", enqueuedAt: new Date(), state: "pending" } });
    }
    for (let i = 0; i < 5; i++) {
      const claimed = await runner.dequeue("desk-runner-1");
      if (!claimed) break;
      if (claimed.rollout_id === rollouts.running) continue;
      await runner.request("POST", `/rollouts/${claimed.rollout_id}/attempts/${claimed.attempt.attempt_id}`, { json: { status: "succeeded" } });
    }
  }, 90_000);
  afterAll(() => world?.close());

  const verify = (who: Parameters<GateWorld["call"]>[0], body: Record<string, unknown>) => world.call(who, "POST", "/v1/gate/verifications", body);

  it("lists the finished, unverified canary tasks for verifiers, with the case's input and expected output", async () => {
    const pending = await world.call("verifier", "GET", "/v1/gate/verifications/pending");
    expect(pending.status).toBe(200);
    const byRollout = new Map((pending.body as { rollout_id: string }[]).map((p) => [p.rollout_id, p]));
    expect([...byRollout.keys()].sort()).toEqual([rollouts.done, rollouts.done2, rollouts.done3].sort()); // not the running one, not the locked-gate one
    expect(byRollout.get(rollouts.done)).toEqual({ rollout_id: rollouts.done, gate_run_id: gateRunId, case_id: "v-c-0", input: { question: "v-c question 0" }, expected: { answer: "v-c answer 0" }, attempt: { status: "succeeded", metadata: null } });
    expect((await world.call("verifier", "GET", "/v1/gate/verifications/pending?limit=1")).body).toHaveLength(1);
    expect(await world.call("verifier", "GET", "/v1/gate/verifications/pending?limit=0")).toMatchObject({ status: 400, body: { field: "limit" } });
    for (const learner of ["runner", "algorithm", "policy"] as const) expect((await world.call(learner, "GET", "/v1/gate/verifications/pending")).status).toBe(403);
    const otherAgent = await world.person([{ role: "policy_owner", agent: "another-agent" }]);
    expect((await world.call(otherAgent, "GET", "/v1/gate/verifications/pending")).body).toEqual([]);
  });

  it("records one verification per rollout from a verifier key; a second is a 409 that writes nothing", async () => {
    // The orchestrator waiting to judge hears of each record at once (a refused one tells it nothing).
    const heard: string[] = [];
    const unsubscribe = onRolloutEnded(world.database, (id) => heard.push(id));
    const first = await verify("verifier", { rollout_id: rollouts.done, method: "destination", matched: true, expected: { status: "resolved" }, observed: '{"status":"resolved"}' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(heard).toEqual([rollouts.done]);
    expect(first.body).toEqual({ verification_id: expect.stringMatching(/^gv-/), rollout_id: rollouts.done, gate_run_id: gateRunId });
    const row = await world.database.db.gateVerification.findUniqueOrThrow({ where: { rolloutId: rollouts.done } });
    expect(row).toMatchObject({ gateRunId, method: "destination", matched: true, confidence: null, expected: '{"status":"resolved"}', observed: '{"status":"resolved"}', verifierKind: "service" });
    const before = await world.rows.counts();
    const again = await verify("verifier", { rollout_id: rollouts.done, method: "destination", matched: false });
    expect(again).toMatchObject({ status: 409, body: { error: "conflict", field: "rollout_id" } });
    expect(await world.rows.counts()).toEqual(before);
    expect(heard).toEqual([rollouts.done]);
    unsubscribe();
    const pending = await world.call("verifier", "GET", "/v1/gate/verifications/pending");
    expect((pending.body as { rollout_id: string }[]).map((p) => p.rollout_id)).not.toContain(rollouts.done);
  });

  it.each([
    ["a runner key", "runner", 403],
    ["an algorithm key", "algorithm", 403],
    ["a policy key", "policy", 403],
    ["nobody", { headers: {} }, 401],
  ] as const)("%s cannot post a verification (%i), nothing written", async (_label, who, status) => {
    const before = await world.rows.counts();
    const res = await verify(who, { rollout_id: rollouts.done2, method: "destination", matched: true });
    expect(res.status).toBe(status);
    expect(await world.rows.counts()).toEqual(before);
  });

  it.each([
    ["a judge without confidence", { method: "judge", matched: true }, "confidence", /required for a judge verification/],
    ["a human with confidence 1.5", { method: "human", matched: true, confidence: 1.5 }, "confidence", /at most 1/],
    ["a destination with confidence", { method: "destination", matched: true, confidence: 0.9 }, "confidence", /for judge and human/],
    ["an unknown method", { method: "vibes", matched: true }, "method", /"destination", "judge", "human"/],
    ["matched missing", { method: "destination" }, "matched", /is required/],
    ["a locked-gate rollout", { rollout_id: "LOCKED", method: "destination", matched: true }, "rollout_id", /not a canary task/],
    ["an unknown rollout", { rollout_id: "ro-nope", method: "destination", matched: true }, "rollout_id", /not a canary task/],
    ["a rollout still running", { rollout_id: "RUNNING", method: "destination", matched: true }, "rollout_id", /has not finished/],
  ])("%s: 4xx naming the field, nothing written", async (_what, body, field, message) => {
    const b: Record<string, unknown> = { rollout_id: rollouts.done2, ...body };
    if (b.rollout_id === "LOCKED") b.rollout_id = rollouts.locked;
    if (b.rollout_id === "RUNNING") b.rollout_id = rollouts.running;
    const before = await world.rows.counts();
    const res = await verify("verifier", b);
    expect([400, 412]).toContain(res.status);
    expect(res.body).toMatchObject({ field, message: expect.stringMatching(message) });
    expect(res.body.message).toContain(field);
    expect(await world.rows.counts()).toEqual(before);
  });

  it("the receipt's author may not verify its canary, even holding canary:verify", async () => {
    const before = await world.rows.counts();
    const res = await verify(author, { rollout_id: rollouts.done2, method: "human", matched: true, confidence: 0.9 });
    expect(res).toMatchObject({ status: 403, body: { error: "forbidden", message: expect.stringMatching(/declared or registered this receipt/) } });
    expect(await world.rows.counts()).toEqual(before);
  });

  it("a person holding canary:verify for the agent gives a human verification from the dashboard (tRPC), under the same rules", async () => {
    const owner = makeActor("user", "u-owner-x", "Owner of the agent", [{ role: "policy_owner", agent: AGENT }]);
    const caller = createCaller({ db: world.database.db, database: world.database, actor: owner, headers: new Headers() });
    const done = await caller.verifications.recordHuman({ agent: AGENT, rolloutId: rollouts.done2, matched: false, confidence: 0.8, note: "the reply promised a refund it cannot give" });
    expect(done.gateRunId).toBe(gateRunId);
    expect(await world.database.db.gateVerification.findUniqueOrThrow({ where: { rolloutId: rollouts.done2 } })).toMatchObject({ method: "human", matched: false, confidence: 0.8, verifierId: "u-owner-x", verifierKind: "user" });
    await expect(caller.verifications.recordHuman({ agent: AGENT, rolloutId: rollouts.done2, matched: true, confidence: 1 })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(caller.verifications.recordHuman({ agent: "another-agent", rolloutId: rollouts.done3, matched: true, confidence: 1 })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const other = makeActor("user", "u-owner-y", "Owner of another agent", [{ role: "policy_owner", agent: "another-agent" }]);
    const stranger = createCaller({ db: world.database.db, database: world.database, actor: other, headers: new Headers() });
    await expect(stranger.verifications.recordHuman({ agent: "another-agent", rolloutId: rollouts.done3, matched: true, confidence: 1 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await world.database.db.gateVerification.count({ where: { rolloutId: rollouts.done3 } })).toBe(0);
  });
});
