// Issue 23, finding 5, with real processes: the demo's desk runners (scripts/runner.ts × 2, with the key `npm
// start` makes for them) run beside a foreign agent (tests/foreign-agent/agent.mjs, plain node over HTTP, its own
// runner key bound to its agent). The foreign agent's gate run completes on its own runner's work, and the desk
// runners, busy with the desk's own rollouts, never take one of the foreign agent's — nor it one of theirs.
import { afterAll, beforeAll, expect, it } from "vitest";
import { authenticateApiKey, createApiKey } from "@/server/auth/api-keys";
import { orchestrateGates } from "@/server/receipts/gate-queue";
import { publishRegistryEntry } from "@/server/receipts/registries";
import { DEMO_AGENT, demoRunnerKey, demoVerifierKey } from "@/server/training/demo";
import { toPolicyResource } from "@/server/trainers/policy-resource";
import type { JsonObject } from "@/server/store/types";
import { SYSTEM } from "../../helpers/auth";
import { describeEachDialect } from "../../helpers/db";
import { runForeignAgent } from "../../helpers/foreign-agent";
import { AGENT, gateWorld, type GateWorld } from "../../helpers/gate-api";
import { parentPolicy } from "../../helpers/gate-rollouts";
import { startScript, type ScriptProcess } from "../../helpers/script-process";

