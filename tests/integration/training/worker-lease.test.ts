// A worker's hold on a run outlasts the longest stretch it went without renewing: an update's learning blocks the
// event loop (nothing renews during it), and a second worker must not take a run that is still being trained.
import { afterAll, beforeAll, expect, it } from "vitest";
import { storeFor } from "@/server/store";
import { startRun } from "@/server/training/runs";
import { leaseFor, MAX_LEASE_MS, TrainerWorker } from "@/server/training/worker";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { ppoRun, STARTER } from "../../helpers/training-runs";

/** Blocks the event loop, as a synchronous training epoch does. */
function busy(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

it("the lease is the configured one, or three times the longest stretch without renewal, capped", () => {
  expect(leaseFor(15_000, 0)).toBe(15_000);
  expect(leaseFor(15_000, 4_000)).toBe(15_000);
  expect(leaseFor(15_000, 20_000)).toBe(60_000);
  expect(leaseFor(15_000, 3_600_000)).toBe(MAX_LEASE_MS);
});

describeEachDialect("trainer worker: the lease follows the slowest stretch", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "lease");
  });
  afterAll(() => database?.drop());

  it("after a long synchronous stretch another worker cannot take the run within the configured lease", async () => {
    const store = storeFor(database);
    const run = await startRun(database, store, ppoRun({ updates: 2 }), STARTER);
    const holder = new TrainerWorker(database, store, { workerId: "holder", leaseMs: 300 });
    const rival = new TrainerWorker(database, store, { workerId: "rival", leaseMs: 300 });
    expect(await holder.claim()).toBe(run.id);
    expect(await holder.holds(run.id)).toBe(true);
    busy(600); // one "epoch", longer than the configured lease
    const renewedAt = Date.now();
    expect(await holder.holds(run.id)).toBe(true);
    const row = await database.db.trainingRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(row.leaseUntil!.getTime() - renewedAt).toBeGreaterThanOrEqual(3 * 600 - 50);
    // Past the configured lease the run is still held, so the rival finds nothing to claim.
    await new Promise((r) => setTimeout(r, 400));
    expect(await rival.claim()).toBeNull();
    expect((await database.db.trainingRun.findUniqueOrThrow({ where: { id: run.id } })).workerId).toBe("holder");
  });
});
