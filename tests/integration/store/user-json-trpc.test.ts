// Stored user JSON reaches the dashboard whatever its keys. Runners and algorithms store objects with keys
// `__proto__`, `constructor`, `prototype`, `toString` over the store's REST API; the dashboard reads them over
// real HTTP through the tRPC endpoint (mounted as app/api/trpc does) and the browser's own client and query
// cache (components/trpc/client.ts). Every read answers, every key arrives as an own key, and no prototype
// — of the answer or of Object — changes.
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeQueryClient, makeTrpcClient } from "@/components/trpc/client";
import { makePerson, signIn } from "../../helpers/auth";
import { describeEachDialect } from "../../helpers/db";
import { makeSpan } from "../../helpers/store";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";
import { serveTrpc, type TrpcServer } from "../../helpers/trpc-server";

// Parsed from text, as a request body is: `__proto__` is then an own key, not a prototype.
const HOSTILE_TEXT = String.raw`{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"},"toString":"text","hasOwnProperty":1,"a.b\\c":[{"__proto__":{"polluted":"yes"}}]}`;
const hostile = () => JSON.parse(HOSTILE_TEXT) as Record<string, unknown>;
/** A JSON object (for fields the wire validates as objects) with hostile top-level keys and a hostile value. */
const hostileObject = () => JSON.parse(`{"constructor":1,"prototype":2,"user":${HOSTILE_TEXT}}`) as Record<string, unknown>;

type Json = Record<string, unknown>;

/** The hostile object arrived whole: its keys are own keys, its prototype is Object.prototype, its text unchanged. */
function expectHostile(value: unknown, where: string, text = JSON.stringify(hostile())) {
  const v = value as Json;
  expect(v, where).toBeTypeOf("object");
  expect(Object.getPrototypeOf(v), `${where}: prototype`).toBe(Object.prototype);
  for (const key of ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "a.b\\c"]) expect(Object.hasOwn(v, key), `${where}: own key ${key}`).toBe(true);
  expect(Object.getPrototypeOf(v["__proto__"]), `${where}.__proto__: prototype`).toBe(Object.prototype);
  const nested = (v["a.b\\c"] as Json[])[0]!;
  expect(Object.hasOwn(nested, "__proto__"), `${where}: nested __proto__`).toBe(true);
  expect(JSON.stringify(v), `${where}: text`).toBe(text);
}

function expectHostileObject(value: unknown, where: string, userText?: string) {
  const v = value as Json;
  expect(Object.getPrototypeOf(v), `${where}: prototype`).toBe(Object.prototype);
  expect([Object.hasOwn(v, "constructor") && v.constructor, Object.hasOwn(v, "prototype") && v.prototype], where).toEqual([1, 2]);
  expectHostile(v.user, `${where}.user`, userText);
}

function expectUnpolluted() {
  expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);
  expect(({} as Json).polluted).toBeUndefined();
  expect(Object.hasOwn(Array.prototype, "polluted")).toBe(false);
}

