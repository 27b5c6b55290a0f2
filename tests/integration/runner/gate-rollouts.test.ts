// The desk runner as one ordinary client of the gate's runner path: a real runner process (scripts/runner.ts)
// pulls locked-gate, canary and rollback rollouts from a real store over HTTP, scores each case with the
// pinned evaluator's weights deterministically (ε = 0, no injected failures), names the evaluator and the
// pass on the reward span, and writes the canary's effects to the Ticket DB named by
// LIGHTGATE_DESK_TICKETS_URL. Training rollouts are served exactly as before.
import { afterAll, beforeAll, expect, it } from "vitest";
import { rewardValueOf } from "@/server/gate/evidence/spans";
import { deskGateCases } from "@/server/desk/gate-datasets";
import { simulateEpisode } from "@/server/environments/episode";
import { createSupportDesk, findDistribution } from "@/server/environments/support-desk";
import { DatabaseTicketDestination } from "@/server/environments/support-desk/destination-db";
import { DEFAULT_REWARD_WEIGHTS, weightedReward } from "@/server/environments/types";
import { Runner } from "@/server/runner/runner";
import { attemptSeed, ZEpisodeInput } from "@/server/runner/episode-input";
import { evaluatePolicy, lockHeldOutSet } from "@/server/trainers/evaluate";
import { actingPolicy } from "@/server/trainers/policy";
import type { Span } from "@/server/store";
import { describeEachDialect } from "../../helpers/db";
import { allFinished, candidatePolicy, CANDIDATE_PIN, enqueueGate, EVALUATOR, gateMetadata, PARENT_PIN, parentPolicy, SPEC, writePins } from "../../helpers/gate-rollouts";
import { startScript, waitFor } from "../../helpers/script-process";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";

const desk = createSupportDesk();
const V2 = findDistribution("v2");
const WEIGHTS = { ...DEFAULT_REWARD_WEIGHTS, ...SPEC.weights };

