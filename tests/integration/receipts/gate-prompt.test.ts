// A prompt candidate is judged like any other: APO (offline, built-in responder) turns the starter prompt into a
// candidate prompt_template resource; the gate pins it and its exact parent prompt, and desk runners over HTTP
// execute each case with the built-in responder reading the ticket's text. Stage 3 scores every case from the
// runners' reward spans, the canary's tickets land in the Ticket DB and are verified there, and each score is
// exactly what the same prompt earns in-process — the runner ran the prompt, not some policy.
import { afterAll, beforeAll, expect, it } from "vitest";
import { rewardValueOf } from "@/server/gate/evidence/spans";
import { gateReport } from "@/server/receipts/report";
import { findDistribution } from "@/server/environments/support-desk";
import { DEFAULT_REWARD_WEIGHTS, weightedReward } from "@/server/environments/types";
import { GATE_KEYS, GATE_OPTIONS, gateEpisodeSeed, ZRunnerRewardSpec } from "@/server/runner/gate-rollout";
import { ZEpisodeInput } from "@/server/runner/episode-input";
import { lockValidationSet } from "@/server/trainers/evaluate";
import { BUILTIN_SCORER, builtinResponder } from "@/server/trainers/prompt/builtin";
import { promptEpisode } from "@/server/trainers/prompt/episode";
import { promptResource, promptTemplate, type PromptResource } from "@/server/trainers/prompt/template";
import { describeEachDialect } from "../../helpers/db";
import { deskCandidate, deskGateWorld, driveDeskGate, type DeskGateWorld } from "../../helpers/desk-gate";
import { desk, run } from "../../helpers/families";

const V2 = findDistribution("v2");
const STARTER = promptTemplate("You are a support agent. Answer the customer's question.\n{ticket}");

describeEachDialect("a prompt candidate through the gate's runners", (dialect) => {
  let world: DeskGateWorld;
  let tuned: PromptResource;
  beforeAll(async () => {
    world = await deskGateWorld(dialect, "gateprompt");
    const apo = await run({ family: "prompt-optimization", config: { scorer: "builtin", rolloutsPerPrompt: 8 }, parent: STARTER, updates: 6, seed: "apo-gate", validation: lockValidationSet(desk, "v2", 40, "apo-gate") });
    tuned = apo.candidate as unknown as PromptResource;
  }, 120_000);
  afterAll(() => world?.close());

  it("runners execute both prompts with the built-in responder; every case scores from its reward span; the tuned prompt beats its parent", async () => {
    expect(tuned.resource_type).toBe("prompt_template");
    expect(tuned.template).not.toBe(STARTER.template);
    const { candidateId, candidate, parent } = await deskCandidate(world, { name: "apo", parent: STARTER, candidate: promptTemplate(tuned.template) });
    const run = await driveDeskGate(world, candidateId, 60);
    expect(run).toMatchObject({ status: "done", phase: "done" });

    const { receipt, report } = await gateReport(world.database, candidateId);
    const s3 = receipt!.stage3!;
    const gate = s3.lockedGate!;
    expect(gate.candidate.resource).toEqual(candidate);
    expect(gate.parent.resource).toEqual(parent);
    expect(gate.candidate.unavailable ?? []).toEqual([]);
    expect(gate.parent.unavailable ?? []).toEqual([]);
    expect(gate.candidate.cases).toHaveLength(20);
    expect(gate.parent.cases).toHaveLength(20);

    const digests = { candidate: promptResource(promptTemplate(tuned.template)).digest, parent: promptResource(STARTER).digest };
    const templates = { candidate: tuned.template, parent: STARTER.template };
    for (const side of ["candidate", "parent"] as const) {
      for (const c of gate[side].cases) {
        const rollout = (await world.store.getRollout(c.rolloutId!))!;
        const attempt = (await world.store.queryAttempts(c.rolloutId!, { limit: -1 })).items.at(-1)!;
        // The runner said what acted and who answered.
        expect(attempt.metadata).toMatchObject({ "lightgate.policy_digest": digests[side], "lightgate.responder": BUILTIN_SCORER });
        const spans = (await world.store.querySpans({ rollout_id: c.rolloutId!, attempt_id: "latest", limit: -1 })).items;
        expect(rewardValueOf(spans.filter((s) => rewardValueOf(s) !== null).at(-1)!)).toBe(c.score);
        // The same prompt on the same case in-process, with the pinned evaluator's weights, earns exactly that score.
        const input = ZEpisodeInput.parse(rollout.input);
        const spec = ZRunnerRewardSpec.parse(rollout.metadata![GATE_KEYS.evaluatorSpec]);
        const { episode } = await promptEpisode(desk, builtinResponder, templates[side], desk.sampleTask(V2, input.task_seed), { episodeKey: "in-process", seed: gateEpisodeSeed(input.task_seed), options: GATE_OPTIONS });
        expect(weightedReward(episode.totals, { ...DEFAULT_REWARD_WEIGHTS, ...spec.weights })).toBeCloseTo(c.score, 9);
        expect(spans.filter((s) => s.name === "agent.step").map((s) => s.attributes["lightgate.step.action"])).toEqual(episode.steps.map((s) => s.action));
      }
    }
    const mean = (xs: { score: number }[]) => xs.reduce((a, x) => a + x.score, 0) / xs.length;
    expect(mean(gate.candidate.cases)).toBeGreaterThan(mean(gate.parent.cases) + 0.3);
    expect(gate.candidate.cases.filter((c) => c.passed).length).toBeGreaterThan(gate.parent.cases.filter((c) => c.passed).length);

    // The canary: the prompt's tool calls wrote tickets, and the verifier re-read each one.
    const outcomes = s3.canary!.outcomes;
    expect(outcomes).toHaveLength(6);
    for (const o of outcomes) {
      expect(o.verification.method).toBe("destination");
      if (o.verification.method !== "destination") continue;
      const ticket = await world.database.db.ticket.findUniqueOrThrow({ where: { id: o.verification.destination.ref } });
      expect(o.verification.observed).toContain(`"status":"${ticket.status}"`);
    }
    expect(s3.rollbackTest).toMatchObject({ loaded: true, routedBack: true, parent });
    expect(report!.checks.find((c) => c.id === 1)!.status).toBe("pass");
    const recorded = await world.database.db.gateCheckResult.findMany({ where: { candidateId } });
    expect(recorded.map((r) => r.check).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  }, 240_000);
}, { postgresql: "full-run" });
