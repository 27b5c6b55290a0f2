// The dashboard's extra store procedures: span outline (tree/waterfall), one span, resources history and
// masked diffs between versions, runners by status.
import { afterAll, beforeAll, expect, it } from "vitest";
import { callerAs } from "../../helpers/caller";
import { describeEachDialect } from "../../helpers/db";
import { createTestStore, makeSpan, type StoreFixture } from "../../helpers/store";

describeEachDialect("store dashboard procedures", (dialect) => {
  let f: StoreFixture;
  beforeAll(async () => {
    f = await createTestStore(dialect, "dash");
  });
  afterAll(() => f?.drop());

  it("outlines spans in time order with their parents, pages them, and serves one span in full", async () => {
    const [claim] = await Promise.all([f.store.startRollout({ input: "t", mode: "train", worker_id: "W-1" })]);
    const rid = claim!.rollout_id;
    const aid = claim!.attempt.attempt_id;
    const root = makeSpan(rid, aid, 1, "agent.run", { start_time: 100, end_time: 110, attributes: { "agent.name": "desk" } });
    const child = makeSpan(rid, aid, 2, "llm.call", { parent_id: root.span_id, start_time: 101, end_time: 104, status: { status_code: "ERROR", description: "boom" } });
    const grandchild = makeSpan(rid, aid, 3, "tool.call", { parent_id: child.span_id, start_time: 102, end_time: 103 });
    await f.store.addSpans([grandchild, root, child]);
    const viewer = callerAs(f.database, "viewer");
    const outline = await viewer.store.querySpanOutline({ rollout_id: rid });
    expect(outline.total).toBe(3);
    expect(outline.items.map((s) => [s.name, s.parent_id, s.start_time, s.end_time, s.status_code])).toEqual([
      ["agent.run", null, 100, 110, "OK"],
      ["llm.call", root.span_id, 101, 104, "ERROR"],
      ["tool.call", child.span_id, 102, 103, "OK"],
    ]);
    expect(outline.items[0]).not.toHaveProperty("attributes");
    const second = await viewer.store.querySpanOutline({ rollout_id: rid, attempt_id: "latest", limit: 2, offset: 2 });
    expect(second).toMatchObject({ total: 3, items: [{ name: "tool.call" }] });
    expect((await viewer.store.querySpanOutline({ rollout_id: rid, attempt_id: "nope" })).total).toBe(0);
    expect(await viewer.store.getSpan({ rollout_id: rid, attempt_id: aid, span_id: root.span_id })).toMatchObject({ name: "agent.run", attributes: { "agent.name": "desk" } });
    expect(await viewer.store.getSpan({ rollout_id: rid, attempt_id: aid, span_id: "missing" })).toBeNull();
    // The traces page reads its rollout's header by exact id.
    await f.store.enqueueRollouts([{ input: "other" }]);
    expect((await viewer.store.listRollouts({ rollout_id_in: [rid] })).items.map((r) => r.rollout_id)).toEqual([rid]);
  });

  it("pages a resources id's versions and diffs two of them key by key with api_key masked", async () => {
    const v1 = await f.store.addResources({
      llm: { resource_type: "llm", endpoint: "http://a", model: "m1", api_key: "sk-one", sampling_parameters: { temperature: 0.2 } },
      prompt: { resource_type: "prompt_template", template: "Hi", engine: "f-string" },
    });
    await f.store.updateResources(v1.resources_id, {
      llm: { resource_type: "llm", endpoint: "http://a", model: "m2", api_key: "sk-two", sampling_parameters: { temperature: 0.2, top_p: 0.9 } },
    });
    const viewer = callerAs(f.database, "viewer");
    const history = await viewer.store.listResourcesHistory({ resources_id: v1.resources_id, limit: 1 });
    expect(history).toMatchObject({ total: 2, items: [{ version: 2, names: ["llm"] }] });
    expect(history.items[0]!.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await viewer.store.listResourcesHistory({ resources_id: v1.resources_id, limit: 1, offset: 1 })).items[0]).toMatchObject({ version: 1, names: ["llm", "prompt"] });

    const diff = await viewer.store.diffResources({ resources_id: v1.resources_id, from_version: 1, to_version: 2 });
    expect(diff.from.version).toBe(1);
    expect(diff.to.version).toBe(2);
    const byPath = Object.fromEntries(diff.entries.map((e) => [e.path, e]));
    expect(byPath["llm.model"]).toMatchObject({ change: "changed", before: '"m1"', after: '"m2"', secret: false });
    expect(byPath["llm.api_key"]).toMatchObject({ change: "changed", before: "••••••••", after: "••••••••", secret: true });
    expect(byPath["llm.sampling_parameters.top_p"]).toMatchObject({ change: "added", after: "0.9" });
    expect(byPath["prompt.template"]).toMatchObject({ change: "removed", before: '"Hi"' });
    expect(byPath["llm.endpoint"]).toBeUndefined();
    expect(diff.unchanged).toBe(3); // llm.endpoint, llm.resource_type, llm.sampling_parameters.temperature
    expect(JSON.stringify(diff)).not.toContain("sk-");
    await expect(viewer.store.diffResources({ resources_id: v1.resources_id, from_version: 1, to_version: 9 })).rejects.toThrow(/no version 9/);

    const version = await viewer.store.getResourcesVersion({ resources_id: v1.resources_id, version: 1 });
    expect(version?.resources.llm).toMatchObject({ model: "m1", api_key: "••••••••" });
    expect(await viewer.store.getResourcesVersion({ resources_id: v1.resources_id, version: 5 })).toBeNull();
    const list = await viewer.store.listResourcesSummaries({ resources_id_contains: v1.resources_id });
    expect(list).toMatchObject({ total: 1, items: [{ resources_id: v1.resources_id, version: 2, names: ["llm"] }] });
    expect(list.items[0]!.digest).toBe(history.items[0]!.digest);
    expect(JSON.stringify(list)).not.toContain("sk-");
  });

  it("counts runners by status", async () => {
    await f.store.updateWorker("W-idle", { spans: 3 });
    const counts = await callerAs(f.database, "viewer").store.countWorkers();
    expect(counts.idle + counts.busy + counts.unknown).toBe((await f.store.queryWorkers({})).total);
    expect(counts.busy).toBeGreaterThanOrEqual(1); // W-1 holds the attempt started above
    await expect(callerAs(f.database, "runner").store.countWorkers()).rejects.toThrow(/dashboard:read/);
  });
});
