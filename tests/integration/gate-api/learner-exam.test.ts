// Issue 23, finding 1 — "the learner forges its own exam" — end to end over real HTTP on both databases. The
// candidate's own learner (its algorithm key) asks for the gate run, then tries what the hostile pass did: list
// the store's rollouts a second later (the held-out inputs must not be among them), read one by id, dequeue
// them. And when it has served them anyway (the rows a store without the serving guard left: attempts
// served_by its key, candidate cases all passing, parent cases all failing), those results do not count: the
// cases are unavailable with the reason, check 4 says so, and the verdict is not READY FOR APPROVAL. Honest
// runner-served results still count, and an expected-output evaluator scores what was served, not what the
// runner says about it.
import { afterAll, beforeAll, expect, it } from "vitest";
import { servingSentence } from "@/lib/candidates/serving";
import { getCandidate } from "@/server/receipts/candidates-view";
import { gateReport } from "@/server/receipts/report";
import { describeEachDialect } from "../../helpers/db";
import { awaitRun, declareTrainBind, examWorld, forgeAsLearner, HELD_OUT_CASES, keyId, OUTPUT_EVALUATOR, publishOutputEvaluator, requestRun, runnerLoop, verifierLoop, type ExamWorld } from "../../helpers/learner-exam";

type Check = { id: number; status: string; explanation: string };
const check = (view: { checks: Check[] | null }, id: number) => view.checks!.find((c) => c.id === id)!;

