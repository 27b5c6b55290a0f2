// The dashboard's store procedures: paginated, filtered by status and mode, attempts with reasons, scoped.
import { afterAll, beforeAll, expect, it } from "vitest";
import { callerAs, callerFor } from "../../helpers/caller";
import { describeEachDialect } from "../../helpers/db";
import { createTestStore, makeSpan, type StoreFixture } from "../../helpers/store";

describeEachDialect("store tRPC router", (dialect) => {
  let f: StoreFixture;
  beforeAll(async () => {
    f = await createTestStore(dialect, "trpc");
  });
  afterAll(() => f?.drop());

  it("lists rollouts by status and mode with their latest attempt, spans, attempts with reasons, resources versions", async () => {
    const [train, val] = await f.store.enqueueRollouts([{ input: 1, mode: "train", config: { max_attempts: 2, retry_condition: ["failed"] } }, { input: 2, mode: "val" }]);
    const [claim] = await f.store.dequeueRollouts({ worker_id: "Worker-0" });
    await f.store.addSpan(makeSpan(claim!.rollout_id, claim!.attempt.attempt_id, 1, "s"));
    await f.store.updateAttempt(claim!.rollout_id, "latest", { status: "failed" });
    await f.store.addResources({ p: { resource_type: "prompt_template", template: "a", engine: "jinja" }, llm: { resource_type: "llm", endpoint: "http://m", model: "x", api_key: "sk-live-123" } });
    const viewer = callerAs(f.database, "viewer");
    const trainPage = await viewer.store.listRollouts({ mode_in: ["train"], limit: 10 });
    expect(trainPage.items.map((r) => r.rollout_id)).toEqual([train!.rollout_id]);
    expect(trainPage.items[0]).toMatchObject({ status: "requeuing", attempt: { sequence_id: 1, status: "failed" } });
    expect((await viewer.store.listRollouts({ status_in: ["queuing"], limit: 10 })).items.map((r) => r.rollout_id)).toEqual([val!.rollout_id]);
    expect((await viewer.store.listAttempts({ rollout_id: train!.rollout_id })).items.map((a) => a.reason)).toEqual(["first"]);
    expect((await viewer.store.querySpans({ rollout_id: train!.rollout_id })).total).toBe(1);
    expect((await viewer.store.listWorkers({})).items[0]).toMatchObject({ worker_id: "Worker-0", status: "idle" });
    const res = await viewer.store.listResources({});
    const versions = await viewer.store.listResourcesVersions({ resources_id: res.items[0]!.resources_id });
    expect(versions[0]!.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    // Secrets never reach the dashboard, on either read.
    expect(JSON.stringify([res, versions])).not.toContain("sk-live-123");
    expect(versions[0]!.resources.llm).toMatchObject({ model: "x", api_key: "••••••••" });
    expect((await viewer.store.getStatistics()).rollouts_by_status.requeuing).toBe(1);
    await expect(callerFor(f.database, null).store.listRollouts({})).rejects.toThrow(/sign in/);
    await expect(callerAs(f.database, "runner").store.listRollouts({})).rejects.toThrow(/dashboard:read/);
  });
});
