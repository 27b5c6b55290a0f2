// Evidence names what produced it. A policy owner publishes evaluator v2 (tRPC `registries.publish`): the evidence
// judged with v1 goes stale. A re-run (tRPC `candidates.requestGateRun`) judges with the versions in force at the
// re-run: its rollouts carry v2 (`lightgate.evaluator`, `lightgate.evaluator_spec`), runners score with v2's
// weights, the stored check results (read back over HTTP, `GET /v1/gate/gate-runs/{id}`) and the new stage-3 link
// name v2, check 4's sentence names it, and stage 1 keeps its declaration. Publishing v3 without a re-run makes
// that evidence stale again, naming v2 against v3 — never relabelled.
import { afterAll, beforeAll, expect, it } from "vitest";
import { DESK_EVALUATOR, DESK_EVALUATOR_BODY } from "@/server/desk/registry";
import { digestOf } from "@/server/digest";
import { rewardValueOf } from "@/server/gate/evidence/spans";
import { ZStage3 } from "@/server/gate/receipt/stage3";
import { evaluatorLine, judgedBySentence } from "@/lib/candidates/judged-by";
import { stepGateRun } from "@/server/receipts/gate-run/step";
import { callerAs } from "../../helpers/caller";
import { describeEachDialect } from "../../helpers/db";
import { DESK_AGENT, deskCandidate, deskGateWorld, driveDeskGate, driveGateRun, trainingEvidence, type DeskGateWorld } from "../../helpers/desk-gate";
import { strongCandidatePolicy } from "../../helpers/gate-rollouts";

const V2_BODY = { ...DESK_EVALUATOR_BODY, weights: { task_completion: 1, user_satisfaction: 0, efficiency: 0, accuracy: 0 } };
const V3_BODY = { ...DESK_EVALUATOR_BODY, weights: { task_completion: 0, user_satisfaction: 0, efficiency: 1, accuracy: 0 } };

