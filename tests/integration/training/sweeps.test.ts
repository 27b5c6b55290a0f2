// Sweeps over tRPC on both databases: a grid over a family's config × seeds becomes ordinary training runs
// (queued like any other, each with its audit row, plus the sweep's), a trainer worker executes them, and
// the sweep ranks its configs by the mean final validation reward with a t interval over the seeds; any
// runs overlay through trainers.compareRuns. Bad spaces are refused naming the field, with nothing written.
import { afterAll, beforeAll, expect, it } from "vitest";
import { listAudit } from "@/server/audit/audit-log";
import { storeFor } from "@/server/store";
import { meanInterval } from "@/server/trainers/evaluation/intervals";
import { TrainerWorker } from "@/server/training/worker";
import { callerAs, refusal } from "../../helpers/caller";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

const SPACE = { mode: "grid" as const, params: [{ kind: "values" as const, path: "ppo.learningRate", values: [0.01, 0.1] }] };
const SWEEP = { family: "curriculum" as const, baseConfig: { episodesPerUpdate: 8, calibrationTasks: 60 }, space: SPACE, seedsPerConfig: 2, updates: 2, heldOutCases: 20, seed: "sw" };


describeEachDialect("sweeps", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "sweeps");
  }, 60_000);
  afterAll(() => database?.drop());

  it("a grid × seeds becomes ordinary training runs the worker executes; the sweep ranks configs by mean final validation reward with its interval", async () => {
    const { id, runs } = await callerAs(database, "trainer").sweeps.start(SWEEP);
    expect(runs).toBe(4);
    const queued = await database.db.trainingRun.findMany({ where: { status: "queued" }, orderBy: { seed: "asc" } });
    expect(queued.map((r) => [r.family, r.seed, JSON.parse(r.config).ppo.learningRate])).toEqual([
      ["curriculum", "sw/c1/s1", 0.01],
      ["curriculum", "sw/c1/s2", 0.01],
      ["curriculum", "sw/c2/s1", 0.1],
      ["curriculum", "sw/c2/s2", 0.1],
    ]);
    expect((await listAudit(database.db, { targetType: "training_sweep", targetId: id })).rows.map((a) => a.action)).toEqual(["training.sweep.start"]);
    expect(await database.db.auditEvent.count({ where: { action: "training.start" } })).toBe(4);

    const worker = new TrainerWorker(database, storeFor(database), { workerId: "sweep-worker" });
    while (await worker.runOne());
    const report = await callerAs(database, "viewer").sweeps.get({ id });
    expect(report.configs.map((c) => c.label)).toEqual(["ppo.learningRate=0.01", "ppo.learningRate=0.1"]);
    for (const c of report.configs) {
      expect(c.runs.map((r) => r.status)).toEqual(["finished", "finished"]);
      // Each run's final figure is its last update's validation reward, as the worker recorded it.
      for (const r of c.runs) expect(r.final).toBe((await database.db.trainingMetric.findUniqueOrThrow({ where: { runId_update: { runId: r.runId, update: 2 } } })).heldOutReward);
      const i = meanInterval(c.runs.map((r) => r.final!));
      expect(c).toMatchObject({ n: 2, mean: i.estimate, ci: i.ci });
    }
    const [a, b] = report.configs;
    expect([a!.rank, b!.rank].sort()).toEqual([1, 2]);
    expect((a!.rank === 1 ? a! : b!).mean!).toBeGreaterThanOrEqual((a!.rank === 1 ? b! : a!).mean!);
    expect(report.parentValidation).not.toBeNull();

    const list = await callerAs(database, "viewer").sweeps.list({});
    expect(list.rows[0]).toMatchObject({ id, configs: 2, seedsPerConfig: 2, runs: 4, finished: 4, failed: 0 });

    // Any runs overlay: their curves, in the order asked, with the sweep config they belong to.
    const ids = [b!.runs[0]!.runId, a!.runs[1]!.runId];
    const curves = await callerAs(database, "viewer").trainers.compareRuns({ runIds: ids });
    expect(curves.map((c) => c.id)).toEqual(ids);
    expect(curves[0]!.sweep).toEqual({ id, label: b!.label });
    // Validation reward unless other metrics are asked for.
    expect(curves[0]!.series.map((s) => s.metric)).toEqual(["validation"]);
    const validation = curves[0]!.series[0]!.points;
    expect(validation.map((p) => p.update)).toEqual([1, 2]);
    expect(validation[1]!.value).toBe(b!.runs[0]!.final);
    // Curriculum PPO records PPO's diagnostics per update: they are offered, and drawn when asked for.
    expect(curves[0]!.available).toEqual(expect.arrayContaining(["validation", "batch_reward", "retries", "approxKl", "entropy", "level"]));
    const multi = await callerAs(database, "viewer").trainers.compareRuns({ runIds: ids, metrics: ["entropy", "retries", "noSuchFigure"] });
    expect(multi[1]!.series.map((s) => [s.metric, s.points.length])).toEqual([["entropy", 2], ["retries", 2], ["noSuchFigure", 0]]);
  }, 120_000);

  it("refuses viewers, configs the family refuses (naming which), moving past the run limit, unsafe paths and unknown runs — writing nothing", async () => {
    const before = await database.db.trainingRun.count();
    const trainer = callerAs(database, "trainer");
    expect((await refusal(callerAs(database, "viewer").sweeps.start(SWEEP))).code).toBe("FORBIDDEN");
    const bad = await refusal(trainer.sweeps.start({ ...SWEEP, space: { mode: "grid", params: [{ kind: "values", path: "levels", values: [3, 0] }] } }));
    expect(bad.code).toBe("BAD_REQUEST");
    expect(bad.message).toBe("space: config 2 (levels=0): levels: levels must be ≥ 2");
    const unknown = await refusal(trainer.sweeps.start({ ...SWEEP, space: { mode: "grid", params: [{ kind: "values", path: "noSuchOption", values: [1] }] } }));
    expect(unknown.message).toMatch(/^space: config 1 \(noSuchOption=1\): config: Unrecognized key/);
    const many = await refusal(trainer.sweeps.start({ ...SWEEP, seedsPerConfig: 10, space: { mode: "grid", params: [{ kind: "range", path: "threshold", min: 0.1, max: 0.9, points: 10 }] } }));
    expect(many.message).toBe("space: 10 configs × 10 seeds is 100 runs; at most 64");
    for (const path of ["__proto__", "ppo.__proto__.x", "constructor..x", "a-b"]) {
      const e = await refusal(trainer.sweeps.start({ ...SWEEP, space: { mode: "grid", params: [{ kind: "values", path, values: [1] }] } }));
      expect(e.message, path).toMatch(/path must be config keys joined by dots/);
    }
    expect(await database.db.trainingRun.count()).toBe(before);
    expect(await database.db.trainingSweep.count()).toBe(1);
    const missing = await refusal(callerAs(database, "viewer").trainers.compareRuns({ runIds: ["run-nope"] }));
    expect(missing).toMatchObject({ code: "NOT_FOUND", message: "runIds: no training run run-nope" });
    expect((await refusal(callerAs(database, "viewer").sweeps.get({ id: "swp-nope" }))).code).toBe("NOT_FOUND");
  });
});
