// What `npm start` in demo mode prepares and runs beside the server: the desk's exam published by its
// policy owner (not the demo's trainer), a key per service, and the helper processes — the worker with
// gate runs, two runners with the runner key (bound to the desks), the verifier with its own verifier key and nothing else.
import { afterAll, beforeAll, expect, it } from "vitest";
import { authenticateApiKey } from "@/server/auth/api-keys";
import { DEMO_ACTOR, DEMO_AGENT, DEMO_TEXT_AGENT, DESK_POLICY_OWNER, demoHelpers, prepareDemoWorld } from "@/server/training/demo";
import { currentEntries } from "@/server/receipts/registries";
import { AGENT as REFERENCE_AGENT } from "@/server/gate/reference/common";
import { describeEachDialect, createTestDatabase, type TestDatabase } from "../../helpers/db";

describeEachDialect("demo mode's world", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "demoworld");
  }, 60_000);
  afterAll(() => database?.drop());

  it("publishes the desk's gate datasets as the policy owner and hands each helper only its own key", async () => {
    const world = await prepareDemoWorld(database, new Date());
    const datasets = await database.db.gateDataset.findMany({ orderBy: { name: "asc" } });
    expect(datasets.map((d) => [d.name, d.kind, d.caseCount, d.createdById])).toEqual([
      [`${DEMO_TEXT_AGENT}/canary`, "canary", 20, DESK_POLICY_OWNER.id],
      [`${DEMO_TEXT_AGENT}/held-out`, "held_out", 60, DESK_POLICY_OWNER.id],
      [`${DEMO_AGENT}/canary`, "canary", 20, DESK_POLICY_OWNER.id],
      [`${DEMO_AGENT}/held-out`, "held_out", 60, DESK_POLICY_OWNER.id],
    ]);
    // The text agent's exam is the text desk's: its cases run support-desk-text at v6-text-order.
    const textSet = datasets.find((d) => d.name === `${DEMO_TEXT_AGENT}/held-out`)!;
    const textCase = await database.db.gateDatasetCase.findFirstOrThrow({ where: { datasetId: textSet.id } });
    expect(JSON.parse(textCase.input)).toMatchObject({ environment: "support-desk-text", distribution: "v6-text-order" });
    const textRun = await database.db.trainingRun.findUniqueOrThrow({ where: { id: world.textRunId } });
    expect([textRun.agent, textRun.family, textRun.environment, textRun.distribution, textRun.continual]).toEqual([DEMO_TEXT_AGENT, "text-policy", "support-desk-text", "v6-text-order", true]);
    const run = await database.db.trainingRun.findUniqueOrThrow({ where: { id: world.runId } });
    // First the imitation run on a stored snapshot of expert demonstrations; the live run waits for its candidate.
    expect([run.agent, run.startedById, run.family, run.continual, run.name]).toEqual([DEMO_AGENT, DEMO_ACTOR.id, "supervised", true, "desk imitation"]);
    expect(run.dataSnapshotId).toMatch(/^ds-/);
    expect(run.startedById).not.toBe(DESK_POLICY_OWNER.id); // the learner does not write its own exam
    // The rules the gate judges the demo's candidates by, published by the same policy owner: the runner-scored
    // evaluator, a contract per desk tool with its side effects, the distribution with its digest.
    const entries = (await currentEntries(database.db, DEMO_AGENT)).filter((e) => e.agent === DEMO_AGENT);
    expect(new Set(entries.map((e) => e.kind))).toEqual(new Set(["evaluator", "tool_contract", "task_distribution", "model_server", "retry_policy", "destination", "protected_family"]));
    expect(entries.every((e) => e.createdById === DESK_POLICY_OWNER.id)).toBe(true);
    expect(entries.find((e) => e.kind === "tool_contract" && e.name === "delete_account")!.body).toMatchObject({ side_effects: ["account.deleted"], destructive: true });

    expect((await authenticateApiKey(database.db, world.runnerKey))?.roles).toEqual(["runner"]);
    // The demo's runners serve the demo's desks only (the live desk and the reference one): a foreign agent's
    // gate run beside them goes to that agent's own runners (issue 23, finding 5).
    expect((await authenticateApiKey(database.db, world.runnerKey))?.grants).toEqual([DEMO_AGENT, DEMO_TEXT_AGENT, REFERENCE_AGENT].sort().map((agent) => ({ role: "runner", agent })));
    expect((await authenticateApiKey(database.db, world.verifierKey))?.roles).toEqual(["verifier"]);
    const helpers = demoHelpers("http://127.0.0.1:3000", world, true);
    expect(helpers.map((h) => [h.script, Object.keys(h.env)])).toEqual([
      ["scripts/worker.ts", []],
      ["scripts/worker.ts", []],
      ["scripts/runner.ts", ["LIGHTGATE_RUNNER_KEY"]],
      ["scripts/runner.ts", ["LIGHTGATE_RUNNER_KEY"]],
      ["scripts/verifier.ts", ["LIGHTGATE_VERIFIER_KEY"]],
    ]);
    expect(helpers[0]!.args).toContain("--gates");
    expect(helpers[4]!.env.LIGHTGATE_VERIFIER_KEY).toBe(world.verifierKey);

    // A second start: the same exam (no new datasets), fresh keys, the old ones revoked.
    const again = await prepareDemoWorld(database, new Date());
    expect(await database.db.gateDataset.count()).toBe(4);
    expect(again.runId).toBe(world.runId);
    expect(again.textRunId).toBe(world.textRunId);
    const keys = await database.db.apiKey.findMany({ where: { role: "verifier" }, orderBy: { createdAt: "asc" } });
    expect(keys.map((k) => k.revokedAt !== null)).toEqual([true, false]);
    expect((await authenticateApiKey(database.db, again.verifierKey))?.roles).toEqual(["verifier"]);
  }, 120_000);
}, { postgresql: "full-run" });
