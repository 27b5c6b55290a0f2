// On PostgreSQL an idle trainer worker starts a run as soon as another connection's transaction queuing it commits
// (run-news.ts: a NOTIFY inside that transaction), not at its next poll — here the poll is a minute, so only the
// news can explain a start within seconds. A transaction that rolls back tells nobody; a resumed run is news too.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase, type Database } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { storeFor } from "@/server/store";
import { createQueuedRun, moveRun } from "@/server/training/lifecycle";
import { onRunQueued } from "@/server/training/run-news";
import { TrainerWorker } from "@/server/training/worker";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { waitFor } from "../../helpers/script-process";

const pg = inject("postgres");
const suite = pg.ok ? describe : describe.skip;

/** The worker's own loop, claim and lease; the run's work is only noted. */
class NotingWorker extends TrainerWorker {
  readonly started: { runId: string; at: number }[] = [];
  override async execute(runId: string): Promise<void> {
    this.started.push({ runId, at: Date.now() });
    await moveRun(this.database.db, runId, { kind: "pause", by: "test" }); // out of the way of the next claim
  }
}

const runData = (id: string) => ({
  id, agent: "news", family: "supervised", config: "{}", seed: "0", environment: "support-desk", distribution: "v1", parentResourcesId: "p", parentVersion: 1,
  parentDigest: "0", heldOutCases: 0, retryBudget: 0, codeRevision: "test", candidateEvery: 1, checkpointEvery: 1, updatesTotal: 1, startedById: "test",
});

suite(`queued runs wake idle workers (PostgreSQL LISTEN/NOTIFY)${pg.ok ? "" : ` — skipped: ${pg.reason}`}`, () => {
  let db: TestDatabase;
  let other: Database; // another pool: what another process's transaction looks like to this one
  let worker: NotingWorker;
  const stop = new AbortController();
  let loop: Promise<void>;
  const heard: string[] = [];
  let unsubscribe = () => {};

  beforeAll(async () => {
    db = await createTestDatabase("postgresql", "runnews");
    other = await openDatabase(resolveDbTarget(db.url));
    worker = new NotingWorker(db, storeFor(db), { workerId: "idle", pollMs: 60_000 });
    unsubscribe = onRunQueued(db, (id) => heard.push(id));
    await waitFor(
      async () => (await db.db.$queryRawUnsafe<{ n: number }[]>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'"))[0]!.n > 0,
      10_000,
      () => "no LISTEN connection",
    );
    loop = worker.run(stop.signal);
    await new Promise((r) => setTimeout(r, 300)); // past its first (empty) look: from here on it waits out its poll
  }, 60_000);

  afterAll(async () => {
    stop.abort();
    await loop;
    unsubscribe();
    await other?.close();
    await db?.drop();
  });

  it("a run queued by another connection starts within seconds, not at the one-minute poll", async () => {
    const t0 = Date.now();
    await other.transaction((tx) => createQueuedRun(tx, runData("run-news-1")));
    await waitFor(async () => worker.started.some((s) => s.runId === "run-news-1"), 5_000, () => `started: ${JSON.stringify(worker.started)}`);
    expect(worker.started.find((s) => s.runId === "run-news-1")!.at - t0).toBeLessThan(5_000);
  });

  it("a transaction that rolls back tells nobody; a resumed run wakes the worker again", async () => {
    await expect(
      other.transaction(async (tx) => {
        await createQueuedRun(tx, runData("run-news-2"));
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await new Promise((r) => setTimeout(r, 1_000));
    expect(heard).not.toContain("run-news-2");
    expect(await db.db.trainingRun.count({ where: { id: "run-news-2" } })).toBe(0);

    await moveRun(other.db, "run-news-1", { kind: "resume", by: "test" });
    await waitFor(async () => worker.started.filter((s) => s.runId === "run-news-1").length === 2, 5_000, () => `started: ${JSON.stringify(worker.started)}`);
    expect(heard.filter((id) => id === "run-news-1")).toHaveLength(2);
  });
});
