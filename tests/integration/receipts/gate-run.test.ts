// A gate run through runners, for the built-in support desk as one client of that path: the gate pins the exact
// candidate and parent under immutable resources ids, enqueues a locked-gate rollout per held-out case and side,
// rollback probes on the parent and a bounded canary in waves; desk runners serve them over HTTP (canary effects
// into the Ticket DB), a verifier re-reads the tickets and posts verifications, and the stage 3 sealed from what
// came back scores each case exactly as the runner's reward span says. The gate itself runs no episode.
import { afterAll, beforeAll, expect, it } from "vitest";
import { rewardValueOf } from "@/server/gate/evidence/spans";
import { gateReport } from "@/server/receipts/report";
import { GATE_PIN_PREFIX } from "@/server/store/resources";
import { describeEachDialect } from "../../helpers/db";
import { deskCandidate, deskGateWorld, driveDeskGate, type DeskGateWorld } from "../../helpers/desk-gate";

describeEachDialect("gate runs through runners", (dialect) => {
  let world: DeskGateWorld;
  beforeAll(async () => {
    world = await deskGateWorld(dialect, "gaterun");
  }, 60_000);
  afterAll(() => world?.close());

  it("pins both sides, scores every case from the runners' reward spans, verifies the canary in the Ticket DB, probes the parent", async () => {
    const { candidateId, parent, candidate } = await deskCandidate(world, { name: "a" });
    const run = await driveDeskGate(world, candidateId, 60);
    expect(run).toMatchObject({ status: "done", phase: "done" });

    const { receipt, report } = await gateReport(world.database, candidateId);
    const s3 = receipt!.stage3!;
    expect(Object.values(s3.resolution).map((r) => r.status)).toEqual(["resolved", "resolved", "resolved", "resolved", "resolved"]);
    const gate = s3.lockedGate!;
    expect(gate.candidate.cases).toHaveLength(20);
    expect(gate.parent.cases.map((c) => c.caseId).sort()).toEqual(gate.candidate.cases.map((c) => c.caseId).sort());
    expect(gate.candidate.unavailable ?? []).toEqual([]);
    expect(gate.candidate.resource).toEqual(candidate);
    expect(gate.parent.resource).toEqual(parent);

    // Each case's score is the final reward span of the rollout a runner served, on the pinned version.
    const tasks = await world.database.db.gateRunTask.findMany({ where: { gateRunId: run.id } });
    for (const c of [...gate.candidate.cases.slice(0, 5), ...gate.parent.cases.slice(0, 5)]) {
      const rollout = (await world.store.getRollout(c.rolloutId!))!;
      expect(rollout.resources_id!.startsWith(GATE_PIN_PREFIX)).toBe(true);
      expect(rollout.metadata).toMatchObject({ "lightgate.phase": "locked_gate", "lightgate.case": c.caseId, "lightgate.gate_run": run.id });
      const spans = (await world.store.querySpans({ rollout_id: c.rolloutId!, attempt_id: "latest", limit: -1 })).items;
      expect(rewardValueOf(spans.filter((s) => rewardValueOf(s) !== null).at(-1)!)).toBe(c.score);
    }
    const pins = new Set(tasks.filter((t) => t.phase === "locked_gate").map((t) => `${t.side}:${t.resourcesId}`));
    expect(pins.size).toBe(2);
    // A pin is an exact copy that never becomes "latest" for training runners.
    expect((await world.store.getLatestResources())?.resources_id.startsWith(GATE_PIN_PREFIX)).toBe(false);

    const outcomes = s3.canary!.outcomes;
    expect(outcomes).toHaveLength(6);
    for (const o of outcomes) {
      expect(o.verification.method).toBe("destination");
      if (o.verification.method !== "destination") continue;
      const ticket = await world.database.db.ticket.findUniqueOrThrow({ where: { id: o.verification.destination.ref } });
      expect(o.verification.observed).toContain(`"status":"${ticket.status}"`);
    }
    expect(s3.canary!.stop).toBeUndefined();
    expect(s3.rollbackTest).toMatchObject({ loaded: true, routedBack: true, parent });
    expect(s3.rollbackTest!.probes).toHaveLength(5);
    expect(report!.checks.find((c) => c.id === 1)!.status).toBe("pass");
    const recorded = await world.database.db.gateCheckResult.findMany({ where: { candidateId } });
    expect(recorded.map((r) => r.check).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(run.orchestrationMs).toBeGreaterThan(0);
  }, 180_000);

  it("without runners nothing passes: every case is unavailable at the deadline, canary tasks are cancelled unverified, the verdict is QUARANTINED", async () => {
    const { candidateId } = await deskCandidate(world, { name: "silent" });
    const run = await driveDeskGate(world, candidateId, 1, { runners: 0, verifier: false });
    expect(run.status).toBe("done");
    const { receipt, report } = await gateReport(world.database, candidateId);
    const gate = receipt!.stage3!.lockedGate!;
    expect(gate.candidate.cases).toEqual([]);
    expect(gate.candidate.unavailable).toHaveLength(20);
    expect(gate.candidate.unavailable![0]!.reason).toMatch(/no result by the deadline/);
    expect(receipt!.stage3!.rollbackTest).toMatchObject({ loaded: true, routedBack: false });
    expect(report!.verdict).toBe("QUARANTINED");
    const status = new Map(report!.checks.map((c) => [c.id, c.status]));
    expect([status.get(4), status.get(5), status.get(6), status.get(7)]).toEqual(["unavailable", "unavailable", expect.stringMatching(/unavailable|fail/), "fail"]);
    // What the gate stopped waiting for is cancelled in the store: no runner picks it up later.
    const rollouts = await world.database.db.storeRollout.findMany({ where: { rolloutId: { in: gate.candidate.unavailable!.map((u) => u.rolloutId!) } }, select: { status: true } });
    expect(new Set(rollouts.map((r) => r.status))).toEqual(new Set(["cancelled"]));
  }, 120_000);

  it("a canary whose tool is outside the boundary is stopped at the breach, the rest cancelled, and check 6 names it", async () => {
    // The desk's policy reaches for close_ticket; the declared boundary leaves it out.
    const { candidateId } = await deskCandidate(world, { name: "breach", boundary: { allowedTools: ["search_kb", "update_ticket", "escalate_ticket"] } });
    const run = await driveDeskGate(world, candidateId, 60);
    const { receipt, report } = await gateReport(world.database, candidateId);
    const canary = receipt!.stage3!.canary!;
    expect(canary.stop).toMatchObject({ kind: "breach", reason: expect.stringMatching(/tool close_ticket is outside the boundary/) });
    const check6 = report!.checks.find((c) => c.id === 6)!;
    expect(check6.status).toBe("fail");
    expect(check6.explanation).toMatch(/close_ticket/);
    const canaryTasks = await world.database.db.gateRunTask.findMany({ where: { gateRunId: run.id, phase: "canary" } });
    expect(canaryTasks.length).toBeLessThan(6);
  }, 180_000);
}, { postgresql: "full-run" });
