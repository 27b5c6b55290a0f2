// The desk's exam as published gate datasets: the held-out cases are the locked seeds its runs have always
// been measured on, the canary cases a disjoint label of the same locked namespace; both content-addressed
// (digest over the canonical JSON of {name, kind, cases}), published by the policy owner once, and pinned by
// every candidate a training run declares — so the gate asks runners for exactly these cases.
import { afterAll, beforeAll, expect, it } from "vitest";
import { canonicalJson, digestOf } from "@/server/digest";
import { deskGateCases, publishDeskGateDatasets } from "@/server/desk/gate-datasets";
import { findDistribution } from "@/server/environments/support-desk";
import { seedReferenceDemo } from "@/server/reference/reference-demo";
import { ZEpisodeInput } from "@/server/runner/episode-input";
import { createSupportDesk } from "@/server/environments/support-desk";
import { lockHeldOutSet } from "@/server/trainers/evaluate";
import { DEFAULT_REWARD_WEIGHTS } from "@/server/environments/types";
import { EVALUATOR, EVALUATOR_BODY } from "@/server/gate/reference/common";
import { currentEntries } from "@/server/receipts/registries";
import { latestOf } from "@/server/receipts/versions";
import { ZRunnerRewardSpec } from "@/server/runner/gate-rollout";
import { DEMO_AGENT, DESK_POLICY_OWNER, ensureDeskGate } from "@/server/training/demo";
import { startRun } from "@/server/training/runs";
import { TrainerWorker } from "@/server/training/worker";
import { describeEachDialect } from "../../helpers/db";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";
import { ppoRun, STARTER, startRunners } from "../../helpers/training-runs";

const V2 = findDistribution("v2");
const desk = createSupportDesk();

it("the held-out cases are the runs' locked seeds; the canary cases a disjoint set; inputs run as episodes", () => {
  const heldOut = deskGateCases(V2, "held_out", 60);
  const canary = deskGateCases(V2, "canary", 20);
  const locked = lockHeldOutSet(desk, V2, 60, "gate");
  expect(heldOut.map((c) => ZEpisodeInput.parse(c.input).task_seed)).toEqual(locked.seeds);
  expect(heldOut.map((c) => c.id)).toEqual(locked.taskIds);
  const seeds = new Set(heldOut.map((c) => ZEpisodeInput.parse(c.input).task_seed));
  expect(canary.filter((c) => seeds.has(ZEpisodeInput.parse(c.input).task_seed) || heldOut.some((h) => h.id === c.id))).toEqual([]);
  for (const c of [...heldOut, ...canary]) {
    const input = ZEpisodeInput.parse(c.input);
    expect(input).toMatchObject({ environment: "support-desk", distribution: "v2", distribution_digest: V2.digest, options: { toolFailureRate: 0, timeoutShare: 0 } });
    const task = desk.sampleTask(V2, input.task_seed);
    expect([c.family, c.protected]).toEqual([task.protectedFamily ?? "general", task.protectedFamily !== null]);
    expect(c.expected).toMatchObject({ task_id: task.id, ticket: { category: task.attributes.intent } });
  }
  // Every protected family of the desk is in the exam, next to general cases.
  expect(new Set(heldOut.map((c) => c.family))).toEqual(new Set(["general", ...desk.protectedFamilies]));
});

it("the desk evaluator is scored by the runner's own reward, with the environment's weights", () => {
  expect(ZRunnerRewardSpec.parse(EVALUATOR_BODY)).toEqual(EVALUATOR_BODY);
  expect(EVALUATOR_BODY).toMatchObject({ scoring: "runner_reward", environment: desk.id });
  expect(EVALUATOR_BODY.weights).toEqual(DEFAULT_REWARD_WEIGHTS);
  expect(EVALUATOR.digest).toBe(digestOf(EVALUATOR_BODY));
});

