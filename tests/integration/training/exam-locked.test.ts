// The exam stays locked: a trainer never reads the gate's held-out set or its expected answers. Over real
// HTTP a trainer identity (an algorithm key, a person with the trainer role) asking for a published
// held-out set is refused, while the exam's writers and the runners that sit it are served; in process a
// family handed the locked set as its validation split is refused, and it only ever holds the exam's pin;
// the trainer worker measures every update, and the parent, on the trainer's own validation split.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSupportDesk, findDistribution } from "@/server/environments/support-desk";
import { storeFor } from "@/server/store";
import { evaluatePolicy, lockHeldOutSet, VALIDATION_NAMESPACE } from "@/server/trainers/evaluate";
import { LockedSetRefused, startFamily } from "@/server/trainers/families";
import { initialPolicy } from "@/server/trainers/policy";
import { fromPolicyResource } from "@/server/trainers/policy-resource";
import { trainingValidationSet } from "@/server/training/context";
import { candidateResourcesId } from "@/server/training/publish";
import { startRun } from "@/server/training/runs";
import { TrainerWorker } from "@/server/training/worker";
import { describeEachDialect } from "../../helpers/db";
import { CODE_REVISION, GATE, runInit } from "../../helpers/families";
import { cases, gateWorld, type GateWorld } from "../../helpers/gate-api";
import { STARTER } from "../../helpers/training-runs";

describeEachDialect("the exam stays locked", (dialect) => {
  let world: GateWorld;
  beforeAll(async () => {
    world = await gateWorld(dialect, "exam-locked");
  }, 60_000);
  afterAll(() => world?.close());

  it("a trainer identity asking for a published held-out set is refused (403 naming why); its writers, verifiers and runners are served", async () => {
    const held = await world.call("policy", "POST", "/v1/gate/datasets", { name: "locked exam", kind: "held_out", cases: cases(4, "x") });
    const canary = await world.call("policy", "POST", "/v1/gate/datasets", { name: "locked canary", kind: "canary", cases: cases(2, "c") });
    const path = `/v1/gate/datasets/${held.body.dataset_id}`;
    const trainer = await world.person([{ role: "trainer", agent: null }]);
    const perAgentTrainer = await world.person([{ role: "trainer", agent: "foreign-agent" }]);
    for (const learner of ["algorithm", trainer, perAgentTrainer] as const) {
      const res = await world.call(learner, "GET", path);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body).toMatchObject({ error: "forbidden", field: "dataset_id", message: expect.stringMatching(/locked held-out set is never served to a trainer identity/) });
      expect(JSON.stringify(res.body)).not.toContain("x question");
    }
    // Whoever writes or checks exams reads it whole; a runner sits it (inputs only); an admin writes exams too.
    const owner = await world.person([{ role: "policy_owner", agent: null }]);
    const admin = await world.person([{ role: "admin", agent: null }]);
    for (const [who, expected] of [["policy", true], ["verifier", true], [owner, true], [admin, true], ["runner", false]] as const) {
      const res = await world.call(who, "GET", path);
      expect(res.status).toBe(200);
      expect(res.body.expected_included).toBe(expected);
    }
    // The canary set is the one the learner's candidate acts on: its inputs stay readable, its answers do not.
    const c = await world.call("algorithm", "GET", `/v1/gate/datasets/${canary.body.dataset_id}`);
    expect(c).toMatchObject({ status: 200, body: { expected_included: false } });
  });

  it("a family handed the locked set as its validation split is refused; it holds the exam's pin, never its tasks", () => {
    expect(() => startFamily(runInit({ family: "curriculum", updates: 1, validation: GATE }))).toThrow(LockedSetRefused);
    expect(() => startFamily(runInit({ family: "curriculum", updates: 1, validation: GATE }))).toThrow(/^validation: a trainer never reads the locked held-out set \(gate\)/);
    const started = startFamily(runInit({ family: "curriculum", updates: 1 }));
    expect(started.init.heldOut).toEqual({ id: "gate", digest: GATE.digest, caseCount: 300 });
    expect(started.init.validation!.seeds.every((s) => s.startsWith(`${VALIDATION_NAMESPACE}/`))).toBe(true);
    expect(started.facts.data.heldOut).toEqual({ id: "gate", digest: GATE.digest, caseCount: 300 });
    expect(CODE_REVISION).toMatch(/^[0-9a-f]+$/);
  });

  it("the worker plots every update and the parent on the trainer's validation split, not on the gate's set", async () => {
    const store = storeFor(world.database);
    const run = await startRun(world.database, store, { agent: "support-desk", family: "curriculum", config: { episodesPerUpdate: 16, calibrationTasks: 200 }, seed: "exam", environment: "support-desk", distribution: "v2", updates: 2, checkpointEvery: 1, continual: false, heldOutCases: 40, retryBudget: 0 }, STARTER);
    expect(await new TrainerWorker(world.database, store, { workerId: "exam-worker" }).runOne()).toBe(true);
    const row = await world.database.db.trainingRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(row.status).toBe("finished");
    const env = createSupportDesk();
    const dist = findDistribution("v2");
    const validation = trainingValidationSet(env, dist, 40);
    const exam = lockHeldOutSet(env, dist, 40, "gate");
    const parent = initialPolicy("softmax-linear", env);
    expect(row.parentHeldOutReward).toBe(evaluatePolicy(env, parent, validation).meanReward);
    const last = await world.database.db.trainingMetric.findUniqueOrThrow({ where: { runId_update: { runId: run.id, update: 2 } } });
    const published = (await store.resourcesVersion(candidateResourcesId(run.id, 2), 1))!;
    const candidate = fromPolicyResource(published.resources.policy);
    expect(last.heldOutReward).toBe(evaluatePolicy(env, candidate, validation).meanReward);
    expect(last.heldOutReward).not.toBe(evaluatePolicy(env, candidate, exam).meanReward);
  }, 60_000);
}, { postgresql: "full-run" });
