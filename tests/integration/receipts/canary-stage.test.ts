// The whole promotion through the runners: a desk candidate passes the gate; a canary approver signs the canary
// step, which moves the canary pointer and queues the canary stage; desk runners serve the candidate inside the
// boundary (`lightgate.phase: "canary_stage"`), a verifier re-reads the tickets, and the stage closes and is
// sealed; checks 6–7 are re-judged on it; the canary approver cannot also sign the default step, a release
// approver (another person) can — and `GET /v1/pointers/<agent>/approved-default` names the candidate.
// The abort path: a runner that calls a tool outside the boundary during the stage makes the server move the
// canary pointer back to the exact parent by itself, recorded and signed, and the sealed stage says why.
// A stage served by an identity that is not a runner (an algorithm key, as a store without the serving guard
// let it) counts for nothing: every outcome and probe is not counted, and the live panel says why.
import { afterAll, beforeAll, expect, it } from "vitest";
import { beginApproval, finishApproval } from "@/server/approvals/approve";
import { receiptSource } from "@/server/approvals/db-source";
import { readPointer } from "@/server/candidates/pointers";
import { canaryStageLive } from "@/server/receipts/gate-run/canary-live";
import { CANARY_GUARD } from "@/server/receipts/gate-run/canary-stage";
import { servePointerPath } from "@/server/receipts/http";
import { gateReport } from "@/server/receipts/report";
import { AglClient } from "../../helpers/agl-client";
import { serveRogueOnce } from "../../helpers/rogue-stage";
import { personWithPasskey } from "../../helpers/approvals";
import { describeEachDialect } from "../../helpers/db";
import { DESK_AGENT, deskCandidate, deskGateWorld, driveDeskGate, driveGateRun, trainingEvidence, type DeskGateWorld } from "../../helpers/desk-gate";
import { strongCandidatePolicy } from "../../helpers/gate-rollouts";
import { forgeAsLearner, keyId } from "../../helpers/learner-exam";

type Person = Awaited<ReturnType<typeof personWithPasskey>>;

async function approve(world: DeskGateWorld, who: Person, candidateId: string, step: "canary" | "default") {
  const opts = { source: receiptSource };
  const begun = await beginApproval(world.database, who.actor, { agent: DESK_AGENT, candidateId, step, comment: `${step} ok` }, opts);
  return finishApproval(world.database, who.actor, { payload: begun.payload, response: who.key.assert(begun.options!) }, opts);
}

async function stageRunOf(world: DeskGateWorld, candidateId: string) {
  return world.database.db.gateRun.findFirstOrThrow({ where: { candidateId, kind: "canary-stage" } });
}

/** A candidate that passes the gate: a strong policy, its training episodes served by runners, the gate run. */
async function passingCandidate(world: DeskGateWorld, name: string) {
  const registered = await deskCandidate(world, { name, candidate: await strongCandidatePolicy() });
  await trainingEvidence(world, registered.candidate.resourceId);
  await driveDeskGate(world, registered.candidateId, 60);
  return registered;
}

/**
 * A runner gone wrong in the canary stage: it answers the rollback probes on the parent, and serves each
 * canary-stage rollout by calling a tool no boundary allows.
 */
function rogueStageRunner(world: DeskGateWorld, signal: AbortSignal): Promise<void> {
  const client = new AglClient(world.url, { authorization: `Bearer ${world.keys.get("runner")!}` });
  return (async () => {
    while (!signal.aborted) if (!(await serveRogueOnce(client))) await new Promise((r) => setTimeout(r, 20));
  })();
}

