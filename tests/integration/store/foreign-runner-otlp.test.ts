// The quickstart's flow (examples/agent-lightning/quickstart.py) over the real wire, from real processes: the
// algorithm side (this process, only HTTP with an algorithm key) publishes resources versions through /v1/agl and
// enqueues rollouts against them; two foreign runner processes (tests/foreign-agent/otlp-runner.mjs: plain Node,
// a runner key, REST + OTLP protobuf from the OpenTelemetry SDK's exporter) dequeue them, run a rule-following
// agent on the version they fetched, send spans and reward over OTLP and complete the attempts. The store must
// then hold every rollout, succeeded, with its reward on the span the OTLP path wrote, from the version it named.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { rewardValueOf } from "@/server/gate/evidence/spans";
import { describeEachDialect } from "../../helpers/db";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";

type Served = { rollout_id: string; attempt_id: string; resources_id: string; version: number; digest: string | null; reward: number };

const RULES = ["brief", "cite", "order number"];
const expectedReward = (template: string, offset: number) => RULES.filter((r) => template.includes(r)).length / RULES.length + offset;
const TASKS = [0, 1, 2, 3].map((i) => ({ question: `question ${i}`, offset: i / 1000 }));

function startRunner(url: string, key: string, worker: string) {
  const child = spawn(process.execPath, ["tests/foreign-agent/otlp-runner.mjs", "--url", url, "--worker", worker], {
    env: { PATH: process.env.PATH ?? "", FR_RUNNER_KEY: key } as unknown as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
  }) as ChildProcessWithoutNullStreams;
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return {
    child,
    /** SIGTERM: the runner finishes the rollout in hand and prints what it served. */
    async stop(): Promise<{ worker: string; served: Served[] }> {
      child.kill("SIGTERM");
      const code = await exited;
      if (code !== 0) throw new Error(`${worker} exited ${code}: ${err.slice(-2000)}`);
      return JSON.parse(out.trim().split("\n").at(-1)!);
    },
  };
}

describeEachDialect("a foreign runner process: resources versions over /v1/agl, rewards over OTLP protobuf", (dialect) => {
  let s: StoreServer;
  let runners: ReturnType<typeof startRunner>[] = [];
  beforeAll(async () => {
    s = await startStoreServer(dialect, "foreign-otlp");
    runners = ["otlp-runner-0", "otlp-runner-1"].map((w) => startRunner(s.url, s.keys.runner, w));
  });
  afterAll(async () => {
    for (const r of runners) if (r.child.exitCode === null) r.child.kill("SIGKILL");
    await s?.close();
  });

  async function runBatch(resourcesId: string) {
    const rollouts = await s.client.enqueueMany(TASKS.map((input) => ({ input, mode: "train", resources_id: resourcesId })));
    const ids: string[] = rollouts.map((r: { rollout_id: string }) => r.rollout_id);
    const done = new Set<string>();
    const deadline = Date.now() + 30_000;
    while (done.size < ids.length) {
      if (Date.now() > deadline) throw new Error(`${ids.length - done.size} rollouts of ${resourcesId} not finished in 30 s`);
      for (const r of await s.client.waitForRollouts(ids.filter((i) => !done.has(i)), 0)) done.add(r.rollout_id);
      await new Promise((r) => setTimeout(r, 50));
    }
    return ids;
  }

  it("holds each rollout with its reward, attributed to the resources version it ran", async () => {
    // The algorithm: three versions of one id (each batch finishes before the next version), then a fresh id.
    const templates = ["Answer {question}", "Answer {question}, brief", "Answer {question}, brief, cite", "Answer {question}, brief, cite, ask for the order number"];
    const batches: { resourcesId: string; version: number; template: string; ids: string[] }[] = [];
    for (const template of templates.slice(0, 3)) {
      const published = await s.client.updateResources("otlp-prompt", { prompt_template: { resource_type: "prompt_template", template, engine: "f-string" } });
      batches.push({ resourcesId: "otlp-prompt", version: published.version, template, ids: await runBatch("otlp-prompt") });
    }
    const added = await s.client.addResources({ prompt_template: { resource_type: "prompt_template", template: templates[3]!, engine: "f-string" } });
    batches.push({ resourcesId: added.resources_id, version: added.version, template: templates[3]!, ids: await runBatch(added.resources_id) });
    expect(batches.map((b) => b.version)).toEqual([1, 2, 3, 1]);

    const reports = await Promise.all(runners.map((r) => r.stop()));
    const served = new Map(reports.flatMap((r) => r.served.map((x) => [x.rollout_id, { ...x, worker: r.worker }] as const)));
    expect(served.size).toBe(16);

    for (const b of batches) {
      const version = await fetch(`${s.url}/v1/agl/resources/${b.resourcesId}?version=${b.version}`, { headers: { Authorization: `Bearer ${s.keys.algorithm}` } });
      const digest = version.headers.get("x-lightgate-digest");
      expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      for (const [i, rid] of b.ids.entries()) {
        const rollout = await s.client.getRollout(rid);
        expect(rollout).toMatchObject({ status: "succeeded", resources_id: b.resourcesId, attempt: { status: "succeeded" } });
        expect(rollout.attempt.worker_id).toBe(served.get(rid)!.worker);
        // What the runner says it ran is exactly this version (its bytes' digest), not a later one of the same id.
        expect(served.get(rid)).toMatchObject({ resources_id: b.resourcesId, version: b.version, digest });
        const spans = (await s.client.querySpans(rid, "latest")).items as { name: string; attributes: Record<string, unknown>; resource: { attributes: Record<string, unknown> } }[];
        expect(spans.map((x) => x.name).sort()).toEqual(["agent.run", "agentlightning.annotation"]);
        // Both came through OTLP: the resource the SDK's exporter sent names the runner, the rollout and the attempt.
        for (const span of spans) expect(span.resource.attributes).toMatchObject({ "service.name": "foreign-otlp-runner", "agentlightning.rollout_id": rid, "agentlightning.attempt_id": rollout.attempt.attempt_id });
        const rewards = spans.map(rewardValueOf).filter((v): v is number => v !== null);
        expect(rewards).toEqual([expectedReward(b.template, TASKS[i]!.offset)]);
        expect(spans.find((x) => x.name === "agent.run")!.attributes).toMatchObject({ "lightgate.resources_id": b.resourcesId, "lightgate.resources_version": b.version, "lightgate.resources_digest": digest });
      }
    }
    // The rewards climb with the versions, as a hill-climb would see them.
    const means = batches.map((b) => b.ids.reduce((sum, rid) => sum + served.get(rid)!.reward, 0) / b.ids.length);
    expect(means).toEqual([...means].sort((a, b) => a - b));
    expect(new Set(means).size).toBe(4);
  });
  // The store's SQL under both dialects is the other store suites' point; this one is the wire, so PostgreSQL in
  // the full run (about 15 s a dialect on a loaded machine: two runner processes start and serve 16 rollouts).
}, { postgresql: "full-run" });
