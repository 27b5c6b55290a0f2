// End to end, as in `npm start` demo mode: registries seeded, a continual PPO run collecting through
// runners, its candidate published and gated by runPendingGates. The candidate's pins must resolve (check 1)
// and checks 2–6 must be computed from its evidence — never `unavailable` because the sides disagree.
import { afterAll, beforeAll, expect, it } from "vitest";
import { runPendingGates } from "@/server/receipts/gate-queue";
import { seedReferenceDemo } from "@/server/receipts/reference-demo";
import { gateReport } from "@/server/receipts/report";
import { startRun } from "@/server/training/runs";
import { TrainerWorker } from "@/server/training/worker";
import { describeEachDialect } from "../../helpers/db";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";
import { ppoRun, STARTER, startRunners } from "../../helpers/training-runs";

describeEachDialect("a training run's candidate through the admission gate", (dialect) => {
  let s: StoreServer;
  beforeAll(async () => {
    s = await startStoreServer(dialect, "gatev");
    // The demo world: registries (evaluator, task distribution, policy, canary boundary) and the approved default.
    await seedReferenceDemo(s.database, { only: [] });
  }, 60_000);
  afterAll(() => s?.close());

  it("pins resolve and checks 2–6 are judged on the candidate's own evidence", async () => {
    const run = await startRun(
      s.database,
      s.store,
      ppoRun({ continual: true, candidateEvery: 2, updates: 2, retryBudget: 1000, config: { episodesPerUpdate: 12, toolFailureRate: 0, maxAttempts: 3 } }),
      STARTER,
    );
    const runners = startRunners(s.url, s.keys.runner, 2);
    await new TrainerWorker(s.database, s.store, { workerId: "w-gate", pollMs: 20 }).runOne();
    await runners.stop();

    const candidate = await s.database.db.candidate.findFirstOrThrow({ where: { trainingRunId: run.id } });
    const done = await s.database.db.trainingRun.findUniqueOrThrow({ where: { id: run.id } });
    // One spelling of a digest on both sides: the run's parent is the candidate's parent, as the store pins it.
    expect(done.parentDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(candidate.parentDigest).toBe(done.parentDigest);
    expect(candidate.digest).toMatch(/^sha256:[0-9a-f]{64}$/);

    const gated = await runPendingGates(s.database);
    expect(gated.map((g) => [g.candidateId, g.status, g.status === "failed" ? g.detail : "ok"])).toEqual([[candidate.id, "done", "ok"]]);

    const { report, receipt } = await gateReport(s.database, candidate.id);
    const resolution = receipt!.stage3!.resolution;
    for (const pin of ["candidate", "parent", "trainingData", "heldOutData", "evaluator"] as const) expect([pin, resolution[pin]?.status]).toEqual([pin, "resolved"]);
    const checks = Object.fromEntries(report!.checks.map((c) => [c.id, c]));
    expect([checks[1]!.status, checks[1]!.explanation]).toEqual(["pass", expect.stringMatching(/all resolve to their pinned digests/)]);
    for (const id of [2, 3, 4, 5, 6]) {
      expect([id, checks[id]!.status]).toEqual([id, expect.stringMatching(/^(pass|fail)$/)]);
      expect(checks[id]!.explanation).not.toMatch(/not in the store|not in the registry|unresolvable|no support-desk task distribution/);
    }
    // The canary's side effects are named in the tool contracts' vocabulary its boundary is declared in.
    const declared = new Set(["ticket.category", "ticket.priority", "ticket.resolution", "ticket.status", "ticket.assignee", "ticket.queue", "account.deleted"]);
    const seen = receipt!.stage3!.canary!.outcomes.flatMap((o) => o.sideEffects.map((e) => e.kind));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((k) => !declared.has(k))).toEqual([]);
  }, 180_000);
});