describeEachDialect("the canary stage through runners", (dialect) => {
  let world: DeskGateWorld;
  let carl: Person;
  let rosa: Person;
  beforeAll(async () => {
    world = await deskGateWorld(dialect, "cstage", { heldOut: 60, canary: 6 });
    // Carl may approve either step; the four-eyes rule, not his roles, keeps him off the default step.
    carl = await personWithPasskey(world.database, [{ role: "canary_approver", agent: null }, { role: "release_approver", agent: null }], "Carl Canary");
    rosa = await personWithPasskey(world.database, [{ role: "release_approver", agent: null }], "Rosa Release");
  }, 60_000);
  afterAll(() => world?.close());

  it("canary step → stage served by runners, verified, closed and sealed → another person signs the default step → approved-default names the candidate", async () => {
    const { candidateId, candidate, parent } = await passingCandidate(world, "promo");
    const admitted = (await gateReport(world.database, candidateId)).report!;
    expect(admitted.verdict, JSON.stringify(admitted.checks.map((c) => [c.id, c.status, c.explanation.slice(0, 160)]))).toBe("READY FOR APPROVAL");

    await approve(world, carl, candidateId, "canary");
    expect((await readPointer(world.database.db, DESK_AGENT, "canary"))?.digest).toBe(candidate.digest);
    const queued = await stageRunOf(world, candidateId);
    expect(queued.status).toBe("queued");

    const run = await driveGateRun(world, queued.id);
    expect(run).toMatchObject({ status: "done", phase: "done" });
    const tasks = await world.database.db.gateRunTask.findMany({ where: { gateRunId: run.id } });
    expect(new Set(tasks.map((t) => t.phase))).toEqual(new Set(["canary_stage", "rollback"]));
    const { receipt, report } = await gateReport(world.database, candidateId);
    const stage = receipt!.canaryStage!;
    expect(stage.canary.stop).toBeUndefined();
    expect(stage.canary.outcomes.length).toBe(tasks.filter((t) => t.phase === "canary_stage").length);
    expect(stage.canary.outcomes.every((o) => o.verification.method === "destination")).toBe(true);
    expect(stage.rollbackTest).toMatchObject({ loaded: true, routedBack: true, parent });
    // The seal names what produced it: this run, with the versions its context resolved at its start.
    expect(stage.producedBy).toMatchObject({ gateRun: run.id, parent, evaluator: receipt!.stage3!.lockedGate!.evaluator });
    expect(stage.versions).toEqual(receipt!.stage3!.versions);
    expect(report!.step).toBe("default");
    expect(report!.canaryStageChecks!.find((c) => c.id === 6)!.status).toBe("pass");
    expect(report!.verdict).toBe("READY FOR APPROVAL");
    const live = (await canaryStageLive(world.database, candidateId))!;
    expect(live).toMatchObject({ status: "done", stop: null, canaryPointer: { isCandidate: true } });
    expect(live.tasks.verified).toBe(live.tasks.finished);

    // Four eyes: the canary approver holds release_approver too, and is still refused the default step.
    const refused = await approve(world, carl, candidateId, "default").catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/approved the canary step/);
    expect(await readPointer(world.database.db, DESK_AGENT, "approved_default")).toMatchObject({ digest: parent.digest });

    const done = await approve(world, rosa, candidateId, "default");
    expect(done.verdict).toBe("PROMOTE TO DEFAULT");
    // Its own promotion moved the approved default off its parent: that must not make its evidence stale.
    const promoted = (await gateReport(world.database, candidateId)).report!;
    expect(promoted.freshness.stale).toEqual([]);
    expect(promoted.verdict).toBe("PROMOTE TO DEFAULT");
    // What a production consumer reads, through the route's own handler with a consumer's API key.
    const served = await servePointerPath(world.database, new Request(`${world.url}/v1/pointers/${DESK_AGENT}/approved-default`, { headers: { authorization: `Bearer ${world.keys.get("runner")!}` } }));
    expect(served.status).toBe(200);
    expect(JSON.stringify(await served.json())).toContain(candidate.digest);
  }, 300_000);

  it("a runner calling a tool outside the boundary aborts the stage: the canary pointer is back on the exact parent, signed by the server, and the sealed stage says why", async () => {
    const { candidateId, candidate, parent } = await passingCandidate(world, "rogue");
    const admitted = (await gateReport(world.database, candidateId)).report!;
    expect(admitted.verdict, JSON.stringify(admitted.checks.map((c) => [c.id, c.status, c.explanation.slice(0, 160)]))).toBe("READY FOR APPROVAL");
    await approve(world, carl, candidateId, "canary");
    expect((await readPointer(world.database.db, DESK_AGENT, "canary"))?.digest).toBe(candidate.digest);

    const queued = await stageRunOf(world, candidateId);
    const run = await driveGateRun(world, queued.id, { runners: 0, extra: (signal) => [rogueStageRunner(world, signal)], timeoutMs: 120_000 });
    expect(run.status).toBe("done");
    const pointer = await readPointer(world.database.db, DESK_AGENT, "canary");
    expect(pointer).toMatchObject({ digest: parent.digest, movedById: CANARY_GUARD.id });
    const decision = await world.database.db.approvalDecision.findFirstOrThrow({ where: { candidateId, action: "rollback", actorId: CANARY_GUARD.id } });
    expect(decision).toMatchObject({ pointerKind: "canary", fromDigest: candidate.digest, toDigest: parent.digest });
    expect(decision.envelope).toContain("payloadType");
    expect(await world.database.db.auditEvent.count({ where: { action: "canary.stage.abort", targetId: candidateId } })).toBe(1);

    const { receipt, report } = await gateReport(world.database, candidateId);
    expect(receipt!.canaryStage!.canary.stop).toMatchObject({ kind: "breach", reason: expect.stringMatching(/wipe_customer/) });
    const check6 = report!.canaryStageChecks!.find((c) => c.id === 6)!;
    expect(check6.status).toBe("fail");
    expect(check6.explanation).toMatch(/wipe_customer/);
    expect(report!.verdict).toBe("QUARANTINED");
    const live = (await canaryStageLive(world.database, candidateId))!;
    expect(live.abort).toMatchObject({ moved: true });
    expect(live.canaryPointer).toMatchObject({ isCandidate: false });
  }, 300_000);

  it("a stage served by an algorithm key counts for nothing: each outcome and probe not counted, the panel says why", async () => {
    const { candidateId } = await passingCandidate(world, "learner");
    await approve(world, carl, candidateId, "canary");
    const queued = await stageRunOf(world, candidateId);
    const algorithm = keyId(world.keys.get("algorithm")!);
    const run = await driveGateRun(world, queued.id, { runners: 0, extra: (signal) => [forgeAsLearner(world, queued.id, algorithm, signal)], timeoutMs: 120_000 });
    expect(run.status).toBe("done");
    const why = `not counted: served by ${algorithm}, which is not a runner (its role is algorithm)`;
    const { receipt, report } = await gateReport(world.database, candidateId);
    const stage = receipt!.canaryStage!;
    expect(stage.canary.outcomes.length).toBeGreaterThan(0);
    for (const o of stage.canary.outcomes) expect(o.verification).toEqual({ method: "unverified", reason: why });
    expect(stage.rollbackTest).toMatchObject({ loaded: true, routedBack: false });
    expect(stage.rollbackTest!.detail).toContain(why);
    expect(report!.canaryStageChecks!.find((c) => c.id === 6)!.status).not.toBe("pass");
    expect(report!.verdict).not.toBe("READY FOR APPROVAL");
    const live = (await canaryStageLive(world.database, candidateId))!;
    expect(live.tasks.notCounted).toBe(live.tasks.finished);
    expect(live.notCountedReason).toBe(why.replace("not counted: ", ""));
  }, 300_000);
}, { postgresql: "full-run" });
