// External trainings (server/training/external/) on a real database, written the way an Agent Lightning algorithm
// and its runners write: resources versions and rollouts over the store's REST API, rewards in spans exported
// over OTLP protobuf by the OpenTelemetry SDK. The per-version figures are asserted exactly (rewards are binary
// fractions), beside a real Lightgate PPO run whose lineages must not be listed, and hostile ids on the procedures.
import { afterAll, beforeAll, expect, it } from "vitest";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { context, trace } from "@opentelemetry/api";
import { getExternalTraining, listExternalTrainings } from "@/server/training/external";
import { startRun } from "@/server/training/runs";
import { TrainerWorker } from "@/server/training/worker";
import { describeEachDialect } from "../../helpers/db";
import { callerAs, callerFor, refusal } from "../../helpers/caller";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";
import { rolloutConfig } from "../../helpers/agl-client";
import { ppoRun, STARTER, startRunners } from "../../helpers/training-runs";

const LINEAGE = "apo-support-prompt";
const tick = () => new Promise((r) => setTimeout(r, 15));

describeEachDialect(
  "external trainings from the store alone",
  (dialect) => {
    let s: StoreServer;
    let runId = "";
    beforeAll(async () => {
      s = await startStoreServer(dialect, "external");
    }, 60_000);
    afterAll(() => s?.close());

    /** A runner's agent exporting an agent.run span with a reward child over OTLP, as agentlightning's tracer does. */
    async function exportReward(rolloutId: string, attemptId: string, reward: number | null) {
      const exporter = new OTLPTraceExporter({ url: `${s.url}/v1/traces`, headers: { Authorization: `Bearer ${s.keys.runner}` } });
      const provider = new BasicTracerProvider({
        resource: resourceFromAttributes({ "agentlightning.rollout_id": rolloutId, "agentlightning.attempt_id": attemptId, "service.name": "apo-agent" }),
        spanProcessors: [new SimpleSpanProcessor(exporter)],
      });
      const tracer = provider.getTracer("external-training-test");
      const root = tracer.startSpan("agent.run");
      if (reward !== null) tracer.startSpan("agentlightning.annotation", { attributes: { "agentlightning.reward.0.name": "primary", "agentlightning.reward.0.value": reward } }, trace.setSpan(context.active(), root)).end();
      root.end();
      await provider.forceFlush();
      await provider.shutdown();
    }

    /** Enqueues one rollout, lets `worker` take it, export `reward` and end the attempt with `status`. */
    async function attempt(rolloutId: string, worker: string, reward: number | null, status: "succeeded" | "failed") {
      const got = await s.client.dequeue(worker);
      expect(got?.rollout_id).toBe(rolloutId);
      await exportReward(rolloutId, got.attempt.attempt_id, reward);
      await s.client.updateAttempt(rolloutId, got.attempt.attempt_id, { status });
    }

    async function rollout(mode: "train" | "val", worker: string, reward: number | null, opts: { maxAttempts?: number; resourcesId?: string } = {}) {
      const r = await s.client.enqueueRollout({ task: `${mode}-${Math.random()}` }, { mode, resources_id: opts.resourcesId ?? LINEAGE, config: rolloutConfig({ max_attempts: opts.maxAttempts ?? 1, retry_condition: ["failed"] }) });
      await attempt(r.rollout_id, worker, reward, "succeeded");
      return r.rollout_id as string;
    }

    it("a small Lightgate PPO run goes first: its lineages are Lightgate's own", async () => {
      const run = await startRun(s.database, s.store, ppoRun({ updates: 1, config: { episodesPerUpdate: 4, toolFailureRate: 0, maxAttempts: 2 }, heldOutCases: 4 }), STARTER);
      runId = run.id;
      const runners = startRunners(s.url, s.keys.runner, 1);
      const worker = new TrainerWorker(s.database, s.store, { workerId: "w-ext", pollMs: 20 });
      expect(await worker.runOne()).toBe(true);
      await runners.stop();
      expect((await s.database.db.trainingRun.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("finished");
      // A gate pin, written in-process as a gate run does.
      await s.store.updateResources("lg-pin-0123456789abcdef", { prompt: { resource_type: "prompt_template", template: "pinned", engine: "f-string" } });
      // A version only declared to the gate as a candidate (as /v1/gate's declaration records it), never run on.
      const declared = await s.store.updateResources("declared-only", { prompt: { resource_type: "prompt_template", template: "declared", engine: "f-string" } });
      const stored = await s.database.db.storeResourcesVersion.findUniqueOrThrow({ where: { resourcesId_version: { resourcesId: "declared-only", version: declared.version } } });
      await s.database.db.candidate.create({
        data: { id: "cand-declared-only", agent: "third-party", resourcesId: "declared-only", version: declared.version, digest: stored.digest, parentResourcesId: "declared-only", parentVersion: declared.version, parentDigest: stored.digest, algorithm: "apo", stage1: "{}", createdById: STARTER.id },
      });
      expect((await listExternalTrainings(s.database, { offset: 0, limit: 100 })).total).toBe(0);
    }, 120_000);

    it("derives per-version rewards, failure and retry rates, coverage and retry debt beside the previous version", async () => {
      await s.client.updateResources(LINEAGE, { prompt: { resource_type: "prompt_template", template: "Answer briefly. v1", engine: "f-string" } });
      await tick();
      // Version 1: a train rollout that fails once (reward 0.25) and succeeds on its retry (0.75), a train rollout
      // at 0.25, a validation rollout at 0.5, a train rollout that fails for good without a reward.
      const retried = await s.client.enqueueRollout({ task: "retried" }, { mode: "train", resources_id: LINEAGE, config: rolloutConfig({ max_attempts: 2, retry_condition: ["failed"] }) });
      await attempt(retried.rollout_id, "apo-runner-a", 0.25, "failed");
      await attempt(retried.rollout_id, "apo-runner-b", 0.75, "succeeded");
      await rollout("train", "apo-runner-a", 0.25);
      await rollout("val", "apo-runner-a", 0.5);
      const failing = await s.client.enqueueRollout({ task: "fails" }, { mode: "train", resources_id: LINEAGE, config: rolloutConfig({ max_attempts: 1 }) });
      await attempt(failing.rollout_id, "apo-runner-a", null, "failed");
      await tick();
      await s.client.updateResources(LINEAGE, { prompt: { resource_type: "prompt_template", template: "Answer briefly and cite the policy. v2", engine: "f-string" } });
      await tick();
      // Version 2: train 1.0 and 0.5, one succeeded train rollout that exported no reward (not covered), validation 0.75.
      await rollout("train", "apo-runner-c", 1);
      await rollout("train", "apo-runner-c", 0.5);
      await rollout("train", "apo-runner-c", null);
      await rollout("val", "apo-runner-c", 0.75);

      const t = await getExternalTraining(s.database, LINEAGE);
      expect(t.versions.map((v) => v.version)).toEqual([1, 2]);
      expect(t.rollouts).toBe(8);
      const [v1, v2] = t.versions;
      expect(v1!.until).toBe(v2!.createdAt);
      expect(v2!.until).toBeNull();
      expect(v1).toMatchObject({ trainRollouts: 3, trainRewarded: 2, valRollouts: 1, valRewarded: 1, finished: 4, failed: 1, retried: 1, coverageConsidered: 3 });
      const f1 = v1!.figures;
      expect([f1.trainReward.value, f1.valReward.value, f1.rollouts.value, f1.failureRate.value, f1.retryRate.value, f1.coverage.value, f1.retryDebt.value]).toEqual([0.5, 0.5, 4, 0.25, 0.25, 1, 1]);
      expect(Object.values(f1).every((c) => c.previous === null && c.delta === null)).toBe(true);
      expect(v2).toMatchObject({ trainRollouts: 3, trainRewarded: 2, valRollouts: 1, valRewarded: 1, finished: 4, failed: 0, retried: 0, coverageConsidered: 4 });
      const f2 = v2!.figures;
      expect(f2.trainReward).toEqual({ value: 0.75, previous: 0.5, delta: 0.25 });
      expect(f2.valReward).toEqual({ value: 0.75, previous: 0.5, delta: 0.25 });
      expect(f2.failureRate).toEqual({ value: 0, previous: 0.25, delta: -0.25 });
      expect(f2.retryRate).toEqual({ value: 0, previous: 0.25, delta: -0.25 });
      expect(f2.coverage).toEqual({ value: 0.75, previous: 1, delta: -0.25 });
      expect(f2.retryDebt).toEqual({ value: 0, previous: 1, delta: -1 });
      expect(f2.rollouts).toEqual({ value: 4, previous: 4, delta: 0 });
      expect(f2.throughput.value).toBeGreaterThan(0);
      // Reward over time: every train and validation rollout counted once, rewards where they were exported.
      const train = t.overTime.points.filter((p) => p.mode === "train");
      expect(train.reduce((n, p) => n + p.rollouts, 0)).toBe(6);
      expect(train.reduce((n, p) => n + p.rewarded, 0)).toBe(4);
      expect(t.overTime.points.filter((p) => p.mode === "val").reduce((n, p) => n + p.rewarded, 0)).toBe(2);
      // The newest version's runners; the first version's are not at work on it.
      expect(t.runners.map((r) => r.workerId)).toEqual(["apo-runner-c"]);
      expect(t.runners[0]).toMatchObject({ attempts: 4, failedAttempts: 0 });
      expect(t.pendingRollups).toBe(0);
    });

    it("lists the external training once, never Lightgate's own run lineages", async () => {
      // A trial the algorithm published once (add_resources: a new id, one version) and ran a rollout on.
      const trial = await s.store.addResources({ prompt: { resource_type: "prompt_template", template: "a trial", engine: "f-string" } });
      await s.store.enqueueRollouts([{ input: { trial: true }, mode: "train", resources_id: trial.resources_id }]);
      const list = await listExternalTrainings(s.database, { offset: 0, limit: 100 });
      expect(list.items.map((i) => i.resourcesId)).toEqual([LINEAGE]);
      expect([list.total, list.otherKind]).toEqual([1, 1]);
      // One-off ids are listed apart, not buried among nor burying the lineages.
      const oneOff = await listExternalTrainings(s.database, { kind: "one-off", offset: 0, limit: 100 });
      expect(oneOff.items.map((i) => i.resourcesId)).toEqual([trial.resources_id]);
      expect([oneOff.total, oneOff.otherKind]).toEqual([1, 1]);
      expect(list.items[0]).toMatchObject({ versions: 2, rollouts: 8, latest: { version: 2, trainReward: 0.75, valReward: 0.75, rollouts: 4, failureRate: 0 } });
      const own = await s.database.db.storeRollout.findMany({ where: { metadata: { contains: runId } }, distinct: ["resourcesId"], select: { resourcesId: true } });
      const candidate = await s.database.db.candidate.findFirstOrThrow({ where: { trainingRunId: runId } });
      const run = await s.database.db.trainingRun.findUniqueOrThrow({ where: { id: runId } });
      const ownIds = [...own.map((r) => r.resourcesId!), candidate.resourcesId, run.parentResourcesId, "lg-pin-0123456789abcdef", "declared-only"];
      expect(ownIds.length).toBeGreaterThanOrEqual(4);
      const caller = callerAs(s.database, "viewer");
      for (const id of ownIds) expect((await refusal(caller.external.getTraining({ resourcesId: id }))).code).toBe("NOT_FOUND");
      expect((await caller.external.listTrainings({ search: "apo-" })).items.map((i) => i.resourcesId)).toEqual([LINEAGE]);
      expect((await caller.external.listTrainings({ search: "%" })).total).toBe(0); // a wildcard is a character
    });

    it("hostile ids on the procedures: a clear 4xx or 404, never a 5xx", async () => {
      const caller = callerAs(s.database, "viewer");
      for (const id of ["__proto__", "constructor", "unknown-lineage", "x".repeat(512), "a'; DROP TABLE store_rollouts; --"]) {
        const e = await refusal(caller.external.getTraining({ resourcesId: id }));
        expect(e.code).toBe("NOT_FOUND");
        expect(e.message).toMatch(/no external training/);
      }
      for (const id of ["x".repeat(10 * 1024), "", "nul\u0000id"]) expect((await refusal(caller.external.getTraining({ resourcesId: id }))).code).toBe("BAD_REQUEST");
      expect((await refusal(caller.external.getTraining({ resourcesId: LINEAGE, extra: 1 } as never))).code).toBe("BAD_REQUEST");
      expect((await refusal(caller.external.listTrainings({ limit: 10_000 }))).code).toBe("BAD_REQUEST");
      expect((await refusal(callerFor(s.database, null).external.getTraining({ resourcesId: LINEAGE }))).code).toBe("UNAUTHORIZED");
      expect((await caller.external.getTraining({ resourcesId: LINEAGE })).versions).toHaveLength(2);
    });

    it("a kept trial's rollouts count to the version whose exact content they ran (add_resources trials, update_resources keeps one)", async () => {
      while (await s.client.dequeue("drain")); // the previous test's trial rollout, never run
      const KEPT = "hill-climb-prompt";
      const template = (t: string) => ({ prompt: { resource_type: "prompt_template", template: t, engine: "f-string" } });
      await s.client.updateResources(KEPT, template("Answer."));
      await tick();
      await rollout("train", "hill-runner", 0.25, { resourcesId: KEPT });
      // Two trials of round 1, each under its own id; the algorithm keeps the first (same content, next version).
      const kept = await s.client.addResources(template("Answer. Cite the policy."));
      const dropped = await s.client.addResources(template("Answer. Use emoji."));
      await rollout("train", "hill-runner", 1, { resourcesId: kept.resources_id });
      await rollout("train", "hill-runner", 0.5, { resourcesId: kept.resources_id });
      await rollout("val", "hill-runner", 0.75, { resourcesId: kept.resources_id });
      await rollout("train", "hill-runner", 0, { resourcesId: dropped.resources_id });
      await tick();
      await s.client.updateResources(KEPT, template("Answer. Cite the policy."));

      const t = await getExternalTraining(s.database, KEPT);
      expect(t.trials).toBe(1);
      expect(t.rollouts).toBe(4); // the dropped trial's rollout is nobody's version
      const [v1, v2] = t.versions;
      expect(v1).toMatchObject({ version: 1, trainRollouts: 1 });
      expect(v1!.figures.trainReward.value).toBe(0.25);
      expect(v2).toMatchObject({ version: 2, trainRollouts: 2, valRollouts: 1, coverageConsidered: 3 });
      expect(v2!.figures.trainReward).toEqual({ value: 0.75, previous: 0.25, delta: 0.5 });
      expect(v2!.figures.valReward.value).toBe(0.75);
      expect(v2!.figures.coverage.value).toBe(1);
      expect(t.overTime.points.filter((p) => p.mode === "train").reduce((n, p) => n + p.rollouts, 0)).toBe(3);
      expect(t.runners.map((r) => r.workerId)).toEqual(["hill-runner"]);
      // The list reads the newest version with its trial, though the trial ran before the version existed.
      const listed = (await listExternalTrainings(s.database, { search: KEPT, offset: 0, limit: 10 })).items[0];
      expect(listed).toMatchObject({ resourcesId: KEPT, versions: 2, rollouts: 4, latest: { version: 2, trainReward: 0.75, valReward: 0.75, rollouts: 3 } });
      // A gate pin of the same content (a gate run's copy) is never a trial.
      await s.store.updateResources("lg-pin-feedfacefeedface", template("Answer. Cite the policy."));
      expect((await getExternalTraining(s.database, KEPT)).trials).toBe(1);
    });

    it("a lineage larger than a page: rollups caught up 500 at a time, every rollout counted once", async () => {
      const BULK = "bulk-lineage";
      await s.store.updateResources(BULK, { prompt: { resource_type: "prompt_template", template: "bulk", engine: "f-string" } });
      for (let i = 0; i < 3; i++) await s.store.enqueueRollouts(Array.from({ length: 450 }, (_, j) => ({ input: { i, j }, mode: j % 3 === 0 ? "val" : "train", resources_id: BULK })));
      const t = await getExternalTraining(s.database, BULK);
      expect(t.pendingRollups).toBe(0);
      expect(t.versions).toHaveLength(1);
      expect(t.versions[0]).toMatchObject({ trainRollouts: 900, valRollouts: 450, trainRewarded: 0, finished: 0 });
      expect(await s.database.db.rolloutRollup.count({ where: { resourcesId: BULK } })).toBe(1350);
      expect(t.overTime.points.reduce((n, p) => n + p.rollouts, 0)).toBe(1350);
    });
  },
  { postgresql: "always" },
);
