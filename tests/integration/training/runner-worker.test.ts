import { afterAll, beforeAll, expect, it } from "vitest";
import { computeCoverage, missingFamilies } from "@/server/gate/evidence/coverage";
import { rollupRollout } from "@/server/gate/evidence/spans";
import { trajectoryFromSpans, type SpanLike } from "@/server/environments/trajectory";
import { startRun } from "@/server/training/runs";
import { TrainerWorker } from "@/server/training/worker";
import { describeEachDialect } from "../../helpers/db";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";
import { ppoRun, STARTER, startRunners } from "../../helpers/training-runs";

describeEachDialect("runners and the trainer worker over real HTTP", (dialect) => {
  let s: StoreServer;
  beforeAll(async () => {
    s = await startStoreServer(dialect, "runs");
  }, 60_000);
  afterAll(() => s?.close());

  it("a PPO run collects through two runners (OTLP), learns from the stored spans and publishes a candidate", async () => {
    const run = await startRun(s.database, s.store, ppoRun(), STARTER);
    const runners = startRunners(s.url, s.keys.runner, 2);
    const worker = new TrainerWorker(s.database, s.store, { workerId: "w-1", pollMs: 20 });
    expect(await worker.runOne()).toBe(true);
    const stats = await runners.stop();

    const done = await s.database.db.trainingRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(done).toMatchObject({ status: "finished", updatesDone: 3, episodesDone: 36, workerId: null });
    const metrics = await s.database.db.trainingMetric.findMany({ where: { runId: run.id }, orderBy: { update: "asc" } });
    expect(metrics.map((m) => m.update)).toEqual([1, 2, 3]);
    expect(metrics.every((m) => m.episodes === 12 && m.heldOutReward !== null)).toBe(true);
    // Both runners worked, and every rollout of the run went through the store.
    expect(stats.every((r) => r.succeeded > 0)).toBe(true);
    const rollouts = (await s.store.queryRollouts({ limit: -1 })).items.filter((r) => r.metadata?.["lightgate.run_id"] === run.id);
    expect(rollouts).toHaveLength(36);
    expect(new Set(rollouts.map((r) => r.resources_id)).size).toBe(3); // one published policy per update

    const candidates = await s.database.db.candidate.findMany({ where: { trainingRunId: run.id } });
    expect(candidates).toHaveLength(1);
    expect(candidates[0]).toMatchObject({ agent: "support-desk", resourcesId: `${run.id}-u3`, version: 1, parentResourcesId: done.parentResourcesId, algorithm: "ppo" });
    const pointer = await s.database.db.pointer.findUnique({ where: { agent_kind: { agent: "support-desk", kind: "latest_candidate" } } });
    expect(pointer?.candidateId).toBe(candidates[0]!.id);
    expect(await s.database.db.pointer.findUnique({ where: { agent_kind: { agent: "support-desk", kind: "approved_default" } } })).toBeNull();
  }, 120_000);

  it.each([
    ["ppo-mlp", "mlp-softmax", "steps"],
    ["dqn-mlp", "mlp-q", "replaySize"],
  ] as const)("a %s run collects through the runners too: they act with its published network, it learns from the stored spans, greedy as published", async (family, kind, learnedFrom) => {
    const run = await startRun(s.database, s.store, ppoRun({ family, updates: 2, config: { episodesPerUpdate: 12, toolFailureRate: 0.2, maxAttempts: 3 } }), STARTER);
    const runners = startRunners(s.url, s.keys.runner, 2);
    const worker = new TrainerWorker(s.database, s.store, { workerId: "w-mlp", pollMs: 20 });
    expect(await worker.runOne()).toBe(true);
    const stats = await runners.stop();

    const done = await s.database.db.trainingRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(done).toMatchObject({ status: "finished", updatesDone: 2, episodesDone: 24, workerId: null });
    expect(stats.reduce((n, r) => n + r.succeeded, 0)).toBeGreaterThan(0);
    const rollouts = (await s.store.queryRollouts({ limit: -1 })).items.filter((r) => r.metadata?.["lightgate.run_id"] === run.id);
    expect(rollouts).toHaveLength(24);
    // Each update's network was published for the runners, exploring with the schedule's ε.
    const acted = await Promise.all([...new Set(rollouts.map((r) => r.resources_id!))].map((id) => s.store.getResources(id)));
    expect(acted).toHaveLength(2);
    for (const r of acted) {
      const policy = (Object.values(r!.resources)[0] as unknown as { policy: { kind: string; epsilon: number; serving?: unknown } }).policy;
      expect(policy.kind).toBe(kind);
      expect(policy.epsilon).toBeGreaterThan(0);
      expect(policy.serving).toBeUndefined();
    }
    const metrics = await s.database.db.trainingMetric.findMany({ where: { runId: run.id }, orderBy: { update: "asc" } });
    expect(metrics.map((m) => m.episodes)).toEqual([12, 12]);
    expect(metrics.every((m) => m.coverage !== null && JSON.parse(m.figures)[learnedFrom] > 0)).toBe(true);
    const candidate = await s.database.db.candidate.findFirstOrThrow({ where: { trainingRunId: run.id } });
    expect(candidate.algorithm).toBe(family);
    const published = await s.store.getResources(candidate.resourcesId);
    expect((Object.values(published!.resources)[0] as unknown as { policy: { serving: unknown } }).policy.serving).toEqual({ mode: "greedy" });
  }, 120_000);

  it("flaky tools: failed attempts are retried with a recorded reason, lost tool spans are reported missing, never healthy", async () => {
    // Every failure hangs (timeoutShare 1): the tool span is never exported and the attempt fails.
    // The store's HTTP route only takes Agent Lightning's resource types; Lightgate's own code publishes policies.
    const { resources_id } = await s.store.addResources({ policy: (await s.store.resourcesVersion(`initial-support-desk-softmax-linear`, 1))!.resources.policy! });
    const input = (i: number) => ({ kind: "lightgate.episode", environment: "support-desk", distribution: "v2", task_seed: `flaky/${i}`, options: { toolFailureRate: 1, timeoutShare: 1 } });
    const enqueued = await s.client.enqueueMany(Array.from({ length: 8 }, (_, i) => ({ input: input(i), resources_id, config: { max_attempts: 2, retry_condition: ["failed"] } })));
    const runners = startRunners(s.url, s.keys.runner, 2, "rest");
    const ids = enqueued.map((r: { rollout_id: string }) => r.rollout_id);
    for (let i = 0; i < 200; i++) {
      const done = (await s.store.queryRollouts({ rollout_id_in: ids, status_in: ["succeeded", "failed"], limit: -1 })).items;
      if (done.length === ids.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await runners.stop();

    const rollups = [];
    let sawMissingTool = false;
    for (const id of ids) {
      const rollout = (await s.store.getRollout(id))!;
      const attempts = (await s.store.queryAttempts(id, { limit: -1 })).items;
      const spans = (await s.store.querySpans({ rollout_id: id, limit: -1 })).items;
      // Every rollout that called a tool failed twice; the second attempt says why it was started.
      if (rollout.status === "failed") {
        expect(attempts.map((a) => a.reason)).toEqual(["first", "retry_after_failed"]);
        expect(attempts.map((a) => a.metadata?.["lightgate.failure"])).toEqual([expect.stringMatching(/did not answer/), expect.stringMatching(/did not answer/)]);
        const last = attempts.at(-1)!;
        const t = trajectoryFromSpans(spans.filter((x) => x.attempt_id === last.attempt_id) as unknown as SpanLike[]);
        expect(t.complete).toBe(false);
        expect(t.missing).toContain("reward");
        sawMissingTool ||= t.missing.some((m) => m.startsWith("tool.call:"));
      }
      const r = rollupRollout({ rollout_id: id, mode: rollout.mode, status: rollout.status as never, end_time: rollout.end_time }, attempts as never, spans as never);
      rollups.push(r);
      if (rollout.status === "failed") expect(missingFamilies(r, ["agent.step", "reward"])).toEqual(["reward"]);
    }
    expect(sawMissingTool).toBe(true);
    const failed = rollups.filter((r) => r.status === "failed");
    expect(failed.length).toBeGreaterThan(0);
    // Coverage over only failed rollouts is unavailable — not 100 %.
    const coverage = computeCoverage(failed, ["agent.step", "reward"]);
    expect(coverage.status).toBe("unavailable");
    expect(coverage.ratio).toBeNull();
  }, 120_000);

  it("a continual run subscribed to the gate pauses itself, with the reason, when retry debt crosses its bound", async () => {
    const run = await startRun(s.database, s.store, ppoRun({ continual: true, candidateEvery: 2, updates: 8, retryBudget: 0, config: { episodesPerUpdate: 10, toolFailureRate: 0.3, maxAttempts: 3 } }), STARTER);
    const runners = startRunners(s.url, s.keys.runner, 2);
    await new TrainerWorker(s.database, s.store, { workerId: "w-continual", pollMs: 20 }).runOne();
    await runners.stop();
    const paused = await s.database.db.trainingRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(paused).toMatchObject({ status: "paused", updatesDone: 2, workerId: null });
    expect(paused.statusReason).toMatch(/^stop condition: Retry debt \d+ crossed its bound of 0\./);
    // It published the window's candidate first, and checkpointed where it stopped.
    expect(await s.database.db.candidate.count({ where: { trainingRunId: run.id } })).toBe(1);
    expect((await s.database.db.trainingCheckpoint.findFirstOrThrow({ where: { runId: run.id }, orderBy: { update: "desc" } })).update).toBe(2);
    // Subscribed to the gate: the candidate ran on validation rollouts of its own and a gate run was queued.
    const candidate = await s.database.db.candidate.findFirstOrThrow({ where: { trainingRunId: run.id } });
    const val = (await s.store.queryRollouts({ limit: -1 })).items.filter((r) => r.resources_id === candidate.resourcesId);
    expect(val.length).toBe(16);
    expect(val.every((r) => r.mode === "val" && ["succeeded", "failed"].includes(r.status))).toBe(true);
    // No policy owner published this agent's exam here, so the gate says why it cannot run rather than guess.
    expect(await s.database.db.gateRun.count({ where: { candidateId: candidate.id } })).toBe(0);
    const refused = await s.database.db.trainingEvent.findFirstOrThrow({ where: { runId: run.id, kind: "gate" } });
    expect(refused.message).toMatch(new RegExp(`no gate run for ${candidate.id}: .*not a published gate dataset`));
    const event = await s.database.db.trainingEvent.findFirstOrThrow({ where: { runId: run.id, kind: "paused" } });
    expect(JSON.parse(event.data!).reasons.map((r: { condition: string }) => r.condition)).toContain("retry_debt_over_bound");
  }, 120_000);
}, { postgresql: "full-run" });
