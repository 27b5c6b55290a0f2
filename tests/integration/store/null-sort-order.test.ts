/* eslint-disable @typescript-eslint/no-explicit-any -- the wire JSON is untyped, as for the Python client */
// Every sortable field of every /v1/agl list endpoint, over real HTTP GET, in the order agentlightning's own
// store gives (ListBasedCollection: Python's stable sort, a missing `*_time` as +infinity, any other missing
// value as ""): `GET /rollouts?sort_by=mode&sort_order=asc` → [null, "test", "train", …]. Each field is checked
// both directions against that rule applied to the items in insertion order, so NULL placement and tie order
// (insertion order in both directions, as reverse=True keeps it) are exact.
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../helpers/db";
import { rolloutConfig } from "../../helpers/agl-client";
import { makeSpan } from "../../helpers/store";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";

type Item = Record<string, any>;
/** The reference's sort key; values that are JSON objects compare by their text (a Lightgate extension: the reference cannot sort them). */
function keyOf(item: Item, field: string, text?: (item: Item) => string): string | number {
  if (text) return text(item);
  const v = item[field];
  if (v === null || v === undefined) return field.endsWith("_time") ? Infinity : "";
  return typeof v === "object" ? JSON.stringify(v) : v;
}
const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
/** Python's `sorted(items, key=…, reverse=…)`: stable, ties in insertion order whichever the direction. */
function referenceOrder(items: Item[], field: string, order: "asc" | "desc", text?: (item: Item) => string): Item[] {
  const sign = order === "desc" ? -1 : 1;
  return items.map((item, i) => ({ item, i, k: keyOf(item, field, text) })).sort((a, b) => sign * cmp(a.k, b.k) || a.i - b.i).map((x) => x.item);
}

