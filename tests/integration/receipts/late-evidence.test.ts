// Late evidence is stale evidence: an attempt, span or status change on a rollout stage 2 admitted, after stage 2
// was sealed, makes checks 2 and 3 stale naming the rollout — and a gate re-run seals a new stage 2 from the store
// as it now is, so the late retry counts as the retry debt it is.
import { afterAll, beforeAll, expect, it } from "vitest";
import { deskGateCases } from "@/server/desk/gate-datasets";
import { findDistribution } from "@/server/environments/support-desk";
import { gateReport } from "@/server/receipts/report";
import type { Json } from "@/server/store/types";
import { describeEachDialect } from "../../helpers/db";
import { deskCandidate, deskGateWorld, driveDeskGate, type DeskGateWorld } from "../../helpers/desk-gate";
import { startRunners } from "../../helpers/training-runs";

describeEachDialect("late evidence", (dialect) => {
  let world: DeskGateWorld;
  beforeAll(async () => {
    world = await deskGateWorld(dialect, "late");
  }, 60_000);
  afterAll(() => world?.close());

  it("a retry after stage 2 was sealed makes checks 2 and 3 stale, naming the rollout; a re-run counts it", async () => {
    const { candidateId, candidate } = await deskCandidate(world, { name: "late" });
    // Training-side rollouts that ran the candidate: what its stage 2 admits.
    const inputs = deskGateCases(findDistribution("v2"), "held_out", 3).map((c, i) => ({ ...(c.input as object), task_seed: `train-seed/late/${i}` }));
    const enqueued = await world.store.enqueueRollouts(inputs.map((input) => ({ input: input as Json, mode: "train", resources_id: candidate.resourceId })));
    const runners = startRunners(world.url, world.keys.get("runner")!, 1);
    for (let i = 0; i < 400 && (await world.database.db.storeRollout.count({ where: { rolloutId: { in: enqueued.map((r) => r.rollout_id) }, status: "succeeded" } })) < 3; i++) await new Promise((r) => setTimeout(r, 50));
    await runners.stop();

    expect((await driveDeskGate(world, candidateId, 60)).status).toBe("done");
    const first = await gateReport(world.database, candidateId);
    expect(first.receipt!.stage2!.rollouts.map((r) => r.rolloutId).sort()).toEqual(enqueued.map((r) => r.rollout_id).sort());
    const debt = () => first.report!.checks.find((c) => c.id === 3)!;
    expect(debt().status).toBe("pass");
    expect(first.lateEvidence).toEqual([]);

    // Someone retries an admitted rollout afterwards: a new attempt, which then fails.
    const late = enqueued[1]!.rollout_id;
    const attempt = await world.store.startAttempt(late, "late-worker");
    await world.store.updateAttempt(late, attempt.attempt.attempt_id, { status: "failed" });
    const after = await gateReport(world.database, candidateId);
    expect(after.lateEvidence).toEqual([{ rolloutId: late, change: expect.stringMatching(/attempts 1 → 2/) }]);
    const stale = Object.fromEntries(after.report!.checks.map((c) => [c.id, c.status]));
    expect([stale[2], stale[3]]).toEqual(["stale", "stale"]);
    expect(after.report!.checks.find((c) => c.id === 3)!.stale!.reasons[0]!.sentence).toContain(late);
    expect(after.report!.verdict).not.toBe("PROMOTE TO BOUNDED CANARY");

    // The re-run seals stage 2 again from the store: the late attempt is there, and retry debt counts it.
    expect((await driveDeskGate(world, candidateId, 60)).status).toBe("done");
    const rerun = await gateReport(world.database, candidateId);
    expect(rerun.chain.filter((l) => l.kind === "stage2")).toHaveLength(2);
    expect(rerun.receipt!.stage2!.rollouts.find((r) => r.rolloutId === late)!.attempts).toHaveLength(2);
    expect(rerun.lateEvidence).toEqual([]);
    const check3 = rerun.report!.checks.find((c) => c.id === 3)!;
    expect(check3.status).toBe("fail");
    expect(check3.explanation).toMatch(/1/);
  }, 240_000);
}, { postgresql: "full-run" });
