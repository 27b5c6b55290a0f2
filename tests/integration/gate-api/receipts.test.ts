// Declaring a receipt before training, binding the candidate the algorithm wrote, asking for its gate run —
// over real HTTP, on both databases. The server resolves every pin itself; moving or unknown names are a 400
// naming the field; a second bind is a 409; nothing is half-written by a refusal.
import { afterAll, beforeAll, expect, it } from "vitest";
import { readPointer } from "@/server/candidates/pointers";
import { describeEachDialect } from "../../helpers/db";
import { AGENT, declaration, EVALUATOR, gateWorld, publishExams, type GateWorld } from "../../helpers/gate-api";

describeEachDialect("gate API: receipts", (dialect) => {
  let world: GateWorld;
  let exams: { heldOut: string; canary: string };
  beforeAll(async () => {
    world = await gateWorld(dialect, "gate-receipts");
    exams = await publishExams(world);
  }, 60_000);
  afterAll(() => world?.close());

  const declare = (overrides: Record<string, unknown> = {}, who: Parameters<GateWorld["call"]>[0] = "algorithm") => world.call(who, "POST", "/v1/gate/receipts", declaration(world, exams, overrides));
  async function candidateVersion(template: string) {
    const put = await world.store.updateResources("foreign-apo-beam", { prompt: { resource_type: "prompt_template", template, engine: "f-string" } });
    return (await world.store.resourcesVersion("foreign-apo-beam", put.version))!;
  }

  it("declares stage 1 with every pin resolved by the server, as the caller, against the versions in force", async () => {
    const res = await declare();
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.receipt_id).toMatch(/^rcpt-[0-9a-f]{12}$/);
    const view = await world.call("runner", "GET", `/v1/gate/receipts/${res.body.receipt_id}`);
    expect(view.status).toBe(200);
    const d = view.body.declaration;
    expect(d.parent).toEqual(world.parent);
    const held = await world.database.db.gateDataset.findUniqueOrThrow({ where: { id: exams.heldOut } });
    expect(d.held_out_dataset).toEqual({ dataset_id: exams.heldOut, digest: held.digest, case_count: 12 });
    expect(d.canary_dataset).toMatchObject({ dataset_id: exams.canary, case_count: 6 });
    const evaluator = await world.database.db.registryEntry.findFirstOrThrow({ where: { kind: "evaluator", name: EVALUATOR.id } });
    expect(d.evaluator).toEqual({ ...EVALUATOR, digest: evaluator.digest });
    expect(d.declared_by).toBe(view.body.declared_by);
    expect(d.declared_by).toMatch(/^ak-/); // the algorithm's key
    expect(d.training_data).toMatchObject({ resources_ids: ["foreign-apo-beam"], id: expect.stringMatching(/^rsids-/) });
    expect(d.versions.evaluator).toBe(`${EVALUATOR.id}@${EVALUATOR.version}#${evaluator.digest}`);
    expect(view.body).toMatchObject({ candidate: null, gate_runs: [], verdict: null, checks: null });
  });

  it.each([
    ["parent `latest`", { parent: { resources_id: "latest", version: 1 } }, "parent.resources_id", /moving name "latest"/],
    ["parent `prompt@head`", { parent: { resources_id: "prompt@head", version: 1 } }, "parent.resources_id", /moving name "head"/],
    ["parent version `latest`", { parent: { resources_id: "foreign-prompt", version: "latest" } }, "parent.version", /must be a number/],
    ["an unknown parent", { parent: { resources_id: "nobody-wrote-this", version: 1 } }, "parent.resources_id", /no resources "nobody-wrote-this"/],
    ["an unknown parent version", { parent: { resources_id: "foreign-prompt", version: 9 } }, "parent.version", /has no version 9/],
    ["evaluator `latest`", { evaluator: { id: EVALUATOR.id, version: "latest" } }, "evaluator.version", /moving name "latest"/],
    ["evaluator `^3`", { evaluator: { id: EVALUATOR.id, version: "^3" } }, "evaluator.version", /moving name/],
    ["evaluator id `latest-exam`", { evaluator: { id: "latest-exam", version: "3" } }, "evaluator.id", /moving name "latest"/],
    ["an unknown evaluator version", { evaluator: { id: EVALUATOR.id, version: "4" } }, "evaluator.version", /no version "4"/],
    ["an unknown evaluator", { evaluator: { id: "no-such-exam", version: "1" } }, "evaluator.id", /no evaluator "no-such-exam"/],
    ["an unknown held-out dataset", { held_out_dataset: "gds-0123456789abcdef" }, "held_out_dataset", /no published dataset/],
    ["a canary set as the held-out one", { held_out_dataset: "CANARY" }, "held_out_dataset", /is a canary dataset, not a held_out one/],
    ["training data in both forms", { training_data: { id: "ds-1", digest: `sha256:${"0".repeat(64)}`, resources_ids: ["a"] } }, "training_data", /either a snapshot/],
    ["an approver role that cannot approve", { approvers: { canary: { actor_ids: [], roles: ["runner"] }, default: { actor_ids: ["u1"], roles: [] } } }, "approvers.canary.roles.0", /cannot hold the "approval:canary" scope/],
    ["a `__proto__` key in the algorithm's config", { algorithm: JSON.parse('{"name":"apo","config":{"__proto__":{"x":1}}}') as unknown }, "algorithm.config.__proto__", /cannot be kept in a receipt/],
    ["an unknown field", { held_out: "x" }, "body", /unknown field "held_out"/],
  ])("%s: 400 naming the field, nothing written", async (_what, overrides, field, message) => {
    const o = overrides as Record<string, unknown>;
    if (o.held_out_dataset === "CANARY") o.held_out_dataset = exams.canary;
    const before = await world.rows.counts();
    const res = await declare(o);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.field).toBe(field);
    expect(res.body.message).toMatch(message);
    if (field !== "body") expect(res.body.message).toContain(field);
    expect(await world.rows.counts()).toEqual(before);
  });

  it("only callers who may train the agent declare: a runner key or a trainer of another agent gets 403", async () => {
    const otherTrainer = await world.person([{ role: "trainer", agent: "another-agent" }]);
    const ownTrainer = await world.person([{ role: "trainer", agent: AGENT }]);
    const before = await world.rows.counts();
    for (const who of ["runner", "verifier", "policy", otherTrainer] as const) {
      const res = await declare({}, who);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.message).toContain('"training:run"');
    }
    expect(await world.rows.counts()).toEqual(before);
    expect((await declare({}, ownTrainer)).status).toBe(201);
  });

  it("binds the candidate the algorithm wrote (digest from the store), moves latest-candidate only; a second bind is a 409 that writes nothing", async () => {
    const { body } = await declare();
    const receipt = body.receipt_id as string;
    const written = await candidateVersion("Answer {question} briefly and cite the FAQ.");
    const bound = await world.call("algorithm", "POST", `/v1/gate/receipts/${receipt}/candidate`, { resources_id: "foreign-apo-beam", version: written.version });
    expect(bound.status, JSON.stringify(bound.body)).toBe(201);
    expect(bound.body).toEqual({ receipt_id: receipt, candidate_id: expect.stringMatching(/^cand-/), digest: written.digest });
    const candidate = await world.database.db.candidate.findUniqueOrThrow({ where: { id: bound.body.candidate_id } });
    expect(candidate).toMatchObject({ agent: AGENT, resourcesId: "foreign-apo-beam", version: written.version, digest: written.digest, parentDigest: world.parent.digest });
    expect(JSON.parse(candidate.stage1).candidate).toEqual({ resourceId: "foreign-apo-beam", version: written.version, digest: written.digest });
    expect(await readPointer(world.database.db, AGENT, "latest_candidate")).toMatchObject({ candidateId: candidate.id, digest: written.digest });
    expect(await readPointer(world.database.db, AGENT, "approved_default")).toBeNull();

    const other = await candidateVersion("A different prompt.");
    const before = await world.rows.counts();
    const again = await world.call("algorithm", "POST", `/v1/gate/receipts/${receipt}/candidate`, { resources_id: "foreign-apo-beam", version: other.version });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "conflict", field: "receipt_id", message: expect.stringContaining(candidate.id) });
    expect(await world.rows.counts()).toEqual(before);

    const view = await world.call("release_bot", "GET", `/v1/gate/receipts/${receipt}`);
    expect(view.body).toMatchObject({ candidate_id: candidate.id, candidate: { resources_id: "foreign-apo-beam", version: written.version, digest: written.digest } });
  });

  it("two binds at once: exactly one wins, the other is a 409, one candidate exists", async () => {
    const { body } = await declare();
    const [a, b] = [await candidateVersion("race one"), await candidateVersion("race two")];
    const answers = await Promise.all([a, b].map((v) => world.call("algorithm", "POST", `/v1/gate/receipts/${body.receipt_id}/candidate`, { resources_id: "foreign-apo-beam", version: v.version })));
    expect(answers.map((x) => x.status).sort()).toEqual([201, 409]);
    expect(await world.database.db.candidate.count({ where: { resourcesId: "foreign-apo-beam", version: { in: [a.version, b.version] } } })).toBe(1);
  });

  it.each([
    ["the parent itself", () => ({ resources_id: "foreign-prompt", version: 1 }), "resources_id", /its own parent/],
    ["an unknown resources id", () => ({ resources_id: "never-written", version: 1 }), "resources_id", /no resources "never-written"/],
    ["an unknown version", () => ({ resources_id: "foreign-apo-beam", version: 999 }), "version", /has no version 999/],
    ["`latest`", () => ({ resources_id: "latest", version: 1 }), "resources_id", /moving name/],
  ])("binding %s: 400 naming the field, nothing written", async (_what, bodyOf, field, message) => {
    await candidateVersion("something to bind");
    const { body } = await declare();
    const before = await world.rows.counts();
    const res = await world.call("algorithm", "POST", `/v1/gate/receipts/${body.receipt_id}/candidate`, bodyOf());
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ field, message: expect.stringMatching(message) });
    expect(await world.rows.counts()).toEqual(before);
  });

  it("a declared candidate resources id binds only that id", async () => {
    const { body } = await declare({ candidate_resources_id: "foreign-declared" });
    const put = await world.store.updateResources("foreign-other", { prompt: { resource_type: "prompt_template", template: "x", engine: "f-string" } });
    const res = await world.call("algorithm", "POST", `/v1/gate/receipts/${body.receipt_id}/candidate`, { resources_id: "foreign-other", version: put.version });
    expect(res).toMatchObject({ status: 400, body: { field: "resources_id", message: expect.stringMatching(/declared the candidate as foreign-declared/) } });
  });

  it("asks for a gate run through the product's queue once bound (412 before), and reads its status", async () => {
    const { body } = await declare();
    const receipt = body.receipt_id as string;
    const early = await world.call("algorithm", "POST", `/v1/gate/receipts/${receipt}/gate-runs`, {});
    expect(early).toMatchObject({ status: 412, body: { error: "precondition_failed", field: "receipt_id" } });
    const v = await candidateVersion("gate me");
    const bound = await world.call("algorithm", "POST", `/v1/gate/receipts/${receipt}/candidate`, { resources_id: "foreign-apo-beam", version: v.version });
    expect((await world.call("runner", "POST", `/v1/gate/receipts/${receipt}/gate-runs`, {})).status).toBe(403);
    const queued = await world.call("algorithm", "POST", `/v1/gate/receipts/${receipt}/gate-runs`, {});
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    expect(queued.body).toMatchObject({ gate_run_id: expect.stringMatching(/^gr-/), receipt_id: receipt, candidate_id: bound.body.candidate_id, status: "queued" });
    const status = await world.call("runner", "GET", `/v1/gate/gate-runs/${queued.body.gate_run_id}`);
    expect(status.body).toMatchObject({ gate_run_id: queued.body.gate_run_id, receipt_id: receipt, status: "queued", phase: "queued", verdict: null, checks: null });
    const view = await world.call("runner", "GET", `/v1/gate/receipts/${receipt}`);
    expect(view.body.gate_runs).toEqual([expect.objectContaining({ gate_run_id: queued.body.gate_run_id, status: "queued" })]);
    expect((await world.call("runner", "GET", "/v1/gate/gate-runs/gr-nope")).status).toBe(404);
  });

  it("unknown receipts are 404s naming receipt_id, for callers who may act at all", async () => {
    expect(await world.call("algorithm", "POST", "/v1/gate/receipts/rcpt-000000000000/candidate", { resources_id: "x", version: 1 })).toMatchObject({ status: 404, body: { field: "receipt_id" } });
    expect((await world.call("runner", "POST", "/v1/gate/receipts/rcpt-000000000000/candidate", { resources_id: "x", version: 1 })).status).toBe(403);
    expect((await world.call("runner", "GET", "/v1/gate/receipts/rcpt-000000000000")).status).toBe(404);
  });
});