describeEachDialect("the desk's gate datasets in the database", (dialect) => {
  let s: StoreServer;
  beforeAll(async () => {
    s = await startStoreServer(dialect, "deskdata");
    await seedReferenceDemo(s.database, { only: [] }); // the demo's registries: the desk's task distribution is v2
  }, 60_000);
  afterAll(() => s?.close());

  it("the demo's registry pins that evaluator body", async () => {
    const evaluator = latestOf(await currentEntries(s.database.db, "support-desk"), "evaluator")!;
    expect([evaluator.name, evaluator.version, evaluator.digest, evaluator.body]).toEqual([EVALUATOR.id, EVALUATOR.version, EVALUATOR.digest, EVALUATOR_BODY]);
  });

  it("published once by the policy owner, content-addressed; the same content answers the same dataset", async () => {
    const first = await ensureDeskGate(s.database);
    expect(first.held_out).toMatchObject({ caseCount: 60, created: true });
    expect(first.canary).toMatchObject({ caseCount: 20, created: true });
    const cases = deskGateCases(V2, "held_out", 60);
    expect(first.held_out.digest).toBe(digestOf({ name: `${DEMO_AGENT}/held-out`, kind: "held_out", cases }));
    expect(first.held_out.datasetId).toBe(`gds-${first.held_out.digest.slice(7, 23)}`);

    const again = await ensureDeskGate(s.database);
    expect(again.held_out).toEqual({ ...first.held_out, created: false });
    expect(again.canary).toEqual({ ...first.canary, created: false });
    expect(await s.database.db.gateDataset.count()).toBe(2);
    const row = await s.database.db.gateDataset.findUniqueOrThrow({ where: { id: first.held_out.datasetId } });
    expect(row).toMatchObject({ name: `${DEMO_AGENT}/held-out`, kind: "held_out", createdById: DESK_POLICY_OWNER.id });
    const stored = await s.database.db.gateDatasetCase.findMany({ where: { datasetId: row.id }, orderBy: { ordinal: "asc" } });
    expect(stored.map((c) => ({ id: c.caseId, input: JSON.parse(c.input), family: c.family, protected: c.protected, expected: JSON.parse(c.expected!) }))).toEqual(cases);
    expect(await s.database.db.auditEvent.count({ where: { action: "gate.dataset.publish" } })).toBe(2);
    // A different exam (another size) is another dataset under the same name; the newest is in force.
    const bigger = await publishDeskGateDatasets(s.database, { agent: DEMO_AGENT, distribution: "v2", heldOutCases: 61, canaryCases: 20, actor: DESK_POLICY_OWNER });
    expect(bigger.held_out.created).toBe(true);
    expect(bigger.held_out.digest).not.toBe(first.held_out.digest);
    expect(canonicalJson(bigger.canary)).toBe(canonicalJson({ ...first.canary, created: false }));
  });

  it("a training run's candidates pin the published held-out and canary datasets in stage 1", async () => {
    const published = await publishDeskGateDatasets(s.database, { agent: DEMO_AGENT, distribution: "v2", heldOutCases: 60, canaryCases: 20, actor: DESK_POLICY_OWNER });
    // Publishing the same content again changes nothing: the 61-case exam published after it stays in force.
    expect(published.held_out.created).toBe(false);
    const run = await startRun(s.database, s.store, ppoRun({ agent: DEMO_AGENT, updates: 1, config: { episodesPerUpdate: 4, toolFailureRate: 0, maxAttempts: 1 } }), STARTER);
    const runners = startRunners(s.url, s.keys.runner, 1);
    await new TrainerWorker(s.database, s.store, { workerId: "w-pins", pollMs: 20 }).runOne();
    await runners.stop();
    const candidate = await s.database.db.candidate.findFirstOrThrow({ where: { trainingRunId: run.id } });
    const stage1 = JSON.parse(candidate.stage1) as { data: Record<string, unknown>; declaredBy: string };
    const newest = await s.database.db.gateDataset.findFirstOrThrow({ where: { name: `${DEMO_AGENT}/held-out`, caseCount: 61 } });
    expect(stage1.data.heldOut).toEqual({ id: newest.id, digest: newest.digest, caseCount: 61 });
    expect(stage1.data.canary).toEqual({ id: published.canary.datasetId, digest: published.canary.digest, caseCount: 20 });
    // The learner declared it; the exam was written by someone else.
    expect(stage1.declaredBy).not.toBe(DESK_POLICY_OWNER.id);
  }, 120_000);
});
