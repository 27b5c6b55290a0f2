// A queued gate run on real artifacts: pins resolved against the store, the registries and the dataset
// snapshots; the locked held-out gate for candidate and exact parent case by case; a bounded canary whose
// every task is verified by re-reading its ticket in the Ticket DB; the rollback test loading the exact
// parent. Then the run's stage 3 is sealed and its check results recorded with their versions.
import { afterAll, beforeAll, expect, it } from "vitest";
import { digestOf } from "@/server/digest";
import { registerCandidate } from "@/server/candidates/register";
import { createSupportDesk, findDistribution } from "@/server/environments/support-desk";
import { AGENT, stage1For } from "@/server/gate/reference/common";
import { initialPolicy, type Policy } from "@/server/trainers/policy";
import { toPolicyResource } from "@/server/trainers/policy-resource";
import { lockHeldOutSet } from "@/server/trainers/evaluate";
import { adoptRootDefault } from "@/server/receipts/default-pointer";
import { requestGateRun, runPendingGates } from "@/server/receipts/gate-queue";
import { publishRegistryEntry } from "@/server/receipts/registries";
import { gateReport } from "@/server/receipts/report";
import { currentVersions } from "@/server/receipts/versions";
import type { Database } from "@/server/db/client";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

const env = createSupportDesk();
const owner = { kind: "system" as const, id: "test-policy-owner", name: "policy owner", grants: [] };
const trainer = { kind: "service" as const, id: "svc-trainer", name: "trainer", grants: [{ role: "algorithm" as const, agent: null }] };

async function storeResource(database: Database, id: string, resources: object) {
  const digest = digestOf(resources);
  const text = JSON.stringify(resources);
  await database.db.storeResources.create({ data: { resourcesId: id, createTime: 1, updateTime: 1, version: 1, digest, resources: text, latestPos: 1, createdPos: 1 } });
  await database.db.storeResourcesVersion.create({ data: { resourcesId: id, version: 1, digest, resources: text, createdAt: 1 } });
  return { resourceId: id, version: 1, digest };
}