describeEachDialect("store REST: sort order of every sortable field, NULLs as the reference places them", (dialect) => {
  let s: StoreServer;
  const get = (path: string, params: [string, unknown][]) => s.client.request("GET", path, { params }) as Promise<{ items: Item[] }>;
  // Insertion order of each endpoint's fixture, and how an item is named in the comparison.
  let rollouts: string[];
  let rolloutId: string; // the rollout whose attempts and spans are sorted
  let attempts: string[];
  let spans: string[];
  const workers = ["sortw-b", "sortw-a", "sortw-c", "sortw-d"];
  let resources: string[];

  beforeAll(async () => {
    s = await startStoreServer(dialect, "nullsort");
    const c = s.client;
    // Rollouts: nullable mode, resources_id, metadata and end_time; ties on each.
    const specs = [
      { input: { t: "c" }, mode: "train", resources_id: "rs-b", metadata: { k: "b" }, config: rolloutConfig({ max_attempts: 2 }) },
      { input: { t: "a" }, mode: null, resources_id: null, metadata: null, config: rolloutConfig({ max_attempts: 1 }) },
      { input: { t: "b" }, mode: "test", resources_id: "rs-a", metadata: { k: "a" }, config: rolloutConfig({ max_attempts: 3 }) },
      { input: { t: "a" }, mode: "train", resources_id: "rs-b", metadata: null, config: rolloutConfig({ max_attempts: 1 }) },
      { input: { t: "c" }, mode: null, resources_id: null, metadata: { k: "b" }, config: rolloutConfig({ max_attempts: 2 }) },
      { input: { t: "b" }, mode: "val", resources_id: "rs-c", metadata: { k: "a" }, config: rolloutConfig({ max_attempts: 1 }) },
    ];
    rollouts = [];
    for (const spec of specs) rollouts.push((await c.enqueueRollout(spec.input, spec)).rollout_id);
    // Two end (in reverse order of creation), one fails, the rest stay queued with no end_time.
    await c.updateRollout(rollouts[3]!, { status: "succeeded" });
    await c.updateRollout(rollouts[0]!, { status: "cancelled" });
    await c.updateRollout(rollouts[5]!, { status: "failed" });

    // Attempts of one rollout: nullable worker_id, end_time, last_heartbeat_time, metadata.
    const started = await c.startRollout({ t: "attempts" }, { worker_id: "sortw-b" });
    rolloutId = started.rollout_id;
    attempts = [started.attempt.attempt_id];
    for (const w of [undefined, "sortw-a", undefined]) attempts.push((await c.startAttempt(rolloutId, w)).attempt.attempt_id);
    await c.updateAttempt(rolloutId, attempts[2]!, { status: "failed", metadata: { k: "b" } });
    await c.updateAttempt(rolloutId, attempts[0]!, { status: "succeeded", last_heartbeat_time: 1_700_000_000 });
    await c.updateAttempt(rolloutId, attempts[3]!, { last_heartbeat_time: 1_600_000_000, metadata: { k: "a" } });

    // Spans of that rollout's first attempt: nullable parent_id, start_time, end_time; ties on name and times.
    const aid = attempts[0]!;
    const spanSpecs: [number, string, Record<string, unknown>][] = [
      [1, "b", { parent_id: "00000000000000aa", start_time: 20, end_time: null }],
      [2, "a", { parent_id: null, start_time: null, end_time: 5 }],
      [3, "a", { parent_id: "00000000000000bb", start_time: 10, end_time: 5, status: { status_code: "ERROR", description: "x" } }],
      [4, "c", { parent_id: null, start_time: 10, end_time: null, attributes: { k: "v" } }],
    ];
    spans = [];
    for (const [seq, name, extra] of spanSpecs) spans.push((await c.addSpan(makeSpan(rolloutId, aid, seq, name, extra))).span_id);

    // Workers: a heartbeat sets stats and last_heartbeat_time; a dequeue sets last_dequeue_time and makes it busy.
    await c.updateWorker(workers[0]!, { load: 2 });
    await c.dequeueMany(1, workers[1]!); // takes rollouts[1], the oldest still queued
    await c.updateWorker(workers[2]!, { load: 1 });
    await c.dequeueMany(1, workers[3]!);

    // Resources: none of their fields is nullable; ties on version.
    resources = [];
    resources.push((await c.updateResources("sortrs-b", { m: { resource_type: "llm", endpoint: "b", model: "m" } })).resources_id);
    resources.push((await c.updateResources("sortrs-a", { m: { resource_type: "llm", endpoint: "a", model: "m" } })).resources_id);
    await c.updateResources("sortrs-b", { m: { resource_type: "llm", endpoint: "b2", model: "m" } });
    resources.push((await c.updateResources("sortrs-c", { m: { resource_type: "llm", endpoint: "c", model: "m" } })).resources_id);
  }, 60_000);
  afterAll(() => s?.close());

  const both = ["asc", "desc"] as const;

  it("the issue's example: GET /rollouts?sort_by=mode puts null first ascending, last descending", async () => {
    const modes = async (order: string) => (await get("/rollouts", [...rollouts.map((r) => ["rollout_id_in", r] as [string, unknown]), ["sort_by", "mode"], ["sort_order", order], ["limit", -1]])).items.map((r) => r.mode);
    expect(await modes("asc")).toEqual([null, null, "test", "train", "train", "val"]);
    expect(await modes("desc")).toEqual(["val", "train", "train", "test", null, null]);
  });

  it("a NULL end_time sorts last ascending and first descending, as the reference's +infinity", async () => {
    const ends = async (order: string) => (await get("/rollouts", [...rollouts.map((r) => ["rollout_id_in", r] as [string, unknown]), ["sort_by", "end_time"], ["sort_order", order]])).items.map((r) => r.rollout_id);
    const queued = [rollouts[1], rollouts[2], rollouts[4]];
    expect(await ends("asc")).toEqual([rollouts[3], rollouts[0], rollouts[5], ...queued]);
    expect(await ends("desc")).toEqual([...queued, rollouts[5], rollouts[0], rollouts[3]]);
  });

  const rolloutFields = ["rollout_id", "input", "start_time", "end_time", "mode", "resources_id", "status", "config", "metadata"];
  it.each(rolloutFields.flatMap((f) => both.map((o) => [f, o] as const)))("rollouts sorted by %s %s", async (field, order) => {
    const filter = rollouts.map((r) => ["rollout_id_in", r] as [string, unknown]);
    const inserted = (await get("/rollouts", [...filter, ["limit", -1]])).items;
    expect(inserted.map((r) => r.rollout_id)).toEqual(rollouts);
    const sorted = (await get("/rollouts", [...filter, ["sort_by", field], ["sort_order", order], ["limit", -1]])).items;
    expect(sorted.map((r) => r.rollout_id)).toEqual(referenceOrder(inserted, field, order).map((r) => r.rollout_id));
  });

  const attemptFields = ["rollout_id", "attempt_id", "sequence_id", "start_time", "end_time", "status", "worker_id", "last_heartbeat_time", "metadata"];
  it.each(attemptFields.flatMap((f) => both.map((o) => [f, o] as const)))("attempts sorted by %s %s", async (field, order) => {
    const inserted = (await get(`/rollouts/${rolloutId}/attempts`, [])).items;
    expect(inserted.map((a) => a.attempt_id)).toEqual(attempts);
    const sorted = (await get(`/rollouts/${rolloutId}/attempts`, [["sort_by", field], ["sort_order", order]])).items;
    expect(sorted.map((a) => a.attempt_id)).toEqual(referenceOrder(inserted, field, order).map((a) => a.attempt_id));
  });

  it("attempts: a NULL worker_id sorts first ascending, a NULL last_heartbeat_time last", async () => {
    const by = async (field: string, order: string) => (await get(`/rollouts/${rolloutId}/attempts`, [["sort_by", field], ["sort_order", order]])).items.map((a) => a.attempt_id);
    expect(await by("worker_id", "asc")).toEqual([attempts[1], attempts[3], attempts[2], attempts[0]]);
    expect(await by("worker_id", "desc")).toEqual([attempts[0], attempts[2], attempts[1], attempts[3]]);
    expect(await by("last_heartbeat_time", "asc")).toEqual([attempts[3], attempts[0], attempts[1], attempts[2]]);
    expect(await by("last_heartbeat_time", "desc")).toEqual([attempts[1], attempts[2], attempts[0], attempts[3]]);
  });

  // Fields kept only inside the stored span (attributes, events, …) sort by its JSON text, so the model does too.
  const spanColumns: Record<string, (s: Item) => string | undefined> = { status: (sp) => sp.status.status_code };
  const spanFields = ["rollout_id", "attempt_id", "sequence_id", "trace_id", "span_id", "parent_id", "name", "status", "start_time", "end_time"];
  it.each(spanFields.flatMap((f) => both.map((o) => [f, o] as const)))("spans sorted by %s %s", async (field, order) => {
    const bySeq = (await get("/spans", [["rollout_id", rolloutId]])).items;
    // Ties in arrival order: here by sequence id (issued on arrival), which this fixture sends in order.
    const inserted = spans.map((id) => bySeq.find((sp) => sp.span_id === id)!);
    const sorted = (await get("/spans", [["rollout_id", rolloutId], ["sort_by", field], ["sort_order", order]])).items;
    const text = spanColumns[field] as ((s: Item) => string) | undefined;
    expect(sorted.map((sp) => sp.span_id)).toEqual(referenceOrder(inserted, field, order, text).map((sp) => sp.span_id));
  });

  it("spans: a NULL parent_id sorts first ascending, a NULL start_time or end_time last", async () => {
    const by = async (field: string, order: string) => (await get("/spans", [["rollout_id", rolloutId], ["sort_by", field], ["sort_order", order]])).items.map((sp) => sp.span_id);
    expect(await by("parent_id", "asc")).toEqual([spans[1], spans[3], spans[0], spans[2]]);
    expect(await by("parent_id", "desc")).toEqual([spans[2], spans[0], spans[1], spans[3]]);
    expect(await by("start_time", "asc")).toEqual([spans[2], spans[3], spans[0], spans[1]]);
    expect(await by("start_time", "desc")).toEqual([spans[1], spans[0], spans[2], spans[3]]);
    expect(await by("end_time", "asc")).toEqual([spans[1], spans[2], spans[0], spans[3]]);
    expect(await by("end_time", "desc")).toEqual([spans[0], spans[3], spans[1], spans[2]]);
  });

  it("spans sorted by the fields kept in the stored span (attributes, events, links, context, parent, resource) follow its JSON text", async () => {
    const body = new Map<string, string>();
    const rows = await s.database.db.storeSpan.findMany({ where: { rolloutId }, select: { spanId: true, body: true } });
    for (const r of rows) body.set(r.spanId, r.body);
    const inserted = spans.map((id) => ({ span_id: id }));
    for (const field of ["attributes", "events", "links", "context", "parent", "resource"])
      for (const order of both) {
        const sorted = (await get("/spans", [["rollout_id", rolloutId], ["sort_by", field], ["sort_order", order]])).items;
        expect(sorted.map((sp) => sp.span_id)).toEqual(referenceOrder(inserted, field, order, (sp) => body.get(sp.span_id)!).map((sp) => sp.span_id));
      }
  });

  const workerFields = ["worker_id", "status", "heartbeat_stats", "last_heartbeat_time", "last_dequeue_time", "last_busy_time", "last_idle_time", "current_rollout_id", "current_attempt_id"];
  it.each(workerFields.flatMap((f) => both.map((o) => [f, o] as const)))("workers sorted by %s %s", async (field, order) => {
    const inserted = (await get("/workers", [["worker_id_contains", "sortw-"]])).items;
    expect(inserted.map((w) => w.worker_id)).toEqual(workers);
    const sorted = (await get("/workers", [["worker_id_contains", "sortw-"], ["sort_by", field], ["sort_order", order]])).items;
    expect(sorted.map((w) => w.worker_id)).toEqual(referenceOrder(inserted, field, order).map((w) => w.worker_id));
  });

  it("workers: NULL stats sort first ascending, a NULL dequeue time last", async () => {
    const by = async (field: string, order: string) => (await get("/workers", [["worker_id_contains", "sortw-"], ["sort_by", field], ["sort_order", order]])).items.map((w) => w.worker_id);
    expect(await by("heartbeat_stats", "asc")).toEqual(["sortw-a", "sortw-d", "sortw-c", "sortw-b"]);
    expect(await by("heartbeat_stats", "desc")).toEqual(["sortw-b", "sortw-c", "sortw-a", "sortw-d"]);
    expect(await by("last_dequeue_time", "asc")).toEqual(["sortw-a", "sortw-d", "sortw-b", "sortw-c"]);
    expect(await by("last_dequeue_time", "desc")).toEqual(["sortw-b", "sortw-c", "sortw-d", "sortw-a"]);
  });

  const resourceFields = ["resources_id", "create_time", "update_time", "version", "resources"];
  it.each(resourceFields.flatMap((f) => both.map((o) => [f, o] as const)))("resources sorted by %s %s", async (field, order) => {
    const inserted = (await get("/resources", [["resources_id_contains", "sortrs-"]])).items;
    expect(inserted.map((r) => r.resources_id)).toEqual(resources);
    const sorted = (await get("/resources", [["resources_id_contains", "sortrs-"], ["sort_by", field], ["sort_order", order]])).items;
    expect(sorted.map((r) => r.resources_id)).toEqual(referenceOrder(inserted, field, order).map((r) => r.resources_id));
  });
});
