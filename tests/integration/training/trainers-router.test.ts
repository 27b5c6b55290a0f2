import { afterAll, beforeAll, expect, it } from "vitest";
import { storeFor } from "@/server/store";
import { listFamilies } from "@/server/trainers/families";
import { FAMILY_NAMES } from "@/server/trainers/family";
import { TrainerWorker } from "@/server/training/worker";
import { callerAs, refusal } from "../../helpers/caller";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

// One option per family that its schema refuses, and the field the 4xx must name.
const BAD: Record<(typeof FAMILY_NAMES)[number], [Record<string, unknown>, string]> = {
  ppo: [{ clipRange: -1 }, "config.clipRange"],
  "q-learning": [{ learningRate: -1 }, "config.learningRate"],
  supervised: [{ batchSize: 0 }, "config.batchSize"],
  feedback: [{ ratingMidpoint: "three" }, "config.ratingMidpoint"],
  "fine-tune": [{}, "config.domain"],
  "behaviour-cloning": [{ dropout: 2 }, "config.dropout"],
  "maxent-irl": [{ gradientSteps: 0 }, "config.gradientSteps"],
  continual: [{ streamBatch: 0 }, "config.streamBatch"],
  online: [{ confidenceThreshold: 5 }, "config.confidenceThreshold"],
  curriculum: [{ levels: 0 }, "config.levels"],
  reptile: [{ innerSteps: 0 }, "config.innerSteps"],
  "pattern-discovery": [{ maxClusters: 0 }, "config.maxClusters"],
  "prompt-optimization": [{ beamWidth: 0 }, "config.beamWidth"],
  "ppo-mlp": [{ clipRange: 0 }, "config.clipRange"],
  "dqn-mlp": [{ replayCapacity: 1 }, "config.replayCapacity"],
  "text-policy": [{ cloneEpochs: -1 }, "config.cloneEpochs"],
};