describeEachDialect("a re-run judges with the evaluator in force", (dialect) => {
  let world: DeskGateWorld;
  beforeAll(async () => {
    world = await deskGateWorld(dialect, "rerun-eval", { heldOut: 60, canary: 6 });
  }, 60_000);
  afterAll(() => world?.close());

  it("publish v2 → stale; re-run → rollouts, scores, stored results and check 4 name v2; publish v3 → stale naming v2 vs v3", async () => {
    const { candidateId, candidate } = await deskCandidate(world, { name: "ev", candidate: await strongCandidatePolicy() });
    await trainingEvidence(world, candidate.resourceId);
    const policyOwner = callerAs(world.database, "policy_owner");
    const reader = callerAs(world.database, "viewer");
    const first = await driveDeskGate(world, candidateId, 60);
    expect(first.status).toBe("done");
    const before = await reader.candidates.get({ id: candidateId });
    expect(before.report!.freshness.fresh).toBe(true);
    expect(before.report!.checks.filter((c) => c.status !== "pass").map((c) => `${c.id}: ${c.explanation}`)).toEqual([expect.stringMatching(/^7: /)]);
    expect(before.summary.status).toBe("READY FOR APPROVAL");
    expect(judgedBySentence(before.judgedBy)).toBe(`judged by gate run 1 with evaluator ${DESK_EVALUATOR.id} v1`);
    const v1Key = `${DESK_EVALUATOR.id}@1#`;
    expect(before.stage3!.versions.evaluator.startsWith(v1Key)).toBe(true);

    // The policy owner publishes v2: the evidence judged with v1 is stale, naming v1 against v2.
    const v2 = await policyOwner.registries.publish({ kind: "evaluator", name: DESK_EVALUATOR.id, agent: DESK_AGENT, version: "2", body: V2_BODY });
    const stale = await reader.candidates.get({ id: candidateId });
    expect(stale.summary.status).toBe("STALE");
    const check4Stale = stale.report!.checks.find((c) => c.id === 4)!;
    expect(check4Stale.status).toBe("stale");
    expect(check4Stale.stale!.reasons[0]).toMatchObject({ input: "evaluator", recorded: expect.stringContaining("@1#"), current: `${DESK_EVALUATOR.id}@2#${v2.digest}` });

    // The re-run, as the page's button asks for it.
    const queued = await policyOwner.candidates.requestGateRun({ candidateId });
    const rerun = await driveGateRun(world, queued.id);
    expect(rerun.status).toBe("done");

    // Its rollouts carried v2 to the runners, and each case's score is what v2 scored.
    const tasks = await world.database.db.gateRunTask.findMany({ where: { gateRunId: rerun.id, phase: "locked_gate" } });
    expect(tasks.length).toBe(120);
    for (const t of tasks.slice(0, 6)) {
      const rollout = (await world.store.getRollout(t.rolloutId))!;
      expect(rollout.metadata).toMatchObject({ "lightgate.evaluator": `${DESK_EVALUATOR.id}@2`, "lightgate.evaluator_spec": V2_BODY });
    }
    const after = await reader.candidates.get({ id: candidateId });
    const s3 = ZStage3.parse(after.stage3);
    const gate = s3.lockedGate!;
    expect(gate.evaluator).toEqual({ id: DESK_EVALUATOR.id, version: "2", digest: v2.digest });
    expect(s3.versions.evaluator).toBe(`${DESK_EVALUATOR.id}@2#${v2.digest}`);
    expect(s3.producedBy).toMatchObject({ gateRun: rerun.id, evaluator: { version: "2", digest: v2.digest }, evaluatorBodyDigest: digestOf(V2_BODY) });
    for (const c of gate.candidate.cases.slice(0, 4)) {
      const spans = (await world.store.querySpans({ rollout_id: c.rolloutId!, attempt_id: "latest", limit: -1 })).items;
      const reward = spans.filter((s) => rewardValueOf(s) !== null).at(-1)!;
      expect(reward.attributes["lightgate.evaluator"]).toBe(`${DESK_EVALUATOR.id}@2`);
      expect(rewardValueOf(reward)).toBe(c.score);
    }
    // v2 weighs only task completion: the numbers are not v1's.
    const firstStage3 = ZStage3.parse(before.stage3);
    const scores = (s: typeof s3) => s.lockedGate!.candidate.cases.map((c) => `${c.caseId}:${c.score}`).sort();
    expect(scores(s3)).not.toEqual(scores(firstStage3));
    // Appended as a new link; stage 1 keeps its declaration.
    expect(after.links.filter((l) => l.kind === "stage3")).toHaveLength(2);
    expect(after.stage1!.evaluator).toEqual(before.stage1!.evaluator);
    expect(after.stage1!.evaluator.version).toBe("1");

    // Judged with v2, and fresh; check 4's sentence names v2; the page says which run judged with what.
    expect(after.report!.freshness.fresh).toBe(true);
    const check4 = after.report!.checks.find((c) => c.id === 4)!;
    expect(check4.explanation).toContain(`${DESK_EVALUATOR.id}@2`);
    expect(check4.explanation).not.toContain(`${DESK_EVALUATOR.id}@1`);
    expect(after.judgedBy).toMatchObject({ runId: rerun.id, ordinal: 2, evaluator: { id: DESK_EVALUATOR.id, version: "2" } });
    // What the page prints from it: the freshness line and the evaluator line.
    expect(judgedBySentence(after.judgedBy)).toBe(`judged by gate run 2 with evaluator ${DESK_EVALUATOR.id} v2`);
    // The locked gate's scoring card names the evaluator that scored, not stage 1's declaration.
    expect(after.lockedGateServing?.evaluator).toBe(`${DESK_EVALUATOR.id}@2`);
    expect(before.lockedGateServing?.evaluator).toBe(`${DESK_EVALUATOR.id}@1`);
    expect(evaluatorLine(after.judgedBy!.evaluator, after.stage1!.evaluator, after.versions.evaluator)).toBe(`${DESK_EVALUATOR.id} v2; stage 1 declared ${DESK_EVALUATOR.id} v1`);

    // The stored check results, read over HTTP, name the evaluator that produced them.
    const view = await world.call("runner", "GET", `/v1/gate/gate-runs/${rerun.id}`);
    expect(view.status).toBe(200);
    expect(view.body.checks.find((c: { id: number }) => c.id === 4).explanation).toContain(`${DESK_EVALUATOR.id}@2`);
    expect(view.body.judged_with).toMatchObject({ evaluator: `${DESK_EVALUATOR.id}@2`, evaluator_digest: v2.digest, evaluator_body_digest: digestOf(V2_BODY), versions: { evaluator: `${DESK_EVALUATOR.id}@2#${v2.digest}` } });
    const stored = await world.database.db.gateCheckResult.findMany({ where: { candidateId, headDigest: rerun.linkDigest!, check: { in: [1, 4, 5] } } });
    expect(stored).toHaveLength(3);
    for (const r of stored) expect(JSON.parse(r.versions).evaluator).toBe(`${DESK_EVALUATOR.id}@2#${v2.digest}`);

    // v3 published, no re-run: the evidence judged with v2 is stale, naming v2 against v3.
    const v3 = await policyOwner.registries.publish({ kind: "evaluator", name: DESK_EVALUATOR.id, agent: DESK_AGENT, version: "3", body: V3_BODY });
    const again = await reader.candidates.get({ id: candidateId });
    expect(again.summary.status).toBe("STALE");
    const reason = again.report!.checks.find((c) => c.id === 4)!.stale!.reasons.find((r) => r.input === "evaluator")!;
    expect(reason).toMatchObject({ recorded: `${DESK_EVALUATOR.id}@2#${v2.digest}`, current: `${DESK_EVALUATOR.id}@3#${v3.digest}` });
    expect(again.judgedBy).toMatchObject({ ordinal: 2, evaluator: { version: "2" } });
    expect(evaluatorLine(again.judgedBy!.evaluator, again.stage1!.evaluator, again.versions.evaluator)).toBe(`${DESK_EVALUATOR.id} v2 (superseded); stage 1 declared ${DESK_EVALUATOR.id} v1`);
  }, 300_000);

  it("publications while a run is in flight do not relabel it: it judges with the evaluator and tool contracts in force at its start, and that evidence is stale against the newer ones", async () => {
    const { candidateId, candidate } = await deskCandidate(world, { name: "mid", candidate: await strongCandidatePolicy() });
    await trainingEvidence(world, candidate.resourceId);
    const policyOwner = callerAs(world.database, "policy_owner");
    const atStart = (await world.database.db.registryEntry.findFirst({ where: { kind: "evaluator", name: DESK_EVALUATOR.id, agent: DESK_AGENT }, orderBy: { seq: "desc" } }))!;
    const queued = await policyOwner.candidates.requestGateRun({ candidateId });
    // The run starts (its rollouts are asked for) before the policy owner publishes the next version.
    const started = await stepGateRun(world.database, queued.id, "test-orchestrator", 60);
    expect(started).toMatchObject({ phase: "collecting" });
    const next = await policyOwner.registries.publish({ kind: "evaluator", name: DESK_EVALUATOR.id, agent: DESK_AGENT, body: { ...V3_BODY, pass_threshold: 0.25 } });
    // …and a tool contract: the canary the run judges keeps the contracts it started with.
    const contract = (await world.database.db.registryEntry.findFirst({ where: { kind: "tool_contract", name: "search_kb", agent: DESK_AGENT }, orderBy: { seq: "desc" } }))!;
    const newContract = await policyOwner.registries.publish({ kind: "tool_contract", name: "search_kb", agent: DESK_AGENT, body: { ...(JSON.parse(contract.body) as object), note: `revised during ${queued.id}` } });
    const run = await driveGateRun(world, queued.id);
    expect(run.status).toBe("done");

    const startKey = `${DESK_EVALUATOR.id}@${atStart.version}#${atStart.digest}`;
    const after = await callerAs(world.database, "viewer").candidates.get({ id: candidateId });
    expect(after.stage3!.lockedGate!.evaluator).toEqual({ id: DESK_EVALUATOR.id, version: atStart.version, digest: atStart.digest });
    expect(after.stage3!.versions.evaluator).toBe(startKey);
    const task = await world.database.db.gateRunTask.findFirstOrThrow({ where: { gateRunId: run.id, phase: "locked_gate" } });
    expect((await world.store.getRollout(task.rolloutId))!.metadata).toMatchObject({ "lightgate.evaluator": `${DESK_EVALUATOR.id}@${atStart.version}` });
    // Never relabelled with the newer version: stale, naming the one that judged against the one in force.
    expect(after.summary.status).toBe("STALE");
    const reason = after.report!.checks.find((c) => c.id === 4)!.stale!.reasons.find((r) => r.input === "evaluator")!;
    expect(reason).toMatchObject({ recorded: startKey, current: `${DESK_EVALUATOR.id}@${next.version}#${next.digest}` });
    const stored = await world.database.db.gateCheckResult.findFirstOrThrow({ where: { candidateId, headDigest: run.linkDigest!, check: 4 } });
    expect(JSON.parse(stored.versions).evaluator).toBe(startKey);
    expect(after.stage3!.versions.toolContracts.search_kb).toBe(contract.digest);
    const check6 = after.report!.checks.find((c) => c.id === 6)!;
    expect(check6.stale!.reasons.find((r) => r.input === "toolContracts")).toMatchObject({ sentence: "tool contract search_kb changed", current: expect.stringContaining(newContract.digest) });
  }, 300_000);
}, { postgresql: "full-run" });
