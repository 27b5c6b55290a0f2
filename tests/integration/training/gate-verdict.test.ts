// End to end, as in `npm start` demo mode: the desk's registry and exam published by its policy owner, a continual
// PPO run collecting through runners, its candidate published with stage 1 pinning that exam, and its gate run
// served by desk runners and a verifier. The candidate's pins must resolve (check 1) and checks 2–6 must be
// computed from its evidence — never `unavailable` because the sides disagree or a pin names nothing.
import { afterAll, beforeAll, expect, it } from "vitest";
import { gateReport } from "@/server/receipts/report";
import { startRun } from "@/server/training/runs";
import { TrainerWorker } from "@/server/training/worker";
import { describeEachDialect } from "../../helpers/db";
import { DESK_AGENT, deskGateWorld, driveDeskGate, type DeskGateWorld } from "../../helpers/desk-gate";
import { ppoRun, STARTER, startRunners } from "../../helpers/training-runs";

describeEachDialect("a training run's candidate through the admission gate", (dialect) => {
  let world: DeskGateWorld;
  beforeAll(async () => {
    // 40 cases: the smallest locked set that holds a case of every protected family of the desk.
    world = await deskGateWorld(dialect, "gatev", { heldOut: 40, canary: 6 });
  }, 60_000);
  afterAll(() => world?.close());

  it("pins resolve and checks 2–6 are judged on the candidate's own evidence", async () => {
    const run = await startRun(
      world.database,
      world.store,
      ppoRun({ agent: DESK_AGENT, continual: true, candidateEvery: 2, updates: 2, retryBudget: 1000, config: { episodesPerUpdate: 12, toolFailureRate: 0, maxAttempts: 3 } }),
      STARTER,
    );
    const runners = startRunners(world.url, world.keys.get("runner")!, 2);
    await new TrainerWorker(world.database, world.store, { workerId: "w-gate", pollMs: 20 }).runOne();
    await runners.stop();

    const candidate = await world.database.db.candidate.findFirstOrThrow({ where: { trainingRunId: run.id } });
    const done = await world.database.db.trainingRun.findUniqueOrThrow({ where: { id: run.id } });
    // One spelling of a digest on both sides: the run's parent is the candidate's parent, as the store pins it.
    expect(done.parentDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(candidate.parentDigest).toBe(done.parentDigest);
    // The continual run asked for the gate run itself; runners and a verifier serve it.
    expect(await world.database.db.gateRun.count({ where: { candidateId: candidate.id } })).toBe(1);
    const gated = await driveDeskGate(world, candidate.id, 60);
    expect([gated.status, gated.error]).toEqual(["done", null]);

    const { report, receipt } = await gateReport(world.database, candidate.id);
    const resolution = receipt!.stage3!.resolution;
    for (const pin of ["candidate", "parent", "trainingData", "heldOutData", "evaluator"] as const) expect([pin, resolution[pin]?.status]).toEqual([pin, "resolved"]);
    const checks = Object.fromEntries(report!.checks.map((c) => [c.id, c]));
    expect([checks[1]!.status, checks[1]!.explanation]).toEqual(["pass", expect.stringMatching(/all resolve to their pinned digests/)]);
    for (const id of [2, 3, 4, 5, 6]) {
      expect([id, checks[id]!.status], checks[id]!.explanation).toEqual([id, expect.stringMatching(/^(pass|fail)$/)]);
      expect(checks[id]!.explanation).not.toMatch(/not in the store|not in the registry|unresolvable|no result by the deadline/);
    }
    // The canary's side effects are named in the tool contracts' vocabulary its boundary is declared in.
    const declared = new Set(["ticket.category", "ticket.priority", "ticket.resolution", "ticket.status", "ticket.assignee", "ticket.queue", "account.deleted"]);
    const seen = receipt!.stage3!.canary!.outcomes.flatMap((o) => o.sideEffects.map((e) => e.kind));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((k) => !declared.has(k))).toEqual([]);
  }, 240_000);
}, { postgresql: "full-run" });