describeEachDialect("gate runs on real artifacts", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "gaterun");
  }, 60_000);
  afterAll(() => database?.drop());

  it("resolves pins, runs the locked gate for both sides, verifies every canary task in the Ticket DB, and tests rollback", async () => {
    const publish = (kind: Parameters<typeof publishRegistryEntry>[1]["kind"], name: string, body: unknown, version?: string) => publishRegistryEntry(database, { kind, name, agent: AGENT, body, version, actor: owner });
    await publish("evaluator", "support-desk-evaluator", { evaluator: "support-desk", weights: { task_completion: 1 } }, "5");
    await publish("task_distribution", "support-desk/tasks", { environment: "support-desk", version: "v2" }, "v2");
    await publish("model_server", "lightgate-policy-server", { endpoint: "local" }, "1.4.2");
    const evaluator = (await database.db.registryEntry.findFirstOrThrow({ where: { kind: "evaluator" } })).digest as `sha256:${string}`;

    const parentPolicy = initialPolicy("softmax-linear", env) as Extract<Policy, { kind: "softmax-linear" }>;
    const parent = await storeResource(database, "rs-base-v7", { policy: toPolicyResource(parentPolicy) });
    const candidateRef = await storeResource(database, "rs-ppo-u12", { policy: toPolicyResource({ ...parentPolicy, weights: parentPolicy.weights.map((w, i) => w + (i % 7) * 0.01) }) });
    await adoptRootDefault(database, { agent: AGENT, target: parent, actor: owner, reason: "test" });
    const heldOut = lockHeldOutSet(env, findDistribution("v2"), 30, "ds-heldout-test");
    const training = { id: "ds-train-test", digest: digestOf({ train: 1 }) };
    await database.db.datasetSnapshot.create({ data: { id: training.id, name: "train", version: 1, digest: training.digest, recordCount: 0, kinds: "task", lineage: "{}", createdBy: "test" } });

    const versions = await currentVersions(database.db, AGENT);
    const base = stage1For("gate-run", candidateRef);
    const stage1 = {
      ...base,
      parent,
      data: { training, heldOut: { id: "ds-heldout-test", digest: heldOut.digest, caseCount: 30 } },
      evaluator: { id: "support-desk-evaluator", version: "5", digest: evaluator },
      expectedEvidence: { ...base.expectedEvidence, canaryBoundary: { ...base.expectedEvidence.canaryBoundary, maxTasks: 6 } },
      versions,
    };
    const cand = await registerCandidate(database, { agent: AGENT, resource: { resourcesId: candidateRef.resourceId, version: 1, digest: candidateRef.digest }, stage1, actor: trainer });

    const run = await requestGateRun(database, { candidateId: cand.id, actor: trainer });
    expect((await requestGateRun(database, { candidateId: cand.id, actor: trainer })).id).toBe(run.id);
    const results = await runPendingGates(database);
    expect(results).toEqual([expect.objectContaining({ id: run.id, status: "done" })]);
    expect(await runPendingGates(database)).toEqual([]);

    const { receipt, report } = await gateReport(database, cand.id);
    const s3 = receipt!.stage3!;
    expect(Object.values(s3.resolution).map((r) => r.status)).toEqual(["resolved", "resolved", "resolved", "resolved", "resolved"]);
    expect(s3.lockedGate!.candidate.cases).toHaveLength(30);
    expect(s3.lockedGate!.parent.cases.map((c) => c.caseId)).toEqual(s3.lockedGate!.candidate.cases.map((c) => c.caseId));
    const outcomes = s3.canary!.outcomes;
    expect(outcomes).toHaveLength(6);
    for (const o of outcomes) {
      expect(o.verification.method).toBe("destination");
      if (o.verification.method !== "destination") continue;
      // The ticket the outcome names exists in the Ticket DB, and its state is what was re-read.
      const ticket = await database.db.ticket.findUniqueOrThrow({ where: { id: o.verification.destination.ref } });
      expect(o.verification.observed).toContain(`"status":"${ticket.status}"`);
    }
    expect(s3.rollbackTest).toMatchObject({ loaded: true, routedBack: true, parent });
    expect(report!.checks[0]!.status).toBe("pass");
    const recorded = await database.db.gateCheckResult.findMany({ where: { candidateId: cand.id } });
    expect(recorded.map((r) => r.check).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(JSON.parse(recorded.find((r) => r.check === 4)!.versions)).toHaveProperty("evaluator", versions.evaluator);
  }, 120_000);

  it("fails a run whose parent is not loadable, naming it, instead of guessing", async () => {
    const r = await storeResource(database, "rs-orphan", { policy: toPolicyResource(initialPolicy("softmax-linear", env)) });
    const stage1 = { ...stage1For("orphan", r), parent: { resourceId: "rs-missing", version: 3, digest: digestOf({ missing: true }) }, versions: await currentVersions(database.db, AGENT) };
    const cand = await registerCandidate(database, { agent: AGENT, resource: { resourcesId: r.resourceId, version: 1, digest: r.digest }, stage1, actor: trainer });
    await requestGateRun(database, { candidateId: cand.id, actor: trainer });
    expect((await runPendingGates(database))[0]?.status).toBe("done");
    const { receipt, report } = await gateReport(database, cand.id);
    expect(receipt!.stage3!.resolution.parent).toMatchObject({ status: "unresolvable", reason: expect.stringContaining("rs-missing v3 is not in the store") });
    expect(receipt!.stage3!.rollbackTest).toMatchObject({ loaded: false, routedBack: false });
    expect(report!.verdict).toBe("QUARANTINED");
    expect(report!.checks.filter((c) => c.status !== "pass").map((c) => c.id)).toEqual(expect.arrayContaining([1, 7]));
  }, 120_000);
});
