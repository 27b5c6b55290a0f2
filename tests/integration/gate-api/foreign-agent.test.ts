// The gate for any Agent Lightning agent, end to end: a separate process that speaks only HTTP and imports nothing
// from this repository (tests/foreign-agent/agent.mjs, plain `node`) plays a prompt-template agent as algorithm,
// runner and verifier with three keys: declare → train on rollouts tagged with the receipt → bind → gate run (its
// runner serving the locked-gate, canary and rollback rollouts the gate enqueues) → verifications → the verdict.
// The server side here is the production listener (store + gate API) and the gate's orchestrator loop.
import { afterAll, beforeAll, expect, it } from "vitest";
import { orchestrateGates } from "@/server/receipts/gate-queue";
import { publishRegistryEntry } from "@/server/receipts/registries";
import { SYSTEM } from "../../helpers/auth";
import { describeEachDialect } from "../../helpers/db";
import { runForeignAgent, type ForeignReport } from "../../helpers/foreign-agent";
import { AGENT, gateWorld, type GateWorld } from "../../helpers/gate-api";

const question = (i: number, family: string) => (family === "refunds" ? `Can I get a refund for order ${i}?` : `h question ${i}`);

const runAgent = (world: GateWorld, exams: { heldOut: string; canary: string }, variant: string, deadlineSeconds = 90) => runForeignAgent(world, exams, { variant, deadlineSeconds });

const statuses = (r: ForeignReport) => Object.fromEntries((r.checks ?? []).map((c) => [c.id, c.status]));

describeEachDialect("a foreign agent over HTTP only", (dialect) => {
  let world: GateWorld;
  let exams: { heldOut: string; canary: string };
  const orchestrator = new AbortController();
  beforeAll(async () => {
    world = await gateWorld(dialect, "foreign");
    // The policy owner's rules for this agent: its one tool has no side effects; its model server's price.
    await publishRegistryEntry(world.database, { kind: "tool_contract", name: "search_kb", agent: AGENT, body: { tool: "search_kb", side_effects: [] }, actor: SYSTEM });
    await publishRegistryEntry(world.database, { kind: "model_server", name: "rule-based", agent: AGENT, version: "1", body: { pricing: { input_usd_per_million_tokens: 0.5, output_usd_per_million_tokens: 1.5 } }, actor: SYSTEM });
    // 20 held-out cases: the default policy's floor for check 4 (fewer cannot show a gain).
    const heldOut = Array.from({ length: 20 }, (_, i) => {
      const family = i % 4 === 0 ? "refunds" : "general";
      return { id: `h-${i}`, input: { question: question(i, family) }, family, protected: family === "refunds" };
    });
    const canary = Array.from({ length: 4 }, (_, i) => ({ id: `c-${i}`, input: { question: `c question ${i}` }, expected: { answer: `c answer ${i}` } }));
    const held = await world.call("policy", "POST", "/v1/gate/datasets", { name: "foreign held-out", kind: "held_out", cases: heldOut });
    const can = await world.call("policy", "POST", "/v1/gate/datasets", { name: "foreign canary", kind: "canary", cases: canary });
    exams = { heldOut: held.body.dataset_id, canary: can.body.dataset_id };
    void orchestrateGates(world.database, orchestrator.signal, { intervalMs: 50, owner: "foreign-test" });
  }, 60_000);
  afterAll(async () => {
    orchestrator.abort();
    await world?.close();
  });

  it("declare → train → bind → gate run served by its own runner → verified canary → READY FOR APPROVAL", async () => {
    const r = await runAgent(world, exams, "ok");
    expect(r.declare).toEqual({ status: 201, field: null });
    expect(r.bind).toBe(201);
    expect(r.runnerErrors ?? 0).toBe(0);
    expect(r.status).toBe("done");
    expect(statuses(r), JSON.stringify(r.checks, null, 1)).toEqual({ 1: "pass", 2: "pass", 3: "pass", 4: "pass", 5: "pass", 6: "pass", 7: expect.not.stringMatching(/^pass$/) });
    expect(r.verdict, r.checks!.find((c) => c.id === 7)!.explanation).toBe("READY FOR APPROVAL");
  }, 180_000);

  it("a canary tool outside the boundary fails check 6, naming it", async () => {
    const r = await runAgent(world, exams, "tool-outside");
    const check6 = r.checks!.find((c) => c.id === 6)!;
    expect(check6.status).toBe("fail");
    expect(check6.explanation).toMatch(/delete_record/);
    expect(r.verdict).toBe("QUARANTINED");
  }, 180_000);

  it("a runner that stops answering leaves the cases unavailable — QUARANTINED, never a pass", async () => {
    const r = await runAgent(world, exams, "runner-stops", 2);
    expect(r.status).toBe("done");
    const s = statuses(r);
    expect([s[4], s[5]]).toEqual(["unavailable", "unavailable"]);
    expect(s[6]).not.toBe("pass");
    expect(s[7]).not.toBe("pass");
    expect(r.verdict).toBe("QUARANTINED");
  }, 180_000);

  it("reward spans naming another evaluator version leave the locked gate unavailable", async () => {
    const r = await runAgent(world, exams, "wrong-evaluator");
    const s = statuses(r);
    expect([s[4], s[5]]).toEqual(["unavailable", "unavailable"]);
    expect(r.checks!.find((c) => c.id === 4)!.explanation).toMatch(/locked/i);
    expect(r.verdict).toBe("QUARANTINED");
  }, 180_000);

  it("the learner never writes its exam: an algorithm key publishing a held-out set or posting a verification gets 403", async () => {
    const r = await runAgent(world, exams, "learner-writes-exam");
    expect([r.publishDataset, r.postVerification]).toEqual([403, 403]);
  }, 60_000);

  it("a parent named `latest` is refused with 400 naming the field", async () => {
    const r = await runAgent(world, exams, "parent-latest");
    expect(r.declare).toEqual({ status: 400, field: "parent.resources_id" });
  }, 60_000);
}, { postgresql: "full-run" });