describeEachDialect("stored user JSON with hostile keys on the dashboard", (dialect) => {
  let srv: StoreServer;
  let web: TrpcServer;
  let client: ReturnType<typeof makeTrpcClient>;
  const ids = { rollout: "", attempt: "", span: "", worker: "Worker-hostile", resources: "" };

  beforeAll(async () => {
    srv = await startStoreServer(dialect, "userjson");
    web = await serveTrpc(srv.database);
    // A policy owner: reads the dashboard and may publish registry records.
    const person = await makePerson(srv.database, [{ role: "policy_owner", agent: null }]);
    const cookie = await signIn(srv.database, person.email, person.password);
    client = makeTrpcClient(web.url, () => ({ cookie }));

    // Stored the way runners and algorithms store them: over /v1/agl with their keys.
    const rollout = await srv.client.enqueueRollout(hostile(), { metadata: hostileObject() });
    ids.rollout = rollout.rollout_id;
    const claim = await srv.client.dequeue(ids.worker);
    ids.attempt = claim.attempt.attempt_id;
    await srv.client.updateAttempt(ids.rollout, ids.attempt, { metadata: hostileObject() });
    const span = makeSpan(ids.rollout, ids.attempt, 1, "constructor", { attributes: hostileObject() });
    ids.span = span.span_id;
    await srv.client.addSpan(span);
    await srv.client.updateWorker(ids.worker, hostileObject());
    const llm = (sampling: Json) => ({ resource_type: "llm", endpoint: "http://llm.local/v1", model: "m", api_key: "sk-secret", sampling_parameters: sampling });
    const added = await srv.client.addResources(JSON.parse(JSON.stringify({ constructor: llm(hostileObject()), prototype: llm({}) })));
    ids.resources = added.resources_id;
    await srv.client.updateResources(ids.resources, { constructor: llm({ ...hostileObject(), changed: true }) });
  });
  afterAll(async () => {
    await web?.close();
    await srv?.close();
  });

  it("every store read the dashboard makes answers, with the keys intact", async () => {
    const rollouts = await client.store.listRollouts.query({ limit: 10 });
    const row = rollouts.items.find((r) => r.rollout_id === ids.rollout)!;
    expectHostile(row.input, "listRollouts.input");
    expectHostileObject(row.metadata, "listRollouts.metadata");

    const attempts = await client.store.listAttempts.query({ rollout_id: ids.rollout });
    expectHostileObject(attempts.items[0]!.metadata, "listAttempts.metadata");

    const spans = await client.store.querySpans.query({ rollout_id: ids.rollout });
    expectHostileObject(spans.items[0]!.attributes, "querySpans.attributes");
    const span = await client.store.getSpan.query({ rollout_id: ids.rollout, attempt_id: ids.attempt, span_id: ids.span });
    expectHostileObject(span!.attributes, "getSpan.attributes");
    const outline = await client.store.querySpanOutline.query({ rollout_id: ids.rollout });
    expect(outline.items.map((s) => s.name)).toEqual(["constructor"]);

    const workers = await client.store.listWorkers.query({ limit: 10 });
    expectHostileObject(workers.items.find((w) => w.worker_id === ids.worker)!.heartbeat_stats, "listWorkers.heartbeat_stats");

    const resources = await client.store.listResources.query({ limit: 10 });
    const named = resources.items.find((r) => r.resources_id === ids.resources)!.resources as unknown as Record<string, Json>;
    expect(Object.hasOwn(named, "constructor")).toBe(true);
    expect(named["constructor"]!.api_key).toBe("••••••••");
    expect((named["constructor"]!.sampling_parameters as Json).changed).toBe(true);
    const first = await client.store.getResourcesVersion.query({ resources_id: ids.resources, version: 1 });
    const v1 = first!.resources as unknown as Record<string, Json>;
    expect(Object.keys(v1).sort()).toEqual(["constructor", "prototype"]);
    expectHostileObject(v1["constructor"]!.sampling_parameters, "getResourcesVersion.sampling_parameters");
    const versions = await client.store.listResourcesVersions.query({ resources_id: ids.resources });
    expectHostileObject((versions[0]!.resources as unknown as Record<string, Json>)["constructor"]!.sampling_parameters, "listResourcesVersions");
    const history = await client.store.listResourcesHistory.query({ resources_id: ids.resources });
    expect(history.items.map((h) => h.names)).toEqual([["constructor"], ["constructor", "prototype"]]);
    const summaries = await client.store.listResourcesSummaries.query({ limit: 10 });
    expect(summaries.items.find((s) => s.resources_id === ids.resources)!.names).toEqual(["constructor"]);
    const diff = await client.store.diffResources.query({ resources_id: ids.resources, from_version: 1, to_version: 2 });
    expect(diff.entries.map((e) => `${e.change} ${e.path}`)).toContain("added constructor.sampling_parameters.changed");
    expect(diff.entries.map((e) => `${e.change} ${e.path}`)).toContain("removed prototype.endpoint");
    expectUnpolluted();
  });

  it("a registry record with hostile keys round-trips through a mutation and a list", async () => {
    const body = { ...hostileObject(), evaluator: "hostile-keys" };
    const published = await client.registries.publish.mutate({ kind: "evaluator", name: "hostile-keys", agent: "*", body });
    expect(published.createdAt).toBeInstanceOf(Date);
    const [record] = await client.registries.list.query({ kind: "evaluator", name: "hostile-keys" });
    expect(record!.createdAt).toBeInstanceOf(Date);
    // zod drops `__proto__` from tRPC input, so the stored body is the yardstick for the rest.
    const stored = await srv.database.db.registryEntry.findFirstOrThrow({ where: { kind: "evaluator", name: "hostile-keys" } });
    const got = record!.body as Json;
    expect(JSON.stringify(got)).toBe(JSON.stringify(JSON.parse(stored.body)));
    const user = got.user as Json;
    expect([got, user].map((o) => ["constructor", "prototype"].every((k) => Object.hasOwn(o, k)))).toEqual([true, true]);
    expect([Object.hasOwn(user, "toString"), Object.getPrototypeOf(user) === Object.prototype]).toEqual([true, true]);
    expectUnpolluted();
  });

  it("the browser's query cache keeps the keys through a refetch that changed the data", async () => {
    const queryClient = makeQueryClient();
    const queryKey = ["workers", ids.worker];
    // What components see: the cached (structurally shared) data, not the fetch's own result.
    const read = async () => {
      await queryClient.fetchQuery({ queryKey, queryFn: () => client.store.listWorkers.query({ limit: 10 }), staleTime: 0 });
      return queryClient.getQueryData(queryKey) as Awaited<ReturnType<typeof client.store.listWorkers.query>>;
    };
    await read();
    // A change inside the object that holds `__proto__`, so the cache builds a new copy of it.
    const changed = hostileObject();
    (changed.user as Json)["toString"] = "changed";
    await srv.client.updateWorker(ids.worker, changed);
    const after = await read();
    const stats = after.items.find((w) => w.worker_id === ids.worker)!.heartbeat_stats as Json;
    expectHostileObject(stats, "cached listWorkers.heartbeat_stats", JSON.stringify(changed.user));
    expectUnpolluted();
  });
});