describeEachDialect("trainers router", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "trainers");
  }, 60_000);
  afterAll(() => database?.drop());

  it("refuses every family's invalid options with 400 naming the field, before anything is queued", async () => {
    const trainer = callerAs(database, "trainer");
    for (const family of FAMILY_NAMES) {
      const [config, field] = BAD[family];
      const e = await refusal(trainer.trainers.startRun({ family, config, seed: "s", updates: 2 }));
      expect(e.code, family).toBe("BAD_REQUEST");
      expect(e.message.startsWith(`invalid ${family} config: ${field.slice(7)}: `), `${family}: ${e.message}`).toBe(true);
      expect(e.cause?.field, family).toBe(field);
    }
    expect(await database.db.trainingRun.count()).toBe(0);
  });

  it("accepts each family's defaults when it has what it reads, and names what is missing otherwise", async () => {
    const trainer = callerAs(database, "trainer");
    for (const info of listFamilies()) {
      const input = { family: info.name, config: info.required.includes("domain") ? { domain: "billing" } : {}, seed: `s-${info.name}`, updates: 1 };
      if (info.reads.length) {
        const e = await refusal(trainer.trainers.startRun(input));
        expect(e.cause?.field, info.name).toBe("dataSnapshotId");
      } else {
        await expect(trainer.trainers.startRun(input), info.name).resolves.toMatchObject({ status: "queued" });
      }
    }
    const bad = await refusal(trainer.trainers.startRun({ family: "ppo", seed: "s", updates: 1, parent: { resourcesId: "no-such", version: 1 } }));
    expect(bad.cause?.field).toBe("parent");
    const dist = await refusal(trainer.trainers.startRun({ family: "ppo", seed: "s", updates: 1, distribution: "v9" }));
    expect(dist.cause?.field).toBe("distribution");
    // Q-learning trains q-tabular policies: a softmax parent is refused, naming the parent.
    const softmax = (await database.db.trainingRun.findFirstOrThrow({ where: { family: "ppo" } })).parentResourcesId;
    const kind = await refusal(trainer.trainers.startRun({ family: "q-learning", seed: "s", updates: 1, parent: { resourcesId: softmax, version: 1 } }));
    expect(kind.cause?.field).toBe("parent");
  }, 60_000);

  it("starts a run with its name, tags and agent (the support desk unless named), and refuses a bad one naming the field", async () => {
    const trainer = callerAs(database, "trainer");
    const { id } = await trainer.trainers.startRun({ family: "ppo", seed: "named", updates: 1, name: " nightly ppo ", tags: ["Nightly", "ppo", "nightly"] });
    const listed = (await trainer.trainers.listRuns({ search: "nightly" })).items;
    expect(listed.map((r) => [r.id, r.name, r.tags, r.agent])).toEqual([[id, "nightly ppo", ["nightly", "ppo"], "support-desk"]]);
    const bad: [{ agent?: string; tags?: string[]; name?: string }, string][] = [
      [{ agent: "../support-desk" }, "agent"],
      [{ agent: "" }, "agent"],
      [{ tags: ["a,b"] }, "tags.0"],
      [{ name: "x".repeat(121) }, "name"],
    ];
    for (const [input, field] of bad) {
      const e = await refusal(trainer.trainers.startRun({ family: "ppo", seed: "bad", updates: 1, ...input }));
      expect(e.code, field).toBe("BAD_REQUEST");
      expect((e.cause as unknown as { issues: { path: PropertyKey[] }[] }).issues[0]!.path.join("."), field).toBe(field);
    }
    expect((await trainer.trainers.listRuns({ search: "bad" })).total).toBe(0);
  });

  it("a viewer can read runs but not start, pause, resume or stop them", async () => {
    const viewer = callerAs(database, "viewer");
    const run = (await viewer.trainers.listRuns({ limit: 5, offset: 0 })).items[0]!;
    for (const call of [viewer.trainers.startRun({ family: "ppo", seed: "v", updates: 1 }), viewer.trainers.pauseRun({ runId: run.id }), viewer.trainers.resumeRun({ runId: run.id }), viewer.trainers.stopRun({ runId: run.id })]) {
      expect((await refusal(call)).code).toBe("FORBIDDEN");
    }
    expect((await viewer.trainers.getRun({ runId: run.id })).id).toBe(run.id);
  });

  it("pause, resume and stop act on a running worker within a couple of seconds", async () => {
    const trainer = callerAs(database, "trainer");
    await database.db.trainingRun.updateMany({ data: { status: "finished" } }); // park the runs of the tests above
    // Curriculum PPO collects in-process (no runners needed); small batches keep updates short.
    const { id } = await trainer.trainers.startRun({ family: "curriculum", config: { episodesPerUpdate: 8, calibrationTasks: 200 }, seed: "p", updates: 10_000, checkpointEvery: 1_000, heldOutCases: 20 });
    const worker = new TrainerWorker(database, storeFor(database), { workerId: "w-pause", pollMs: 20 });
    const running = worker.runOne();
    const waitFor = async (pred: (r: { status: string; updatesDone: number; workerId: string | null }) => boolean) => {
      const t0 = Date.now();
      for (;;) {
        const r = await database.db.trainingRun.findUniqueOrThrow({ where: { id } });
        if (pred(r)) return Date.now() - t0;
        if (Date.now() - t0 > 30_000) throw new Error(`timed out; run is ${r.status} at ${r.updatesDone}`);
        await new Promise((res) => setTimeout(res, 20));
      }
    };
    await waitFor((r) => r.updatesDone >= 2);
    await trainer.trainers.pauseRun({ runId: id });
    expect(await waitFor((r) => r.workerId === null)).toBeLessThan(2_000);
    await running;
    const paused = await database.db.trainingRun.findUniqueOrThrow({ where: { id } });
    expect(paused).toMatchObject({ status: "paused", statusReason: "paused by test-trainer" });
    const at = paused.updatesDone;
    expect((await database.db.trainingCheckpoint.findFirstOrThrow({ where: { runId: id }, orderBy: { update: "desc" } })).update).toBe(at);
    expect((await refusal(trainer.trainers.resumeRun({ runId: "run-nope" }))).code).toBe("NOT_FOUND");

    await trainer.trainers.resumeRun({ runId: id });
    const again = worker.runOne();
    await waitFor((r) => r.updatesDone >= at + 2);
    const events = await database.db.trainingEvent.findMany({ where: { runId: id }, orderBy: { at: "asc" } });
    expect(events.some((e) => e.kind === "resumed" && e.message.includes(`update ${at}`))).toBe(true);
    await trainer.trainers.stopRun({ runId: id });
    expect(await waitFor((r) => r.workerId === null)).toBeLessThan(2_000);
    await again;
    // Stopped by a person is its own status, never "finished"; its runtime ends at the stop.
    const stopped = await database.db.trainingRun.findUniqueOrThrow({ where: { id } });
    expect(stopped).toMatchObject({ status: "stopped", statusReason: "stopped by test-trainer" });
    expect(stopped.finishedAt).not.toBeNull();
    expect(stopped.runtimeSeconds).toBe(Math.round((stopped.finishedAt!.getTime() - stopped.startedAt!.getTime()) / 1000));
    const summary = await database.db.trainingMetric.aggregate({ where: { runId: id }, _max: { heldOutReward: true }, _sum: { retries: true } });
    expect([stopped.bestValidation, stopped.retryDebt]).toEqual([summary._max.heldOutReward, summary._sum.retries ?? 0]);
    expect((await refusal(trainer.trainers.pauseRun({ runId: id }))).code).toBe("CONFLICT");
    const view = await trainer.trainers.getRun({ runId: id });
    expect(view.events.map((e) => e.kind)).toEqual(expect.arrayContaining(["queued", "started", "pause", "resume", "resumed", "stop"]));
    expect(view.stopConditions.find((c) => c.state === "ended")).toMatchObject({ id: "manual", current: "stopped by test-trainer" });
    expect(view.health.usefulProgress === true).toBe(false);
    expect((await trainer.trainers.listRuns({ status: ["stopped"] })).items.map((r) => r.id)).toEqual([id]);
  }, 90_000);
});
