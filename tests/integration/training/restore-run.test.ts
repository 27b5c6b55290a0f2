// Restoring from a checkpoint makes a new run (the source is never rewound), needs training:run, is audited, and
// the restored run continues bit for bit as the source did; names and tags are editable, audited and filter the list.
import { afterAll, beforeAll, expect, it } from "vitest";
import { storeFor } from "@/server/store";
import { TrainerWorker } from "@/server/training/worker";
import { callerAs, refusal } from "../../helpers/caller";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

describeEachDialect("restore from a checkpoint; names and tags", (dialect) => {
  let database: TestDatabase;
  let source: string;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "restore");
    // Curriculum PPO collects in-process (no runners); a checkpoint every 2 updates.
    source = (await callerAs(database, "trainer").trainers.startRun({ family: "curriculum", config: { episodesPerUpdate: 8, calibrationTasks: 200 }, seed: "r", updates: 4, checkpointEvery: 2, heldOutCases: 20 })).id;
    await new TrainerWorker(database, storeFor(database), { workerId: "w-src", pollMs: 20 }).runOne();
  }, 120_000);
  afterAll(() => database?.drop());

  it("a viewer is refused; a trainer gets a new queued run from update 2 that ends where the source ended, audited", async () => {
    const audits = () => database.db.auditEvent.count({ where: { action: "training.restore" } });
    const viewer = callerAs(database, "viewer");
    expect((await refusal(viewer.trainers.restoreRun({ runId: source, update: 2 }))).code).toBe("FORBIDDEN");
    expect(await audits()).toBe(0);

    const trainer = callerAs(database, "trainer");
    expect((await refusal(trainer.trainers.restoreRun({ runId: source, update: 3 }))).cause?.field).toBe("update");
    expect((await refusal(trainer.trainers.restoreRun({ runId: source, update: 2, updates: 2 }))).cause?.field).toBe("updates");
    expect((await refusal(trainer.trainers.restoreRun({ runId: "run-nope", update: 2 }))).code).toBe("NOT_FOUND");
    expect(await database.db.trainingRun.count()).toBe(1);

    const restored = await trainer.trainers.restoreRun({ runId: source, update: 2 });
    expect(restored).toMatchObject({ status: "queued", restoredFrom: { runId: source, update: 2 } });
    const view = await trainer.trainers.getRun({ runId: restored.id });
    expect([view.updatesDone, view.updatesTotal, view.curve.map((p) => p.update), view.restoredFrom, view.name]).toEqual([2, 4, [1, 2], { runId: source, update: 2 }, `${source} @ update 2`]);
    // Its summary is that of the two updates it copied, not the source's whole run; it has not run yet.
    const copied = view.curve.map((p) => p.heldOutReward!);
    expect([view.latestValidation, view.bestValidation, view.runtimeSeconds]).toEqual([copied[1], Math.max(...copied), null]);
    const audit = await database.db.auditEvent.findFirstOrThrow({ where: { action: "training.restore" } });
    expect([audit.actorId, audit.targetId]).toEqual(["test-trainer", restored.id]);
    expect(JSON.parse(audit.before!)).toMatchObject({ runId: source, update: 2 });
    // The source is untouched but for an event naming the new run.
    const src = await trainer.trainers.getRun({ runId: source });
    expect([src.status, src.updatesDone, src.checkpoints.map((c) => c.update)]).toEqual(["finished", 4, [4, 2]]);
    expect(src.events[0]!.message).toContain(restored.id);

    await new TrainerWorker(database, storeFor(database), { workerId: "w-restored", pollMs: 20 }).runOne();
    const end = async (runId: string) => (await database.db.trainingCheckpoint.findUniqueOrThrow({ where: { runId_update: { runId, update: 4 } } })).digest;
    expect(await end(restored.id)).toBe(await end(source));
    const after = await trainer.trainers.getRun({ runId: restored.id });
    expect([after.status, after.curve.map((p) => p.update)]).toEqual(["finished", [1, 2, 3, 4]]);
    expect([after.latestValidation, after.bestValidation]).toEqual([after.curve[3]!.heldOutReward, Math.max(...after.curve.map((p) => p.heldOutReward!))]);
    expect(after.runtimeSeconds).not.toBeNull();
    expect(after.events.some((e) => e.kind === "resumed" && e.message.includes("update 2"))).toBe(true);
  }, 120_000);

  it("names and tags: training:run edits them (lower-cased, deduplicated, audited); the list filters by tag and name", async () => {
    const viewer = callerAs(database, "viewer");
    expect((await refusal(viewer.trainers.labelRun({ runId: source, name: "x", tags: [] }))).code).toBe("FORBIDDEN");
    const trainer = callerAs(database, "trainer");
    expect((await refusal(trainer.trainers.labelRun({ runId: source, name: "x", tags: ["a,b"] }))).code).toBe("BAD_REQUEST");
    expect(await trainer.trainers.labelRun({ runId: source, name: " baseline curriculum ", tags: ["Demo", "demo", "lr 0.05"] })).toEqual({ id: source, name: "baseline curriculum", tags: ["demo", "lr 0.05"] });
    const tagged = await viewer.trainers.listRuns({ tag: "DEMO", limit: 10, offset: 0 });
    expect(tagged.items.map((r) => [r.id, r.name, r.tags])).toEqual([[source, "baseline curriculum", ["demo", "lr 0.05"]]]);
    expect((await viewer.trainers.listRuns({ tag: "dem", limit: 10, offset: 0 })).total).toBe(0);
    expect((await viewer.trainers.listRuns({ search: "baseline", limit: 10, offset: 0 })).items.map((r) => r.id)).toEqual([source]);
    const audit = await database.db.auditEvent.findFirstOrThrow({ where: { action: "training.label" } });
    expect([audit.actorId, JSON.parse(audit.after!)]).toEqual(["test-trainer", { name: "baseline curriculum", tags: ["demo", "lr 0.05"] }]);
  });
});