describeEachDialect("a foreign agent's gate run beside the demo's desk runners and verifier (real processes)", (dialect) => {
  let world: GateWorld;
  let exams: { heldOut: string; canary: string };
  let desk: ScriptProcess[] = [];
  const orchestrator = new AbortController();
  beforeAll(async () => {
    world = await gateWorld(dialect, "beside-desk");
    await publishRegistryEntry(world.database, { kind: "tool_contract", name: "search_kb", agent: AGENT, body: { tool: "search_kb", side_effects: [] }, actor: SYSTEM });
    await publishRegistryEntry(world.database, { kind: "model_server", name: "rule-based", agent: AGENT, version: "1", body: { pricing: { input_usd_per_million_tokens: 0.5, output_usd_per_million_tokens: 1.5 } }, actor: SYSTEM });
    // 20 held-out cases: the default policy's floor for check 4.
    const heldOut = Array.from({ length: 20 }, (_, i) => ({ id: `h-${i}`, input: { question: i % 4 === 0 ? `Can I get a refund for order ${i}?` : `h question ${i}` }, family: i % 4 === 0 ? "refunds" : "general", protected: i % 4 === 0 }));
    const canary = Array.from({ length: 4 }, (_, i) => ({ id: `c-${i}`, input: { question: `c question ${i}` }, expected: { answer: `c answer ${i}` } }));
    exams = {
      heldOut: (await world.call("policy", "POST", "/v1/gate/datasets", { name: "foreign held-out", kind: "held_out", cases: heldOut })).body.dataset_id,
      canary: (await world.call("policy", "POST", "/v1/gate/datasets", { name: "foreign canary", kind: "canary", cases: canary })).body.dataset_id,
    };
    // The demo's runners, exactly as `npm start` runs them: its key, two processes.
    const deskKey = await demoRunnerKey(world.database);
    desk = [1, 2].map((i) =>
      startScript("scripts/runner.ts", ["--url", world.url, "--id", `demo-runner-${i}`, "--quiet"], { ...process.env, LIGHTGATE_RUNNER_KEY: deskKey, DATABASE_URL: world.database.url }),
    );
    // …and its verifier, with the demo's verifier key: it re-reads the desk's Ticket DB, never the foreign destination.
    desk.push(startScript("scripts/verifier.ts", ["--url", world.url, "--quiet"], { ...process.env, LIGHTGATE_VERIFIER_KEY: await demoVerifierKey(world.database), DATABASE_URL: world.database.url }));
    void orchestrateGates(world.database, orchestrator.signal, { intervalMs: 50, owner: "beside-desk" });
  }, 60_000);
  afterAll(async () => {
    orchestrator.abort();
    for (const p of desk) await p.stop();
    await world?.close();
  });

  it("the foreign gate run completes on its own runner; neither side's runners take the other's rollouts", async () => {
    // The desk keeps its runners busy with its own training episodes throughout.
    await world.store.updateResources("desk-policy", { policy: toPolicyResource(parentPolicy()) as unknown as JsonObject });
    const episode = (i: number) => ({ kind: "lightgate.episode", environment: "support-desk", distribution: "v2", task_seed: `desk/${i}`, options: { toolFailureRate: 0 }, policy_resource: "policy" });
    const deskIds = (await world.store.enqueueRollouts(Array.from({ length: 40 }, (_, i) => ({ input: episode(i), mode: "train" as const, resources_id: "desk-policy", metadata: { "lightgate.agent": DEMO_AGENT } })))).map((r) => r.rollout_id);

    const foreignRunner = await createApiKey(world.database.db, { name: "foreign runner", role: "runner", agents: [AGENT] });
    const report = await runForeignAgent(world, exams, { deadlineSeconds: 60, keys: { runner: foreignRunner.token } });
    expect(report.runnerErrors ?? 0).toBe(0);
    expect(report.status, JSON.stringify(report.checks)).toBe("done");
    const checks = Object.fromEntries((report.checks ?? []).map((c) => [c.id, c.status]));
    expect([checks[4], checks[5], checks[6]], JSON.stringify(report.checks, null, 1)).toEqual(["pass", "pass", "pass"]);
    expect(report.verdict).toBe("READY FOR APPROVAL");

    // Who served what: every foreign gate task by the foreign runner, every desk rollout by the desk's key.
    const deskKeyId = (await world.database.db.apiKey.findFirstOrThrow({ where: { name: "demo runners (npm start)", revokedAt: null } })).id;
    const tasks = await world.database.db.gateRunTask.findMany({ where: { gateRunId: report.gateRun! }, select: { rolloutId: true } });
    expect(tasks.length).toBeGreaterThan(12);
    const foreignAttempts = await world.database.db.storeAttempt.findMany({ where: { rolloutId: { in: tasks.map((t) => t.rolloutId) } }, select: { servedBy: true } });
    expect(new Set(foreignAttempts.map((a) => a.servedBy))).toEqual(new Set([foreignRunner.key.id]));
    const deskAttempts = await world.database.db.storeAttempt.findMany({ where: { rolloutId: { in: deskIds } }, select: { servedBy: true } });
    expect(deskAttempts.length).toBeGreaterThan(0);
    expect(new Set(deskAttempts.map((a) => a.servedBy))).toEqual(new Set([deskKeyId]));
    const foreignTraining = await world.database.db.storeRollout.findMany({ where: { agent: AGENT, phase: null }, select: { rolloutId: true } });
    const trainingServers = await world.database.db.storeAttempt.findMany({ where: { rolloutId: { in: foreignTraining.map((r) => r.rolloutId) } }, select: { servedBy: true } });
    expect(new Set(trainingServers.map((a) => a.servedBy))).toEqual(new Set([foreignRunner.key.id]));
    expect((await authenticateApiKey(world.database.db, foreignRunner.token))?.grants).toEqual([{ role: "runner", agent: AGENT }]);
    // The desk's verifier, bound to the desks, never verified a foreign canary outcome.
    const deskVerifierId = (await world.database.db.apiKey.findFirstOrThrow({ where: { name: "demo verifier (npm start)", revokedAt: null } })).id;
    const verifications = await world.database.db.gateVerification.findMany({ where: { gateRunId: report.gateRun! }, select: { verifierId: true } });
    expect(verifications.length).toBeGreaterThan(0);
    expect(verifications.map((v) => v.verifierId)).not.toContain(deskVerifierId);
  }, 240_000);
  // Processes sharing the queue is the point here, not the dialect (store/multi-process and concurrency run both): PostgreSQL in the full run.
}, { postgresql: "full-run" });
