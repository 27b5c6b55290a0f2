// The policy that reads the ticket goes through the gate like any other: a continual text-policy run on the text
// desk (support-desk-text, v6-text-order) from a stored snapshot of expert demonstrations, its candidate validated by
// runners acting with the transformer itself (no tfjs in the runner: the plain forward pass), a gate run served by
// desk runners and a verifier, every check judged on its own evidence.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSnapshot } from "@/server/datasets/snapshot";
import { createSupportDesk, ORDER_DESK_DISTRIBUTION } from "@/server/environments/support-desk";
import { deskTextExpert } from "@/server/environments/support-desk/expert";
import { gateReport } from "@/server/receipts/report";
import { collectDemonstrations } from "@/server/trainers/data-sources";
import { startRun } from "@/server/training/runs";
import { TrainerWorker } from "@/server/training/worker";
import { describeEachDialect } from "../../helpers/db";
import { deskGateWorld, driveGateRun, type DeskGateWorld, type DeskSpec } from "../../helpers/desk-gate";
import { STARTER, startRunners } from "../../helpers/training-runs";

const TEXT_DESK: DeskSpec = { agent: "helpdesk-text-test", environment: "support-desk-text", distribution: "v6-text-order" };

describeEachDialect("a text policy's candidate through the admission gate", (dialect) => {
  let world: DeskGateWorld;
  beforeAll(async () => {
    world = await deskGateWorld(dialect, "textgate", { heldOut: 40, canary: 6 }, TEXT_DESK);
  }, 60_000);
  afterAll(() => world?.close());

  it("trains on the text desk, runners act with the transformer, and the gate judges it", async () => {
    const desk = createSupportDesk({ variant: "text" });
    const records = collectDemonstrations(desk, [{ id: "expert", policyFor: deskTextExpert }], { distribution: ORDER_DESK_DISTRIBUTION, count: 200, seed: "text-gate" });
    // Every step keeps the words the agent read: what the text policy learns from.
    expect(records.every((d) => d.steps.every((s) => typeof s.text === "string" && s.text.length > 0))).toBe(true);
    const snapshot = await createSnapshot(world.database, { name: "helpdesk-text/demos", records, createdBy: "test" });
    const run = await startRun(
      world.database,
      world.store,
      {
        ...TEXT_DESK,
        family: "text-policy",
        config: { pretrainUpdates: 1, pretrainStepsPerUpdate: 10, cloneEpochs: 8, ppoUpdates: 0 },
        seed: "text-gate",
        dataSnapshotId: snapshot.id,
        updates: 9,
        checkpointEvery: 3,
        continual: true,
        candidateEvery: 9,
        heldOutCases: 40,
        retryBudget: 1000,
      },
      STARTER,
    );
    const runners = startRunners(world.url, world.keys.get("runner")!, 2);
    await new TrainerWorker(world.database, world.store, { workerId: "w-text", pollMs: 20 }).runOne();
    await runners.stop();

    const done = await world.database.db.trainingRun.findUniqueOrThrow({ where: { id: run.id } });
    expect([done.status, done.updatesDone]).toEqual(["finished", 9]);
    const metrics = await world.database.db.trainingMetric.findMany({ where: { runId: run.id }, orderBy: { update: "asc" } });
    // The validation curve rises as cloning goes on (the first update is pre-training: the policy still uniform).
    expect(metrics.at(-1)!.heldOutReward!).toBeGreaterThan(metrics[0]!.heldOutReward! + 0.3);
    const candidate = await world.database.db.candidate.findFirstOrThrow({ where: { trainingRunId: run.id } });
    expect(candidate.algorithm).toBe("text-policy");
    // Runners served its validation rollouts with the published transformer.
    const val = await world.database.db.storeRollout.count({ where: { resourcesId: candidate.resourcesId, mode: "val", status: "succeeded" } });
    expect(val).toBeGreaterThan(0);

    const gateRun = await world.database.db.gateRun.findFirstOrThrow({ where: { candidateId: candidate.id } });
    const gated = await driveGateRun(world, gateRun.id, { timeoutMs: 120_000 });
    expect([gated.status, gated.error]).toEqual(["done", null]);
    const { report, receipt } = await gateReport(world.database, candidate.id);
    const checks = Object.fromEntries(report!.checks.map((c) => [c.id, c]));
    expect(checks[1]!.status).toBe("pass");
    for (const id of [2, 3, 4, 5, 6]) expect([id, checks[id]!.status], checks[id]!.explanation).toEqual([id, expect.stringMatching(/^(pass|fail)$/)]);
    // It beats its untrained parent on the locked gate, and keeps every protected case.
    const cmp = report!.evidence.comparison;
    expect(cmp.candidateMean!).toBeGreaterThan(cmp.parentMean! + 0.3);
    expect(receipt!.stage3).toBeTruthy();
  }, 300_000);
}, { postgresql: "full-run" });
