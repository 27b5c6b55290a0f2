// A stage is judged only once its evidence is closed, and anything after it is late (issue 24, defect 2):
// - the locked gate and the canary close only after all their rollouts ended and the policy's settle window
//   passed with nothing new for them;
// - a new attempt, or a reward span, on a locked-gate rollout after stage 3 was sealed makes checks 4 and 5
//   stale, naming what came for which rollout and when, after the seal;
// - a runner whose tracer flushes ~0.3 s after it finished its canary-stage attempt (OTLP exporters batch) and
//   whose span calls a tool outside the boundary is seen: the stage aborts, the guard moves the canary pointer
//   back to the exact parent, signed — and one that comes after the stage was sealed aborts it too.
// All through the product's HTTP interfaces (runners, verifier) against a real server and database.
import { afterAll, beforeAll, expect, it } from "vitest";
import { beginApproval, finishApproval } from "@/server/approvals/approve";
import { receiptSource } from "@/server/approvals/db-source";
import { readPointer } from "@/server/candidates/pointers";
import { settleSecondsOf } from "@/server/gate/policy";
import { CANARY_GUARD } from "@/server/receipts/gate-run/canary-stage";
import type { RunState } from "@/server/receipts/gate-run/step";
import { currentPolicy } from "@/server/receipts/registries";
import { runPendingGates } from "@/server/receipts/gate-queue";
import { gateReport } from "@/server/receipts/report";
import { AglClient } from "../../helpers/agl-client";
import { personWithPasskey } from "../../helpers/approvals";
import { describeEachDialect } from "../../helpers/db";
import { DESK_AGENT, deskCandidate, deskGateWorld, driveDeskGate, driveGateRun, trainingEvidence, type DeskGateWorld } from "../../helpers/desk-gate";
import { strongCandidatePolicy } from "../../helpers/gate-rollouts";

type Person = Awaited<ReturnType<typeof personWithPasskey>>;

async function passingCandidate(world: DeskGateWorld, name: string) {
  const registered = await deskCandidate(world, { name, candidate: await strongCandidatePolicy() });
  await trainingEvidence(world, registered.candidate.resourceId);
  const run = await driveDeskGate(world, registered.candidateId, 60);
  return { ...registered, run };
}

/** The canary-step approval, signed with the person's passkey; it moves the canary pointer and queues the stage. */
async function approveCanary(world: DeskGateWorld, who: Person, candidateId: string) {
  const opts = { source: receiptSource };
  const begun = await beginApproval(world.database, who.actor, { agent: DESK_AGENT, candidateId, step: "canary", comment: "canary ok" }, opts);
  return finishApproval(world.database, who.actor, { payload: begun.payload, response: who.key.assert(begun.options!) }, opts);
}

const span = (rid: string, aid: string, seq: number, name: string, attributes: Record<string, unknown>) => {
  const now = Date.now() / 1000;
  return { rollout_id: rid, attempt_id: aid, sequence_id: seq, trace_id: "0".repeat(31) + "2", span_id: `late${seq.toString(16).padStart(12, "0")}`, parent_id: null, name, status: { status_code: "OK", description: null }, attributes, events: [], links: [], start_time: now, end_time: now, context: null, parent: null, resource: { attributes: {}, schema_url: "" } };
};

/**
 * A runner whose tracer flushes late: it takes the span's sequence id, finishes the attempt, and only ~0.3 s
 * later sends the span — a tool call outside the boundary. Rollback probes it just finishes.
 */
function lateFlushingRunner(world: DeskGateWorld, signal: AbortSignal, sent: { at: number; ended: number }[]): Promise<void> {
  const client = new AglClient(world.url, { authorization: `Bearer ${world.keys.get("runner")!}` });
  return (async () => {
    while (!signal.aborted) {
      const [item] = await client.dequeueMany(1, "late-flusher");
      if (!item) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      const rid = item.rollout_id as string;
      const aid = item.attempt.attempt_id as string;
      const stage = item.metadata?.["lightgate.phase"] === "canary_stage";
      const seq = stage ? await client.nextSequenceId(rid, aid) : 0;
      await client.request("POST", `/rollouts/${rid}/attempts/${aid}`, { json: { status: "succeeded" } });
      if (!stage) continue;
      const ended = Date.now();
      await new Promise((r) => setTimeout(r, 300));
      await client.addSpan(span(rid, aid, seq, "execute_tool wipe_customer", { "gen_ai.tool.name": "wipe_customer", "lightgate.target": rid }));
      sent.push({ at: Date.now(), ended });
    }
  })();
}

