// The agent's model page against the real database (SQLite, and PostgreSQL when it answers): the reference's four
// candidates (A canary-approved by a person with a passkey) plus E — published by a Lightgate training run and
// judged on another held-out set — listed newest first with the candidates list's verdicts, their origin, their
// approvers by name and the pointers naming them; A compared with C case by case on the same exam, with E on a
// different exam said plainly; ids of another agent, unknown ids and the same id twice refused, never a 5xx.
import { afterAll, beforeAll, expect, it } from "vitest";
import { beginApproval, finishApproval } from "@/server/approvals/approve";
import { receiptSource } from "@/server/approvals/db-source";
import { registerCandidate } from "@/server/candidates/register";
import { digestOf, newId } from "@/server/digest";
import { AGENT } from "@/server/gate/reference/common";
import { rawCandidate, REFERENCE_SPECS } from "@/server/gate/reference/raw-evidence";
import { agentVersions } from "@/server/receipts/agent-versions";
import { listCandidates } from "@/server/receipts/candidates-view";
import { compareCandidates } from "@/server/receipts/compare-candidates";
import { openReceipt, sealLink } from "@/server/receipts/links";
import { gateReport } from "@/server/receipts/report";
import { stage2FromStore } from "@/server/receipts/rollups";
import { currentVersions } from "@/server/receipts/versions";
import { REFERENCE_APPROVER } from "@/server/reference/reference-approver";
import { seedReferenceDemo, type SeededCandidate } from "@/server/reference/reference-demo";
import { storeFor } from "@/server/store";
import { callerAs, refusal } from "../../helpers/caller";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { personWithPasskey } from "../../helpers/approvals";

const OTHER_EXAM = { id: "ds-heldout-spring", digest: digestOf({ snapshot: "support-desk/heldout-spring", rows: 60 }), caseCount: 60 };
const E_RESOURCES = { policy: { resource_type: "policy", weights: "candidate-E", temperature: 0.3 } };
const TRAINER = { kind: "service" as const, id: "svc-nightly-apo", name: "nightly APO", grants: [{ role: "algorithm" as const, agent: null }] };

