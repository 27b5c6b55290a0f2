// The demo's own evidence, end to end as `npm start` runs it: the imitation run (scripted-expert demonstrations)
// trains, its candidate is validated through desk runners and gated on the desk's published exam — and passes
// checks 1–6 on that evidence (no verdict written by hand) —; the live run then fine-tunes that candidate with
// continual PPO and keeps going: its gate-subscribed evidence windows do not pause it.
import { afterAll, beforeAll, expect, it } from "vitest";
import { gateReport } from "@/server/receipts/report";
import { ensureDeskGate, ensureDemoRun, ensureImitationRun } from "@/server/training/demo";
import { moveRun } from "@/server/training/lifecycle";
import { getRun } from "@/server/training/queries";
import { TrainerWorker } from "@/server/training/worker";
import { describeEachDialect } from "../../helpers/db";
import { driveGateRun, type DeskGateWorld } from "../../helpers/desk-gate";
import { gateWorld, type GateWorld } from "../../helpers/gate-api";
import { startRunners } from "../../helpers/training-runs";

describeEachDialect("the demo's runs on their own evidence", (dialect) => {
  let world: GateWorld;
  beforeAll(async () => {
    world = await gateWorld(dialect, "demolive");
    await ensureDeskGate(world.database);
  }, 60_000);
  afterAll(() => world?.close());

  async function work(runId: string) {
    const runners = startRunners(world.url, world.keys.get("runner")!, 2);
    try {
      await new TrainerWorker(world.database, world.store, { workerId: "w-demo", pollMs: 20 }).execute(runId);
    } finally {
      await runners.stop();
    }
  }

  it("the imitation candidate passes checks 1–6 through the runners; the live fine-tune continues without a stop condition", async () => {
    expect(await ensureDemoRun(world.database)).toBeNull(); // no imitation candidate yet
    const imitation = await ensureImitationRun(world.database);
    await moveRun(world.database.db, imitation, { kind: "claim", workerId: "w-demo", leaseMs: 60_000 });
    await work(imitation);
    const candidate = await world.database.db.candidate.findFirstOrThrow({ where: { trainingRunId: imitation } });
    const gate = await world.database.db.gateRun.findFirstOrThrow({ where: { candidateId: candidate.id } });
    const gated = await driveGateRun(world as unknown as DeskGateWorld, gate.id, { timeoutMs: 180_000 });
    expect([gated.status, gated.error]).toEqual(["done", null]);
    const { report } = await gateReport(world.database, candidate.id);
    const checks = report!.checks.map((c) => [c.id, c.status, c.explanation] as const);
    console.log(`demo imitation candidate ${candidate.id}:\n${checks.map((c) => c.join(" · ")).join("\n")}`);
    for (const [id, status, why] of checks.filter(([id]) => id <= 6)) expect([id, status], why).toEqual([id, "pass"]);

    const live = (await ensureDemoRun(world.database))!;
    const row = await world.database.db.trainingRun.findUniqueOrThrow({ where: { id: live } });
    expect([row.parentResourcesId, row.parentVersion, row.paceSeconds, row.updatesTotal, row.name]).toEqual([candidate.resourcesId, candidate.version, 15, 10_000, "desk fine-tune (live)"]);
    // Two evidence windows without waiting for the pace: a candidate (and a judged window) every 4 updates.
    await world.database.db.trainingRun.update({ where: { id: live }, data: { paceSeconds: 0, candidateEvery: 4, updatesTotal: 9 } });
    await moveRun(world.database.db, live, { kind: "claim", workerId: "w-demo", leaseMs: 60_000 });
    await work(live);
    const done = await getRun(world.database, live);
    const windows = done.events.filter((e) => e.kind === "evidence" || e.kind === "paused");
    console.log(`live run: ${done.status} ${done.statusReason ?? ""}\n${done.stopConditions.map((c) => `${c.label}: ${c.current} (${c.threshold}) ${c.state}`).join("\n")}`);
    expect([done.status, done.statusReason]).toEqual(["finished", null]);
    expect(windows.map((e) => e.kind)).toEqual(["evidence", "evidence"]);
    expect(done.diagnostics).toHaveLength(9);
    expect(done.diagnostics.every((d) => d.approxKl !== null && d.explainedVariance !== null)).toBe(true);
  }, 600_000);
}, { postgresql: "full-run" });