describeEachDialect("gate stages settle before they seal; late evidence is stale", (dialect) => {
  let world: DeskGateWorld;
  let carl: Person;
  beforeAll(async () => {
    world = await deskGateWorld(dialect, "settle", { heldOut: 60, canary: 6 });
    carl = await personWithPasskey(world.database, [{ role: "canary_approver", agent: null }], "Carl Canary");
  }, 60_000);
  afterAll(() => world?.close());

  it("the locked gate and the canary close only once the settle window passed after their last rollout ended", async () => {
    const { run } = await passingCandidate(world, "settle");
    expect(run.status).toBe("done");
    const settle = settleSecondsOf(await currentPolicy(world.database.db, DESK_AGENT));
    expect(settle).toBeGreaterThan(0.5); // longer than an OTLP exporter's batch delay
    const endOf = async (phases: string[]) => {
      const tasks = await world.database.db.gateRunTask.findMany({ where: { gateRunId: run.id, phase: { in: phases } }, select: { rolloutId: true } });
      const rows = await world.database.db.storeRollout.findMany({ where: { rolloutId: { in: tasks.map((t) => t.rolloutId) } }, select: { endTime: true } });
      return Math.max(...rows.map((r) => (r.endTime ?? 0) * 1000));
    };
    const state = JSON.parse(run.pins!) as RunState;
    // The canary starts once the locked gate and the probes are closed; the seal once the canary is.
    const lockedClosedAfter = (Date.parse(state.canary!.start) - (await endOf(["locked_gate", "rollback"]))) / 1000;
    const canaryClosedAfter = (Date.parse(state.canary!.end) - (await endOf(["canary"]))) / 1000;
    const sealedAfter = (run.finishedAt!.getTime() - (await endOf(["canary"]))) / 1000;
    expect(lockedClosedAfter).toBeGreaterThanOrEqual(settle - 0.05);
    expect(canaryClosedAfter).toBeGreaterThanOrEqual(settle - 0.05);
    expect(sealedAfter).toBeGreaterThanOrEqual(settle - 0.05);
  }, 300_000);

  it("a new attempt and a late reward span on judged locked-gate rollouts make checks 4 and 5 stale, saying what came when", async () => {
    const { candidateId, run } = await passingCandidate(world, "lateattempt");
    const before = (await gateReport(world.database, candidateId)).report!;
    const status = (id: number) => before.checks.find((c) => c.id === id)!.status;
    expect([status(4), status(5)]).toEqual(["pass", "pass"]);
    const locked = await world.database.db.gateRunTask.findMany({ where: { gateRunId: run.id, phase: "locked_gate", side: "candidate" }, orderBy: { rolloutId: "asc" }, take: 2 });
    const client = new AglClient(world.url, { authorization: `Bearer ${world.keys.get("runner")!}` });
    // A canary approver opens the signing while the evidence is fresh; it commits after the late evidence came.
    const opts = { source: receiptSource };
    const begun = await beginApproval(world.database, carl.actor, { agent: DESK_AGENT, candidateId, step: "canary", comment: "go" }, opts);

    // A retry of an already judged case, through the store's HTTP API.
    const retried = locked[0]!.rolloutId;
    const attempt = (await client.startAttempt(retried, "late-worker")) as { attempt: { attempt_id: string } };
    await client.request("POST", `/rollouts/${retried}/attempts/${attempt.attempt.attempt_id}`, { json: { status: "succeeded" } });
    const afterAttempt = (await gateReport(world.database, candidateId)).report!;
    for (const id of [4, 5]) {
      const check = afterAttempt.checks.find((c) => c.id === id)!;
      expect(check.status).toBe("stale");
      expect(check.stale!.was).toBe("pass");
      expect(check.stale!.reasons.map((r) => r.sentence).join(" ")).toMatch(new RegExp(`late evidence: a new attempt for ${retried} .* at \\S+Z, after the seal at ${run.finishedAt!.toISOString()}`));
    }
    expect(afterAttempt.checks.find((c) => c.id === 2)!.status).not.toBe("stale");
    expect(afterAttempt.verdict).not.toBe("READY FOR APPROVAL");

    // A reward span flushed after the seal on another judged case: it is named too.
    const rewarded = locked[1]!.rolloutId;
    const latest = (await client.getLatestAttempt(rewarded)) as { attempt_id: string };
    await client.addSpan(span(rewarded, latest.attempt_id, 9_000, "agentlightning.annotation", { "agentlightning.reward.0.value": 0 }));
    const afterReward = await gateReport(world.database, candidateId);
    expect(afterReward.lateEvidence.map((l) => l.rolloutId).sort()).toEqual([retried, rewarded].sort());
    const reasons = afterReward.report!.checks.find((c) => c.id === 4)!.stale!.reasons.map((r) => r.sentence).join(" ");
    expect(reasons).toMatch(new RegExp(`late evidence: a new span \\(agentlightning.annotation\\) for ${rewarded} .* at \\S+Z, after the seal at `));
    // The canary-step approval re-checks freshness at commit: refused, and the canary pointer did not move.
    const refused = await finishApproval(world.database, carl.actor, { payload: begun.payload, response: carl.key.assert(begun.options!) }, opts).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/stale|late evidence/i);
    expect((await readPointer(world.database.db, DESK_AGENT, "canary"))?.candidateId ?? null).not.toBe(candidateId);
  }, 300_000);

  it("a canary-stage tool span outside the boundary flushed 0.3 s after its attempt finished aborts the stage; the guard moves the canary pointer back", async () => {
    const { candidateId, candidate, parent } = await passingCandidate(world, "lateflush");
    await approveCanary(world, carl, candidateId);
    expect((await readPointer(world.database.db, DESK_AGENT, "canary"))?.digest).toBe(candidate.digest);

    const queued = await world.database.db.gateRun.findFirstOrThrow({ where: { candidateId, kind: "canary-stage" } });
    const sent: { at: number; ended: number }[] = [];
    const run = await driveGateRun(world, queued.id, { runners: 0, extra: (signal) => [lateFlushingRunner(world, signal, sent)], timeoutMs: 120_000 });
    expect(run.status).toBe("done");
    expect(sent.length).toBeGreaterThan(0);
    for (const s of sent) expect(s.at - s.ended).toBeGreaterThanOrEqual(300);

    const pointer = await readPointer(world.database.db, DESK_AGENT, "canary");
    expect(pointer).toMatchObject({ digest: parent.digest, movedById: CANARY_GUARD.id });
    const decision = await world.database.db.approvalDecision.findFirstOrThrow({ where: { candidateId, action: "rollback", actorId: CANARY_GUARD.id } });
    expect(decision).toMatchObject({ pointerKind: "canary", fromDigest: candidate.digest, toDigest: parent.digest });
    expect(decision.envelope).toContain("payloadType");
    const { receipt, report } = await gateReport(world.database, candidateId);
    expect(receipt!.canaryStage!.canary.stop).toMatchObject({ kind: "breach", reason: expect.stringMatching(/wipe_customer/) });
    expect(report!.verdict).not.toBe("READY FOR APPROVAL");
  }, 300_000);

  it("an out-of-boundary span on a sealed canary stage's rollout reads stale (check 6) and aborts at the next orchestrator pass", async () => {
    const { candidateId, candidate, parent } = await passingCandidate(world, "afterseal");
    await approveCanary(world, carl, candidateId);
    const queued = await world.database.db.gateRun.findFirstOrThrow({ where: { candidateId, kind: "canary-stage" } });
    const run = await driveGateRun(world, queued.id);
    expect(run.status).toBe("done");
    expect((await gateReport(world.database, candidateId)).receipt!.canaryStage!.canary.stop).toBeUndefined();
    expect((await readPointer(world.database.db, DESK_AGENT, "canary"))?.digest).toBe(candidate.digest);

    const task = await world.database.db.gateRunTask.findFirstOrThrow({ where: { gateRunId: run.id, phase: "canary_stage", state: "done" } });
    const client = new AglClient(world.url, { authorization: `Bearer ${world.keys.get("runner")!}` });
    const latest = (await client.getLatestAttempt(task.rolloutId)) as { attempt_id: string };
    await client.addSpan(span(task.rolloutId, latest.attempt_id, 9_001, "execute_tool wipe_customer", { "gen_ai.tool.name": "wipe_customer", "lightgate.target": task.rolloutId }));
    const stale = (await gateReport(world.database, candidateId)).report!;
    const check6 = stale.canaryStageChecks!.find((c) => c.id === 6)!;
    expect(check6.status).toBe("stale");
    expect(check6.stale!.reasons.map((r) => r.sentence).join(" ")).toMatch(new RegExp(`late evidence: a new span \\(execute_tool wipe_customer\\) for ${task.rolloutId} .*after the seal at ${run.finishedAt!.toISOString()}`));

    await runPendingGates(world.database, { owner: "after-seal" });
    await runPendingGates(world.database, { owner: "after-seal-2" }); // a second pass aborts nothing more
    expect(await readPointer(world.database.db, DESK_AGENT, "canary")).toMatchObject({ digest: parent.digest, movedById: CANARY_GUARD.id });
    expect(await world.database.db.approvalDecision.count({ where: { candidateId, action: "rollback", actorId: CANARY_GUARD.id } })).toBe(1);
    const audit = await world.database.db.auditEvent.findMany({ where: { action: "canary.stage.abort", targetId: candidateId } });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toMatch(/late evidence after the seal at .*wipe_customer/);
  }, 300_000);
}, { postgresql: "full-run" });
