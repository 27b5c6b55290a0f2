// Published exams over real HTTP (the production server's gate API path), on both databases: content
// addressing (the same content answers the same id and digest, 200 instead of 201), only a policy owner
// publishes, `expected` never reaches the learner's keys, and bad input is a 400 naming the field with no
// row written.
import { afterAll, beforeAll, expect, it } from "vitest";
import { digestOf } from "@/server/digest";
import { describeEachDialect } from "../../helpers/db";
import { cases, gateWorld, type GateWorld } from "../../helpers/gate-api";

describeEachDialect("gate API: datasets", (dialect) => {
  let world: GateWorld;
  beforeAll(async () => {
    world = await gateWorld(dialect, "gate-datasets");
  }, 60_000);
  afterAll(() => world?.close());

  it("publishes a held-out set content-addressed: the digest is over the normalised cases, the same content answers the same row", async () => {
    const body = { name: "faq held-out", kind: "held_out", cases: [{ id: "a", input: { q: 1 } }, { id: "b", input: "two", family: "refunds", protected: true, expected: { answer: 2 } }] };
    const first = await world.call("policy", "POST", "/v1/gate/datasets", body);
    expect(first.status).toBe(201);
    // The digest anyone can recompute: RFC 8785 canonical JSON of {name, kind, cases} with the defaults filled in.
    const normalised = [
      { id: "a", input: { q: 1 }, family: "general", protected: false, expected: null },
      { id: "b", input: "two", family: "refunds", protected: true, expected: { answer: 2 } },
    ];
    const digest = digestOf({ name: "faq held-out", kind: "held_out", cases: normalised });
    expect(first.body).toEqual({ dataset_id: `gds-${digest.slice(7, 23)}`, digest, case_count: 2, created: true });

    const before = await world.rows.counts();
    // Same content, keys in another order and the defaults spelled out: the same dataset, 200, nothing written.
    const again = await world.call("policy", "POST", "/v1/gate/datasets", { cases: [{ input: { q: 1 }, id: "a", family: "general", protected: false, expected: null }, body.cases[1]], kind: "held_out", name: "faq held-out" });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ dataset_id: first.body.dataset_id, digest, created: false });
    expect(await world.rows.counts()).toEqual(before);
    // The order of the cases is content: reordered, it is another exam.
    const reordered = await world.call("policy", "POST", "/v1/gate/datasets", { ...body, cases: [body.cases[1], body.cases[0]] });
    expect(reordered.status).toBe(201);
    expect(reordered.body.digest).not.toBe(digest);
  });

  it("serves `expected` to policy owners and verifiers only, never to runner or algorithm keys", async () => {
    const published = await world.call("policy", "POST", "/v1/gate/datasets", { name: "secret answers", kind: "canary", cases: cases(3, "s") });
    const path = `/v1/gate/datasets/${published.body.dataset_id}`;
    for (const learner of ["runner", "algorithm", "release_bot"] as const) {
      const seen = await world.call(learner, "GET", path);
      expect(seen.status).toBe(200);
      expect(seen.body.expected_included).toBe(false);
      expect(seen.body.cases.map((c: object) => Object.keys(c).sort())).toEqual([0, 1, 2].map(() => ["family", "id", "input", "protected"]));
      expect(JSON.stringify(seen.body)).not.toContain("s answer");
    }
    const owner = await world.person([{ role: "policy_owner", agent: null }]);
    for (const who of ["policy", "verifier", owner] as const) {
      const seen = await world.call(who, "GET", path);
      expect(seen.body.expected_included).toBe(true);
      expect(seen.body.cases[2]).toEqual({ id: "s-2", input: { question: "s question 2" }, family: "general", protected: false, expected: { answer: "s answer 2" } });
    }
    const viewer = await world.person([{ role: "viewer", agent: null }]);
    expect((await world.call(viewer, "GET", path)).body.expected_included).toBe(false);
  });

  it("keeps magic keys of inputs and expected outputs as they were sent (`__proto__`, `constructor`)", async () => {
    const raw = '{"name":"magic","kind":"held_out","cases":[{"id":"__proto__","input":{"__proto__":{"x":1},"constructor":2},"expected":{"__proto__":"y"}}]}';
    const published = await world.call("policy", "POST", "/v1/gate/datasets", raw);
    expect(published.status).toBe(201);
    const res = await fetch(new URL(`/v1/gate/datasets/${published.body.dataset_id}`, world.url), { headers: { authorization: `Bearer ${world.keys.get("policy")}` } });
    const text = await res.text();
    expect(text).toContain('"input":{"__proto__":{"x":1},"constructor":2}');
    expect(text).toContain('"expected":{"__proto__":"y"}');
  });

  it("only a policy owner publishes: runner, algorithm, verifier and release-bot keys and a trainer get 403, nothing written", async () => {
    const trainer = await world.person([{ role: "trainer", agent: null }]);
    const perAgentOwner = await world.person([{ role: "policy_owner", agent: "foreign-agent" }]);
    const before = await world.rows.counts();
    for (const who of ["runner", "algorithm", "verifier", "release_bot", trainer, perAgentOwner] as const) {
      const res = await world.call(who, "POST", "/v1/gate/datasets", { name: "my own exam", kind: "held_out", cases: cases(2) });
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body).toMatchObject({ error: "forbidden", message: expect.stringContaining('"policy:write"') });
    }
    expect((await world.call({ headers: {} }, "POST", "/v1/gate/datasets", { name: "x", kind: "held_out", cases: cases(1) })).status).toBe(401);
    expect(await world.rows.counts()).toEqual(before);
  });

  it.each([
    ["duplicate case ids", { name: "d", kind: "held_out", cases: [{ id: "a", input: 1 }, { id: "b", input: 2 }, { id: "a", input: 3 }] }, "cases.2.id", /duplicates cases\.0\.id/],
    ["a case without input", { name: "d", kind: "held_out", cases: [{ id: "a" }] }, "cases.0.input", /is required/],
    ["an unknown kind", { name: "d", kind: "exam", cases: [{ id: "a", input: 1 }] }, "kind", /"held_out", "canary"/],
    ["no cases", { name: "d", kind: "canary", cases: [] }, "cases", /at least 1 item/],
    ["an unknown field", { name: "d", kind: "canary", cases: [{ id: "a", input: 1, answer: 2 }] }, "cases.0", /unknown field "answer"/],
    ["a NUL in a case id", { name: "d", kind: "canary", cases: [{ id: "a\u0000", input: 1 }] }, "cases.0.id", /NUL/],
    ["an array body", [1], "body", /must be a JSON object/],
    ["broken JSON", '{"name": "d", "kind": ', "body", /not valid JSON/],
    // JSON.parse reads 1e999 as Infinity, which has no canonical JSON form (it answered 500, found by the hostile cases).
    ["a number out of range in an expected output", '{"name":"d","kind":"held_out","cases":[{"id":"a","input":1,"expected":{"a":1e999}}]}', "cases.0.expected.a", /finite number/],
    ["a number out of range in an input", '{"name":"d","kind":"held_out","cases":[{"id":"a","input":[-1e400]}]}', "cases.0.input.0", /finite number/],
  ])("%s: 400 naming the field, nothing written", async (_what, body, field, message) => {
    const before = await world.rows.counts();
    const res = await world.call("policy", "POST", "/v1/gate/datasets", body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(res.body.message).toMatch(message);
    expect(res.body.message).toContain(field === "body" ? "body" : field);
    expect(await world.rows.counts()).toEqual(before);
  });

  it("takes up to 10,000 cases in one body (several MiB, whole through the server's fast path) and refuses 10,001", { timeout: 60_000 }, async () => {
    const many = cases(10_000, "bulk").map((c) => ({ ...c, input: { question: `${c.id} ${"x".repeat(300)}` } }));
    const res = await world.call("policy", "POST", "/v1/gate/datasets", { name: "bulk", kind: "held_out", cases: many });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    expect(res.body.case_count).toBe(10_000);
    expect(await world.database.db.gateDatasetCase.count({ where: { datasetId: res.body.dataset_id } })).toBe(10_000);
    const before = await world.rows.counts();
    const over = await world.call("policy", "POST", "/v1/gate/datasets", { name: "too many", kind: "held_out", cases: cases(10_001) });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ field: "cases", message: expect.stringMatching(/at most 10000 items/) });
    expect(await world.rows.counts()).toEqual(before);
  });

  it("an unknown dataset id is a 404 naming it; a malformed path is a 400", async () => {
    expect(await world.call("runner", "GET", "/v1/gate/datasets/gds-0000000000000000")).toMatchObject({ status: 404, body: { error: "not_found", field: "dataset_id" } });
    expect((await world.call("runner", "GET", "/v1/gate/datasets/%E0%A4%A")).status).toBe(400);
    expect((await world.call("runner", "GET", "/v1/gate/datasets/__proto__")).status).toBe(404);
  });
});

