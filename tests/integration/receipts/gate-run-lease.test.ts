// A gate run is stepped by one process at a time: several orchestrators (as in several Lightgate processes on
// one database) stepping the same queued run at the same moment — exactly one takes its lease and starts it,
// its tasks are enqueued once, and the others keep skipping it while the lease holds.
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { orchestrateGates, requestGateRun } from "@/server/receipts/gate-queue";
import { stepGateRun } from "@/server/receipts/gate-run/step";
import { describeEachDialect } from "../../helpers/db";
import { DESK_ALGORITHM } from "../../helpers/desk-candidate";
import { deskCandidate, deskGateWorld, type DeskGateWorld } from "../../helpers/desk-gate";
import { waitFor } from "../../helpers/script-process";

describeEachDialect("a gate run is claimed once", (dialect) => {
  let world: DeskGateWorld;
  beforeAll(async () => {
    world = await deskGateWorld(dialect, "lease", { heldOut: 20, canary: 6 });
  }, 60_000);
  afterAll(() => world?.close());

  it("four orchestrators stepping one queued run at once: one starts it, the others skip it while its lease holds", async () => {
    const { candidateId } = await deskCandidate(world, { name: "lease" });
    const run = await requestGateRun(world.database, { candidateId, actor: DESK_ALGORITHM, deadlineSeconds: 60 });
    const owners = ["gates-a", "gates-b", "gates-c", "gates-d"];
    const steps = await Promise.all(owners.map((o) => stepGateRun(world.database, run.id, o, 60)));
    expect(steps.filter((s) => s !== null)).toHaveLength(1);
    const winner = owners[steps.findIndex((s) => s !== null)]!;

    const row = await world.database.db.gateRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(row.leaseOwner).toBe(winner);
    expect(row.status).toBe("running");
    const tasks = await world.database.db.gateRunTask.findMany({ where: { gateRunId: run.id } });
    expect(tasks.length).toBeGreaterThan(0);
    const keys = tasks.map((t) => `${t.phase}/${t.side}/${t.caseId}`);
    expect(new Set(keys).size).toBe(keys.length); // nothing enqueued twice

    const again = await Promise.all(owners.filter((o) => o !== winner).map((o) => stepGateRun(world.database, run.id, o, 60)));
    expect(again).toEqual([null, null, null]);
    expect(await stepGateRun(world.database, run.id, winner, 60)).not.toBeNull();
  });

  // A run queued through another connection (another process's, on PostgreSQL) is heard at its commit: the idle
  // orchestrator, whose poll here is a minute, steps it within seconds (gate-run/news.ts).
  it.skipIf(dialect === "sqlite")("an idle orchestrator starts a run another process queued at once, not at its next poll", async () => {
    const { candidateId } = await deskCandidate(world, { name: "news" });
    const stop = new AbortController();
    const loop = orchestrateGates(world.database, stop.signal, { intervalMs: 60_000, owner: "idle-gates" });
    const other = await openDatabase(resolveDbTarget(world.database.url));
    try {
      await waitFor(
        async () => (await world.database.db.$queryRawUnsafe<{ n: number }[]>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN lightgate_gate_run_queued'"))[0]!.n > 0,
        10_000,
        () => "the orchestrator never listened",
      );
      await new Promise((r) => setTimeout(r, 500)); // its first pass is over: it waits out its minute
      const t0 = Date.now();
      const run = await requestGateRun(other, { candidateId, actor: DESK_ALGORITHM, deadlineSeconds: 60 });
      await waitFor(async () => (await world.database.db.gateRun.findUniqueOrThrow({ where: { id: run.id } })).leaseOwner === "idle-gates", 10_000, () => "not stepped");
      expect(Date.now() - t0).toBeLessThan(10_000);
    } finally {
      stop.abort();
      await loop;
      await other.close();
    }
  }, 60_000);
});