describeEachDialect("the agent's model page", (dialect) => {
  let database: TestDatabase;
  let seeded: SeededCandidate[];
  let e = "";
  let foreign = "";
  const runId = newId("run");
  const idOf = (name: string) => (name === "E" ? e : seeded.find((s) => s.name === name)!.candidateId);

  /** E: A's judged evidence re-sealed as a training run's candidate on another held-out set (same case ids, other exam). */
  async function seedE() {
    const raw = rawCandidate(REFERENCE_SPECS.A);
    const put = await storeFor(database).updateResources("rs-model-page-e", E_RESOURCES);
    const ref = { resourceId: "rs-model-page-e", version: put.version, digest: digestOf(E_RESOURCES) };
    await database.db.trainingRun.create({
      data: { id: runId, agent: AGENT, name: "nightly apo", family: "apo", config: "{}", seed: "s", environment: "support-desk", distribution: "v2", parentResourcesId: raw.stage1.parent.resourceId, parentVersion: 1, parentDigest: raw.stage1.parent.digest, heldOutCases: 60, retryBudget: 0, codeRevision: "0a1b2c3d", candidateEvery: 1, checkpointEvery: 1, status: "finished", updatesTotal: 1, startedById: "u-trainer" },
    });
    const stage1 = { ...raw.stage1, candidate: ref, data: { ...raw.stage1.data, heldOut: OTHER_EXAM }, algorithm: { name: "apo", config: { beamWidth: 4, rounds: 3 } } };
    const c = await registerCandidate(database, { agent: AGENT, resource: { resourcesId: ref.resourceId, version: ref.version, digest: ref.digest }, trainingRunId: runId, stage1, actor: TRAINER });
    await openReceipt(database, c.id);
    const versions = await currentVersions(database.db, AGENT);
    await sealLink(database, c.id, "stage2", await stage2FromStore(database, { id: c.id, resourcesId: ref.resourceId }, versions));
    const lockedGate = { ...raw.lockedGate, dataset: { id: OTHER_EXAM.id, digest: OTHER_EXAM.digest }, candidate: { ...raw.lockedGate.candidate, resource: ref } };
    const resolution = { ...raw.resolution, candidate: { status: "resolved" as const, digest: ref.digest }, heldOutData: { status: "resolved" as const, digest: OTHER_EXAM.digest } };
    await sealLink(database, c.id, "stage3", { resolution, lockedGate, canary: raw.canary, rollbackTest: raw.rollbackTest, computedAt: new Date().toISOString(), versions });
    return c.id;
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "model-page");
    seeded = await seedReferenceDemo(database, { now: new Date() });
    e = await seedE();
    foreign = newId("cand");
    await database.db.candidate.create({
      data: { id: foreign, agent: "billing-bot", resourcesId: "rs-billing", version: 2, digest: `sha256:${"b".repeat(64)}`, parentResourcesId: "rs-billing", parentVersion: 1, parentDigest: `sha256:${"a".repeat(64)}`, algorithm: "apo", stage1: "{}", createdById: "key-billing" },
    });
  }, 180_000);
  afterAll(() => database?.drop());

  it("lists every version newest first with the candidates list's verdicts, its origin, approvers by name and the pointers naming it", async () => {
    const page = (await agentVersions(database, AGENT))!;
    // The reference registers C, B, D, A in that order; E came last.
    expect(page.versions.map((v) => v.id)).toEqual([e, idOf("A"), idOf("D"), idOf("B"), idOf("C")]);
    expect(page.versions.map((v) => v.number)).toEqual([5, 4, 3, 2, 1]);
    // The same verdicts and gains the candidates list shows.
    const list = await listCandidates(database, { agent: AGENT });
    expect(page.versions.map((v) => [v.id, v.status, v.scoreGain])).toEqual(list.map((c) => [c.id, c.status, c.scoreGain]));
    const by = Object.fromEntries(page.versions.map((v) => [v.id, v]));
    expect(by[idOf("A")]).toMatchObject({ status: "PROMOTE TO BOUNDED CANARY", pointers: ["canary"], origin: { algorithm: "ppo", run: null, declaredBy: "svc-trainer-ppo" } });
    expect(by[idOf("A")]!.scoreGain).toBeCloseTo(0.04, 6);
    expect(by[idOf("A")]!.approvals.map((a) => [a.step, a.by])).toEqual([["canary", REFERENCE_APPROVER.name]]);
    for (const n of ["B", "C", "D"]) expect(by[idOf(n)]).toMatchObject({ status: "QUARANTINED", approvals: [], pointers: [] });
    expect(by[e]).toMatchObject({ pointers: ["latest_candidate"], origin: { algorithm: "apo", run: { id: runId, name: "nightly apo" } } });
  });

  it("compares A with C case by case on their common exam: checks, figures, the config keys that differ and the cases apart most", async () => {
    const c = await compareCandidates(database, { agent: AGENT, a: idOf("A"), b: idOf("C") });
    expect([c.a.status, c.b.status]).toEqual(["PROMOTE TO BOUNDED CANARY", "QUARANTINED"]);
    expect(c.a.checks.map((k) => k.status)).toEqual(["pass", "pass", "pass", "pass", "pass", "pass", "pass"]);
    expect(c.b.checks.filter((k) => k.status === "fail").map((k) => k.id)).toEqual([5]);
    expect(c.a.gain).toBeCloseTo(0.04, 6);
    expect(c.b.gain).toBeCloseTo(0.1, 6);
    expect(c.a.lockedGate).toMatchObject({ cases: 60, dataset: { id: c.b.lockedGate!.dataset.id } });
    expect(c.a.lockedGate!.mean! - c.a.lockedGate!.parentMean!).toBeCloseTo(0.04, 6);
    expect([c.a.coverage!.ratio, c.b.coverage!.ratio]).toEqual([1, 1]);
    expect([c.a.retryDebt!.debt, c.b.retryDebt!.debt]).toEqual([0, 0]);
    expect([c.a.protectedRegressions!.total, c.b.protectedRegressions!.total]).toEqual([0, 3]);
    if (!c.cases.comparable) throw new Error(c.cases.sentence);
    expect(c.cases.compared).toBe(60);
    // C's three catastrophic protected cases are where the two differ most.
    expect(new Set(c.cases.top.slice(0, 3).map((r) => r.caseId))).toEqual(new Set(c.b.protectedRegressions!.cases));
    for (const r of c.cases.top) expect(r.delta).toBeCloseTo(r.b.score - r.a.score, 9);
    expect(c.cases.top.slice(0, 3).every((r) => r.protected && r.delta < 0)).toBe(true);
    expect(c.config.entries.map((x) => [x.path, x.before, x.after])).toEqual([
      ["algorithm.config.candidate", '"A"', '"C"'],
      ["resources.policy.weights", '"candidate-A"', '"candidate-C"'],
    ]);
    expect(c.config.missing).toEqual([]);
  });

  it("says plainly when two versions sat different exams, and still compares their config", async () => {
    const c = await compareCandidates(database, { agent: AGENT, a: idOf("A"), b: e });
    expect(c.cases).toMatchObject({ comparable: false });
    expect(c.cases.sentence).toMatch(/different exams/);
    expect(c.cases.sentence).toContain(OTHER_EXAM.id);
    expect(c.b.lockedGate!.dataset.id).toBe(OTHER_EXAM.id);
    expect(c.config.entries.map((x) => [x.path, x.change])).toEqual([
      ["algorithm.config.beamWidth", "added"],
      ["algorithm.config.candidate", "removed"],
      ["algorithm.config.clipRange", "removed"],
      ["algorithm.config.epochs", "removed"],
      ["algorithm.config.learningRate", "removed"],
      ["algorithm.config.minibatches", "removed"],
      ["algorithm.config.rounds", "added"],
      ["algorithm.name", "changed"],
      ["resources.policy.temperature", "added"],
      ["resources.policy.weights", "changed"],
    ]);
  });

  it("refuses another agent's id, an unknown id and the same id twice — as not found / bad request through tRPC, never a 5xx", async () => {
    await expect(compareCandidates(database, { agent: AGENT, a: idOf("A"), b: foreign })).rejects.toMatchObject({ code: "NOT_FOUND", field: "b", message: expect.stringContaining("another agent") });
    await expect(compareCandidates(database, { agent: "billing-bot", a: foreign, b: idOf("A") })).rejects.toMatchObject({ code: "NOT_FOUND", field: "b" });
    await expect(compareCandidates(database, { agent: AGENT, a: "cand-nope", b: idOf("A") })).rejects.toMatchObject({ code: "NOT_FOUND", field: "a" });
    await expect(compareCandidates(database, { agent: AGENT, a: "x".repeat(5000), b: idOf("A") })).rejects.toMatchObject({ code: "NOT_FOUND", field: "a" });
    await expect(compareCandidates(database, { agent: AGENT, a: idOf("A"), b: idOf("A") })).rejects.toMatchObject({ code: "BAD_REQUEST", field: "b" });
    const viewer = callerAs(database, "viewer");
    expect((await refusal(viewer.agents.compare({ agent: AGENT, a: idOf("A"), b: foreign }))).code).toBe("NOT_FOUND");
    expect((await refusal(viewer.agents.compare({ agent: AGENT, a: "cand-\u0000", b: idOf("A") }))).code).toBe("BAD_REQUEST");
    expect((await refusal(viewer.agents.versions({ agent: "no-such-agent" }))).code).toBe("NOT_FOUND");
    expect((await viewer.agents.versions({ agent: "billing-bot" })).versions.map((v) => v.id)).toEqual([foreign]);
  });

  it("after A's signed default approval its row names both approvers and the approved default", async () => {
    const a = idOf("A");
    const stage3 = (await gateReport(database, a)).receipt!.stage3!;
    await sealLink(database, a, "canary-stage", { canary: stage3.canary!, rollbackTest: stage3.rollbackTest, computedAt: new Date().toISOString(), versions: stage3.versions });
    const rita = await personWithPasskey(database, [{ role: "release_approver", agent: null }], "Rita Release");
    const begun = await beginApproval(database, rita.actor, { agent: AGENT, candidateId: a, step: "default" }, { source: receiptSource });
    await finishApproval(database, rita.actor, { agent: AGENT, payload: begun.payload, response: rita.key.assert(begun.options!) }, { source: receiptSource });
    const row = (await agentVersions(database, AGENT))!.versions.find((v) => v.id === a)!;
    expect(row.approvals.map((x) => [x.step, x.by])).toEqual([["canary", REFERENCE_APPROVER.name], ["default", "Rita Release"]]);
    expect(row.pointers).toContain("approved_default");
    expect(row.status).toBe("PROMOTE TO DEFAULT");
  });
});

