// A gate run is stepped by one process at a time: several orchestrators (as in several Lightgate processes on
// one database) stepping the same queued run at the same moment — exactly one takes its lease and starts it,
// its tasks are enqueued once, and the others keep skipping it while the lease holds.
import { afterAll, beforeAll, expect, it } from "vitest";
import { requestGateRun } from "@/server/receipts/gate-queue";
import { stepGateRun } from "@/server/receipts/gate-run/step";
import { describeEachDialect } from "../../helpers/db";
import { DESK_ALGORITHM } from "../../helpers/desk-candidate";
import { deskCandidate, deskGateWorld, type DeskGateWorld } from "../../helpers/desk-gate";

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
});
