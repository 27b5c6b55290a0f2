// A trainer worker process SIGKILLed mid-run: a new worker takes the run over when the lease runs out,
// continues from the last checkpoint, and finishes with exactly the updates — and the exact candidate — of
// an uninterrupted run with the same seed.
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startRun } from "@/server/training/runs";
import { TrainerWorker } from "@/server/training/worker";
import { describeEachDialect } from "../../helpers/db";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";
import { ppoRun, STARTER, startRunners } from "../../helpers/training-runs";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function spawnWorker(databaseUrl: string, id: string): ChildProcess {
  // node --import tsx: one process (the tsx binary would put a wrapper in between that SIGKILL cannot pass).
  return spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts", "--id", id, "--lease-ms", "1500", "--poll-ms", "100", "--quiet"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LIGHTGATE_PARENT_PID: String(process.pid) },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

describeEachDialect("trainer worker: SIGKILL and resume", (dialect) => {
  let s: StoreServer;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    s = await startStoreServer(dialect, "resume");
  }, 60_000);
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    await s?.close();
  });

  it("a killed worker's run resumes from its checkpoint and ends like an uninterrupted one", async () => {
    const spec = ppoRun({ updates: 6, checkpointEvery: 2, config: { episodesPerUpdate: 8, toolFailureRate: 0.2, maxAttempts: 3 } });
    const runners = startRunners(s.url, s.keys.runner, 2);
    try {
      const killed = await startRun(s.database, s.store, spec, STARTER);
      const first = spawnWorker(s.database.url, "doomed");
      children.push(first);
      let at = 0;
      for (let i = 0; i < 600 && at < 3; i++) {
        at = (await s.database.db.trainingRun.findUniqueOrThrow({ where: { id: killed.id } })).updatesDone;
        await sleep(50);
      }
      expect(at).toBeGreaterThanOrEqual(3);
      first.kill("SIGKILL");
      await new Promise((r) => first.once("exit", r));
      expect((await s.database.db.trainingRun.findUniqueOrThrow({ where: { id: killed.id } })).status).toBe("running"); // nobody told the database

      const second = spawnWorker(s.database.url, "rescuer");
      children.push(second);
      let status = "running";
      for (let i = 0; i < 1200 && status !== "finished" && status !== "failed"; i++) {
        status = (await s.database.db.trainingRun.findUniqueOrThrow({ where: { id: killed.id } })).status;
        await sleep(50);
      }
      // Gone before the straight run is queued: a worker still polling while it shuts down would claim that run.
      const exited = new Promise((r) => (second.exitCode !== null ? r(null) : second.once("exit", r)));
      second.kill("SIGTERM");
      await exited;
      const resumed = await s.database.db.trainingRun.findUniqueOrThrow({ where: { id: killed.id } });
      expect(resumed.statusReason).toBeNull();
      expect(resumed).toMatchObject({ status: "finished", updatesDone: 6 });
      const events = await s.database.db.trainingEvent.findMany({ where: { runId: killed.id }, orderBy: { at: "asc" } });
      expect(events.find((e) => e.kind === "resumed")?.message).toMatch(/rescuer resumed from the checkpoint at update [24]/);
      const metrics = await s.database.db.trainingMetric.findMany({ where: { runId: killed.id }, orderBy: { update: "asc" } });
      expect(metrics.map((m) => m.update)).toEqual([1, 2, 3, 4, 5, 6]);

      // The same run, never interrupted, in this process.
      const straight = await startRun(s.database, s.store, spec, STARTER);
      await new TrainerWorker(s.database, s.store, { workerId: "straight", pollMs: 20 }).runOne();
      const done = await s.database.db.trainingRun.findUniqueOrThrow({ where: { id: straight.id } });
      expect(done).toMatchObject({ status: "finished", updatesDone: 6 });
      const digests = await Promise.all([killed.id, straight.id].map(async (id) => (await s.database.db.candidate.findFirstOrThrow({ where: { trainingRunId: id } })).digest));
      expect(digests[0]).toBe(digests[1]);
    } finally {
      await runners.stop();
    }
  }, 180_000);
});
