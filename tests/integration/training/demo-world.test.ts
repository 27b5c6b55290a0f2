// What `npm start` in demo mode prepares and runs beside the server: the desk's exam published by its
// policy owner (not the demo's trainer), a key per service, and the helper processes — the worker with
// gate runs, two runners with the runner key, the verifier with its own verifier key and nothing else.
import { afterAll, beforeAll, expect, it } from "vitest";
import { authenticateApiKey } from "@/server/auth/api-keys";
import { REFERENCE_POLICY_OWNER } from "@/server/receipts/reference-demo";
import { DEMO_ACTOR, demoHelpers, prepareDemoWorld } from "@/server/training/demo";
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
      ["support-desk/canary", "canary", 20, REFERENCE_POLICY_OWNER.id],
      ["support-desk/held-out", "held_out", 60, REFERENCE_POLICY_OWNER.id],
    ]);
    const run = await database.db.trainingRun.findUniqueOrThrow({ where: { id: world.runId } });
    expect(run.startedById).toBe(DEMO_ACTOR.id);
    expect(run.startedById).not.toBe(REFERENCE_POLICY_OWNER.id); // the learner does not write its own exam

    expect((await authenticateApiKey(database.db, world.runnerKey))?.roles).toEqual(["runner"]);
    expect((await authenticateApiKey(database.db, world.verifierKey))?.roles).toEqual(["verifier"]);
    const helpers = demoHelpers("http://127.0.0.1:3000", world, true);
    expect(helpers.map((h) => [h.script, Object.keys(h.env)])).toEqual([
      ["scripts/worker.ts", []],
      ["scripts/runner.ts", ["LIGHTGATE_RUNNER_KEY"]],
      ["scripts/runner.ts", ["LIGHTGATE_RUNNER_KEY"]],
      ["scripts/verifier.ts", ["LIGHTGATE_VERIFIER_KEY"]],
    ]);
    expect(helpers[0]!.args).toContain("--gates");
    expect(helpers[3]!.env.LIGHTGATE_VERIFIER_KEY).toBe(world.verifierKey);

    // A second start: the same exam (no new datasets), fresh keys, the old ones revoked.
    const again = await prepareDemoWorld(database, new Date());
    expect(await database.db.gateDataset.count()).toBe(2);
    expect(again.runId).toBe(world.runId);
    const keys = await database.db.apiKey.findMany({ where: { role: "verifier" }, orderBy: { createdAt: "asc" } });
    expect(keys.map((k) => k.revokedAt !== null)).toEqual([true, false]);
    expect((await authenticateApiKey(database.db, again.verifierKey))?.roles).toEqual(["verifier"]);
  }, 120_000);
});