describeEachDialect("the learner never sits its own exam", (dialect) => {
  let world: ExamWorld;
  let learner: string;
  let runner: string;
  beforeAll(async () => {
    world = await examWorld(dialect, "exam");
    learner = keyId(world.keys.get("algorithm")!);
    runner = keyId(world.keys.get("runner")!);
  }, 60_000);
  afterAll(() => world?.close());

  /** The learner's training, served by an honest runner key that then stops. */
  async function trained(name: string, evaluator?: { id: string; version: string }) {
    const stop = new AbortController();
    const loop = runnerLoop(world, world.keys.get("runner")!, "honest", stop.signal);
    try {
      return await declareTrainBind(world, name, evaluator);
    } finally {
      stop.abort();
      await loop;
    }
  }

  it("reads none of the locked gate's inputs, dequeues none of its rollouts, and what it served anyway does not count", async () => {
    const { receiptId, candidateId } = await trained("forged");
    const runId = await requestRun(world, receiptId, 30);
    let tasks: { rolloutId: string; phase: string }[] = [];
    for (const until = Date.now() + 30_000; tasks.length < 2 * HELD_OUT_CASES; await new Promise((r) => setTimeout(r, 50))) {
      tasks = await world.database.db.gateRunTask.findMany({ where: { gateRunId: runId, phase: "locked_gate" }, select: { rolloutId: true, phase: true } });
      if (Date.now() > until) throw new Error("the locked gate was not enqueued in 30 s");
    }
    const ids = new Set(tasks.map((t) => t.rolloutId));
    const heldOut = await world.database.db.gateDatasetCase.findMany({ where: { datasetId: world.exams.heldOut }, select: { input: true } });
    const inputs = new Set(heldOut.map((c) => c.input));
    expect(inputs.size).toBe(HELD_OUT_CASES);

    // What the hostile pass did one second after asking for the run: list, read by id, dequeue.
    const listed = await world.call("algorithm", "GET", "/v1/agl/rollouts?limit=500&sort_by=start_time&sort_order=desc");
    // Soft: the store's guard and the gate's discount are separate layers; each is reported on its own.
    expect.soft(listed.status).toBe(200);
    const items = (listed.body.items ?? []) as { rollout_id: string; input: unknown }[];
    expect.soft(items.length, "the learner still sees its own training rollouts").toBeGreaterThan(0);
    expect.soft(items.filter((i) => ids.has(i.rollout_id)).map((i) => i.rollout_id)).toEqual([]);
    expect.soft(items.filter((i) => inputs.has(JSON.stringify(i.input))).length).toBe(0);
    const byId = await world.call("algorithm", "GET", `/v1/agl/rollouts/${tasks[0]!.rolloutId}`);
    expect.soft(byId.status === 200 ? byId.body : null).toBeNull();
    const dequeued = await world.call("algorithm", "POST", "/v1/agl/queues/rollouts/dequeue", { limit: 100, worker_id: "learner-worker" });
    expect.soft((Array.isArray(dequeued.body) ? (dequeued.body as { rollout_id: string }[]) : []).filter((i) => ids.has(i.rollout_id)).length).toBe(0);

    // What it served anyway, as a store without the guard recorded it; an honest verifier re-reads the canary.
    const stop = new AbortController();
    const loops = [forgeAsLearner(world, runId, learner, stop.signal), verifierLoop(world, stop.signal)];
    const view = await awaitRun(world, runId).finally(() => stop.abort());
    await Promise.all(loops);
    expect(view.status).toBe("done");
    expect(view.verdict).not.toBe("READY FOR APPROVAL");
    const c4 = check(view, 4);
    expect(c4.status).toBe("unavailable");
    expect(c4.explanation).toContain(`served by ${learner}, which declared this candidate`);

    const { receipt } = await gateReport(world.database, candidateId);
    const gate = receipt!.stage3!.lockedGate!;
    expect([gate.candidate.cases.length, gate.parent.cases.length]).toEqual([0, 0]);
    expect(new Set([...gate.candidate.unavailable!, ...gate.parent.unavailable!].map((u) => u.reason))).toEqual(new Set([`not counted: served by ${learner}, which declared this candidate and registered this candidate`]));
    expect(receipt!.stage3!.rollbackTest).toMatchObject({ routedBack: false });
    expect(receipt!.stage3!.rollbackTest!.detail).toContain(`not counted: served by ${learner}`);
    const outcomes = receipt!.stage3!.canary!.outcomes;
    expect(outcomes.length).toBeGreaterThan(0);
    for (const o of outcomes) expect(o.verification).toEqual({ method: "unverified", reason: expect.stringContaining(`not counted: served by ${learner}`) });
    expect(check(view, 6).status).not.toBe("pass");

    const serving = (await getCandidate(world.database, candidateId)).lockedGateServing!;
    expect(serving.scoring).toBe("runner_reward");
    expect(serving.servers).toEqual([{ identity: learner, name: expect.any(String), role: "algorithm", rollouts: 2 * HELD_OUT_CASES, counted: false, reason: expect.stringContaining("declared this candidate") }]);
  }, 180_000);

  it("a runner key's honest results still count: check 4 passes and the page names the runner that served", async () => {
    const { receiptId, candidateId } = await trained("honest");
    const stop = new AbortController();
    const loops = [runnerLoop(world, world.keys.get("runner")!, "honest", stop.signal), verifierLoop(world, stop.signal)];
    const view = await awaitRun(world, await requestRun(world, receiptId, 60)).finally(() => stop.abort());
    await Promise.all(loops);
    expect(check(view, 4).status, check(view, 4).explanation).toBe("pass");
    expect(view.verdict, JSON.stringify(view.checks, null, 1)).toBe("READY FOR APPROVAL");
    const serving = (await getCandidate(world.database, candidateId)).lockedGateServing!;
    expect(serving.servers).toEqual([{ identity: runner, name: expect.any(String), role: "runner", rollouts: 2 * HELD_OUT_CASES, counted: true, reason: null }]);
    // The page says plainly whom the scores trust.
    expect(servingSentence(serving)).toMatch(new RegExp(`^Scores come from the runners' own reward spans; served by: [^;]*\\(${runner}\\)\\.`));
  }, 180_000);

  it("an expected-output evaluator scores what was served: a runner's passed: true and reward 1 on a wrong answer score 0", async () => {
    await publishOutputEvaluator(world);
    const { receiptId, candidateId } = await trained("liar", OUTPUT_EVALUATOR);
    const stop = new AbortController();
    const loops = [runnerLoop(world, world.keys.get("runner")!, "liar", stop.signal), verifierLoop(world, stop.signal)];
    const view = await awaitRun(world, await requestRun(world, receiptId, 60)).finally(() => stop.abort());
    await Promise.all(loops);
    const gate = (await gateReport(world.database, candidateId)).receipt!.stage3!.lockedGate!;
    expect(gate.candidate.cases).toHaveLength(HELD_OUT_CASES);
    expect(new Set(gate.candidate.cases.map((c) => `${c.score}:${c.passed}`))).toEqual(new Set(["0:false"]));
    expect(new Set(gate.parent.cases.map((c) => `${c.score}:${c.passed}`))).toEqual(new Set(["1:true"]));
    expect(check(view, 4).status).toBe("fail");
    const serving = (await getCandidate(world.database, candidateId)).lockedGateServing!;
    expect(serving).toMatchObject({ scoring: "expected_output", outputAttribute: "agent.output" });
    expect(servingSentence(serving)).toMatch(/^Scores come from comparing what was served \(span attribute agent\.output\) with each case's expected output/);
  }, 180_000);
}, { postgresql: "full-run" });