describeEachDialect("the desk runner serves the gate's rollouts", (dialect) => {
  let s: StoreServer;
  beforeAll(async () => {
    s = await startStoreServer(dialect, "gate-runner");
    await writePins(s.store);
  }, 60_000);
  afterAll(() => s?.close());

  const latest = async (rolloutId: string) => (await s.store.queryAttempts(rolloutId, { limit: -1 })).items.at(-1)!;
  const rewardSpan = async (rolloutId: string, attemptId: string): Promise<Span | undefined> =>
    (await s.store.querySpans({ rollout_id: rolloutId, limit: -1 })).items.filter((x) => x.attempt_id === attemptId && rewardValueOf(x) !== null).at(-1);

  const toolSpans = async (rolloutId: string) => (await s.store.querySpans({ rollout_id: rolloutId, limit: -1 })).items.filter((x) => x.name.startsWith("tool.call:"));

  it("locked gate, canary and rollback rollouts from the store over HTTP: tagged reward spans, the canary's tickets in the Ticket DB", async () => {
    const heldOut = deskGateCases(V2, "held_out", 5);
    const canary = deskGateCases(V2, "canary", 4);
    const enqueued = await enqueueGate(s.store, { heldOut, canary, probes: 2 });
    const training = (await s.store.enqueueRollouts([{ input: { kind: "lightgate.episode", environment: "support-desk", distribution: "v2", task_seed: "train-seed/train/1/0", options: {} }, mode: "train", resources_id: CANDIDATE_PIN }]))[0]!;
    const broken = (await s.store.enqueueRollouts([{ input: heldOut[0]!.input as never, mode: "test", resources_id: CANDIDATE_PIN, metadata: gateMetadata("locked_gate", heldOut[0]!.id, { "lightgate.evaluator_spec": { scoring: "expected_output", output_attribute: "answer" } }) }]))[0]!;
    const ids = [...enqueued.map((e) => e.rolloutId), training.rollout_id, broken.rollout_id];

    // DATABASE_URL points elsewhere: the runner must find the Ticket DB by LIGHTGATE_DESK_TICKETS_URL.
    const runner = startScript("scripts/runner.ts", ["--url", s.url, "--id", "desk-gate-runner"], { ...process.env, LIGHTGATE_RUNNER_KEY: s.keys.runner, LIGHTGATE_DESK_TICKETS_URL: s.database.url, DATABASE_URL: "file:/nonexistent/elsewhere.db" });
    try {
      await waitFor(() => allFinished(s.store, ids), 90_000, runner.output);
    } finally {
      expect(await runner.stop()).toBe(0);
    }

    // Locked gate: each case scored as the in-process evaluation of the same policy with ε = 0 and the pinned weights.
    const expectedScores = {
      candidate: evaluatePolicy(desk, await candidatePolicy(), lockHeldOutSet(desk, V2, 5, "gate"), WEIGHTS).perTask,
      parent: evaluatePolicy(desk, parentPolicy(), lockHeldOutSet(desk, V2, 5, "gate"), WEIGHTS).perTask,
    };
    let passes = 0;
    for (const e of enqueued.filter((x) => x.phase === "locked_gate")) {
      const attempt = await latest(e.rolloutId);
      expect(attempt.status).toBe("succeeded");
      const span = (await rewardSpan(e.rolloutId, attempt.attempt_id))!;
      const want = expectedScores[e.side as "candidate" | "parent"][heldOut.findIndex((c) => c.id === e.caseId)]!;
      expect(want.taskId).toBe(e.caseId);
      expect(rewardValueOf(span)).toBeCloseTo(want.reward, 12);
      expect(span.attributes["lightgate.evaluator"]).toBe(EVALUATOR);
      expect(span.attributes["lightgate.passed"]).toBe(want.outcomeReached && want.protectedPass !== false);
      if (span.attributes["lightgate.passed"]) passes++;
      expect(attempt.metadata).toMatchObject({ "lightgate.resources_id": e.side === "candidate" ? CANDIDATE_PIN : PARENT_PIN });
      expect(attempt.metadata?.["lightgate.target"]).toBeUndefined(); // the locked gate acts on nothing
      expect((await toolSpans(e.rolloutId)).filter((x) => x.attributes["lightgate.target"] !== undefined)).toEqual([]);
    }
    expect(passes).toBeGreaterThan(0);

    // Canary: its ticket is in the Ticket DB, belongs to its task and shows what the episode reached.
    const tickets = new DatabaseTicketDestination(s.database);
    const verdicts: string[] = [];
    for (const e of enqueued.filter((x) => x.phase === "canary")) {
      const attempt = await latest(e.rolloutId);
      expect(attempt.status).toBe("succeeded");
      const target = attempt.metadata?.["lightgate.target"] as string;
      expect(attempt.metadata?.["lightgate.episode_key"]).toBe(`${e.rolloutId}/${attempt.attempt_id}`);
      const task = desk.sampleTask(V2, ZEpisodeInput.parse(canary.find((c) => c.id === e.caseId)!.input).task_seed);
      expect(target).toBe(desk.targetFor(task, `${e.rolloutId}/${attempt.attempt_id}`));
      expect((await tickets.read(target))?.taskId).toBe(task.id);
      // Each tool span names the ticket its call acted on, so the gate attributes every side effect.
      const tools = await toolSpans(e.rolloutId);
      expect(tools.length).toBeGreaterThan(0);
      expect(tools.map((x) => x.attributes["lightgate.target"])).toEqual(tools.map(() => target));
      const span = (await rewardSpan(e.rolloutId, attempt.attempt_id))!;
      const verdict = (await desk.verifyOutcome(task, target, tickets)).verdict;
      expect(verdict).toBe(span.attributes["lightgate.episode.outcome_reached"] ? "verified" : "not_verified");
      verdicts.push(verdict);
    }
    expect(verdicts).toContain("verified");

    // Rollback probes ran exactly the parent's pin and wrote nothing: the only tickets are the canary's.
    const parentPin = (await s.store.resourcesVersion(PARENT_PIN, 1))!;
    for (const e of enqueued.filter((x) => x.phase === "rollback")) {
      const attempt = await latest(e.rolloutId);
      expect(attempt.status).toBe("succeeded");
      expect(attempt.metadata).toMatchObject({ "lightgate.resources_id": PARENT_PIN, "lightgate.resources_digest": parentPin.digest });
      expect(attempt.metadata?.["lightgate.target"]).toBeUndefined();
    }
    expect(await s.database.db.ticket.count()).toBe(canary.length);

    // A training rollout: the policy's own exploration, the attempt's seed, the default weights, no gate tags.
    const trainAttempt = await latest(training.rollout_id);
    const trainSpan = (await rewardSpan(training.rollout_id, trainAttempt.attempt_id))!;
    const episode = simulateEpisode(desk, actingPolicy(await candidatePolicy()), desk.sampleTask(V2, "train-seed/train/1/0"), { episodeKey: `${training.rollout_id}/${trainAttempt.attempt_id}`, seed: attemptSeed("train-seed/train/1/0", 1), options: {} });
    expect(rewardValueOf(trainSpan)).toBeCloseTo(weightedReward(episode.totals, DEFAULT_REWARD_WEIGHTS), 12);
    expect(trainSpan.attributes["lightgate.evaluator"]).toBeUndefined();
    expect(Object.keys(trainAttempt.metadata ?? {}).filter((k) => k.startsWith("lightgate.") && !["lightgate.resources_version", "lightgate.policy_digest"].includes(k))).toEqual([]);

    // An evaluator this runner cannot score with: the case fails, saying which field, and is never scored.
    const refused = await latest(broken.rollout_id);
    expect(refused.status).toBe("failed");
    expect(refused.metadata?.["lightgate.failure"]).toMatch(/^runner error: lightgate\.evaluator_spec\.scoring: must be "runner_reward"/);
    expect(await rewardSpan(broken.rollout_id, refused.attempt_id)).toBeUndefined();
  }, 150_000);

  it("a canary rollout on a runner without a Ticket DB fails, saying so, and a malformed phase is named", async () => {
    const [c] = deskGateCases(V2, "canary", 1);
    const [canary, odd] = await s.store.enqueueRollouts([
      { input: c!.input as never, mode: "test", resources_id: CANDIDATE_PIN, metadata: gateMetadata("canary", c!.id) },
      { input: c!.input as never, mode: "test", resources_id: CANDIDATE_PIN, metadata: gateMetadata("__proto__", c!.id) },
    ]);
    const runner = new Runner({ url: s.url, apiKey: s.keys.runner, workerId: "no-tickets" });
    while (await runner.runOnce());
    expect((await latest(canary!.rollout_id)).metadata?.["lightgate.failure"]).toBe("runner error: canary: this runner has no destination for support-desk to act on");
    expect((await latest(odd!.rollout_id)).metadata?.["lightgate.failure"]).toMatch(/^runner error: lightgate\.phase: must be one of locked_gate, canary, rollback, canary_stage/);
  }, 60_000);
});
