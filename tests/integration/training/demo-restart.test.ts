// `npm start` in demo mode after a policy owner has been at work: for each kind of publication the registries
// page can make (every registry kind, for the demo's desk and for the reference desk, and both exams), the
// owner publishes it through the page's own tRPC procedure, then the demo's start-up preparation — the very
// function scripts/start.ts calls — runs again. It must succeed, and leave the owner's publication current.
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEFAULT_GATE_POLICY } from "@/server/gate/policy";
import { AGENT as REFERENCE_AGENT, EVALUATOR as REFERENCE_EVALUATOR, TOOLS as REFERENCE_TOOLS } from "@/server/gate/reference/common";
import { DESK_EVALUATOR, DESK_MODEL_SERVER } from "@/server/desk/registry";
import { deskGateCases } from "@/server/desk/gate-datasets";
import { createSupportDesk, findDistribution } from "@/server/environments/support-desk";
import { currentEntries } from "@/server/receipts/registries";
import { gateDatasetName, publishedGateDatasets } from "@/server/receipts/gate-datasets";
import { DEMO_AGENT, prepareDemoWorld } from "@/server/training/demo";
import { callerAs } from "../../helpers/caller";
import { describeEachDialect, createTestDatabase, type TestDatabase } from "../../helpers/db";

const desk = createSupportDesk();
const OWNER = "owner-at-work";

type Publication = Parameters<ReturnType<typeof callerAs>["registries"]["publish"]>[0];
const publications: Publication[] = [
  { kind: "evaluator", name: DESK_EVALUATOR.id, agent: DEMO_AGENT, body: { scoring: "runner_reward", environment: desk.id, weights: { resolution: 1 } } },
  { kind: "tool_contract", name: desk.tools[0]!.name, agent: DEMO_AGENT, body: { tool: desk.tools[0]!.name, side_effects: ["ticket.update"], destructive: false, note: "owner's" } },
  { kind: "task_distribution", name: `${desk.id}/tasks`, agent: DEMO_AGENT, body: { environment: desk.id, version: "v3", digest: findDistribution("v3").digest } },
  { kind: "protected_family", name: desk.protectedFamilies[0]!, agent: DEMO_AGENT, body: { maxRegressions: 1 } },
  { kind: "promotion_policy", name: DEMO_AGENT, agent: DEMO_AGENT, body: DEFAULT_GATE_POLICY },
  { kind: "canary_boundary", name: DEMO_AGENT, agent: DEMO_AGENT, body: { maxTasks: 5, maxWallTimeSeconds: 600, allowedTools: [desk.tools[0]!.name], maxCostUsd: 1, allowedSideEffects: [] } },
  { kind: "retry_policy", name: DEMO_AGENT, agent: DEMO_AGENT, body: { rolloutConfig: { max_attempts: 2, retry_condition: ["failed"] } } },
  { kind: "model_server", name: DESK_MODEL_SERVER, agent: DEMO_AGENT, version: "owner-1", body: { endpoint: "http://127.0.0.1:9/v1" } },
  { kind: "destination", name: `${desk.id}:tickets`, agent: DEMO_AGENT, body: { kind: "ticket-db", reread: "ticket by id and owner" } },
  // A distribution the desk does not know: the demo keeps training on its own, and still starts.
  { kind: "task_distribution", name: `${desk.id}/tasks`, agent: DEMO_AGENT, version: "9", body: { environment: desk.id, version: "v9" } },
  // The reference desk's rules, which the demo seeded once.
  { kind: "evaluator", name: REFERENCE_EVALUATOR.id, agent: REFERENCE_AGENT, body: { scoring: "owner's rubric" } },
  { kind: "tool_contract", name: REFERENCE_TOOLS[0], agent: REFERENCE_AGENT, body: { tool: REFERENCE_TOOLS[0], contract: 2 } },
  // An instance-wide record beside the desk's own.
  { kind: "evaluator", name: DESK_EVALUATOR.id, agent: "*", body: { scoring: "everyone's" } },
];

describeEachDialect("demo start-up after a policy owner's publications", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "demorestart");
    await prepareDemoWorld(database, new Date());
  }, 120_000);
  afterAll(() => database?.drop());

  it.each(publications.map((p) => [`${p.kind} ${p.agent}/${p.name}${p.version ? `@${p.version}` : ""}`, p] as const))("%s, then a restart", async (_label, p) => {
    const published = await callerAs(database, "policy_owner", OWNER).registries.publish(p);
    expect(published.createdById).toBe(OWNER);
    await expect(prepareDemoWorld(database, new Date())).resolves.toMatchObject({ runnerKey: expect.any(String) });
    const current = (await currentEntries(database.db, p.agent)).find((e) => e.kind === p.kind && e.name === p.name && e.agent === p.agent)!;
    expect([current.seq, current.version, current.digest, current.createdById]).toEqual([published.seq, published.version, published.digest, OWNER]);
  }, 60_000);

  it.each(["held_out", "canary"] as const)("a %s exam, then a restart: the owner's exam stays in force", async (kind) => {
    const name = gateDatasetName(DEMO_AGENT, kind);
    const cases = deskGateCases(findDistribution("v1"), kind, kind === "held_out" ? 7 : 3);
    const published = await callerAs(database, "policy_owner", OWNER).registries.publishDataset({ name, kind, cases });
    expect(published.created).toBe(true);
    await prepareDemoWorld(database, new Date());
    await prepareDemoWorld(database, new Date());
    const inForce = await publishedGateDatasets(database.db, DEMO_AGENT);
    expect((kind === "held_out" ? inForce.heldOut : inForce.canary)?.id).toBe(published.datasetId);
  }, 60_000);

  it("after all of them, every owner's publication is still the current one", async () => {
    await prepareDemoWorld(database, new Date());
    const last = new Map<string, Publication>();
    for (const p of publications) last.set(`${p.kind}\u0000${p.agent}\u0000${p.name}`, p);
    for (const p of last.values()) {
      const rows = await database.db.registryEntry.findMany({ where: { kind: p.kind, name: p.name, agent: p.agent }, orderBy: { seq: "desc" }, take: 1 });
      expect([p.kind, p.name, rows[0]!.createdById]).toEqual([p.kind, p.name, OWNER]);
    }
  }, 60_000);
  // Idempotency is the point, not the dialect (the registries' SQL is the registry suites' point): PostgreSQL in
  // the full run — the first preparation seeds the reference and a 3,000-record snapshot, ~50 s a dialect.
}, { postgresql: "full-run" });
