// The policy owner's registries area through tRPC on the stored reference: the catalog, one record's
// versions and a key diff between two, and — before publishing — what the change would make stale, which
// must be exactly what publishing then does to the receipts. Exams (held-out / canary sets) the same way,
// through the function POST /v1/gate/datasets uses. Role checks and hostile input on the new procedures.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedReferenceDemo, type SeededCandidate } from "@/server/reference/reference-demo";
import { REFERENCE_NOW } from "@/server/gate/reference/four-candidates";
import { EVALUATOR, EVALUATOR_BODY } from "@/server/gate/reference/common";
import { registryImpact } from "@/server/policy/impact";
import { listCandidates } from "@/server/receipts/candidates-view";
import { callerAs, refusal } from "../../helpers/caller";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

const AGENT = "support-desk";
const cases = (ids: string[]) => ids.map((id) => ({ id, input: { seed: id }, family: id.startsWith("p") ? "pii" : "general", protected: id.startsWith("p"), expected: { answer: id } }));

describeEachDialect("registries area", (dialect) => {
  let database: TestDatabase;
  let seeded: SeededCandidate[];
  const idOf = (name: string) => seeded.find((s) => s.name === name)!.candidateId;

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "area");
    seeded = await seedReferenceDemo(database);
  }, 120_000);
  afterAll(() => database?.drop());

  it("lists every kind of record with its current version, and one record's versions", async () => {
    const catalog = await callerAs(database, "viewer").registries.catalog();
    const kinds = new Set(catalog.map((r) => r.kind));
    for (const k of ["evaluator", "tool_contract", "protected_family", "promotion_policy", "canary_boundary", "retry_policy", "task_distribution"]) expect(kinds, k).toContain(k);
    const evaluator = catalog.find((r) => r.kind === "evaluator" && r.name === EVALUATOR.id)!;
    expect(evaluator).toMatchObject({ agents: [AGENT], versions: 1, current: [expect.objectContaining({ version: EVALUATOR.version, agent: AGENT, current: true })] });
    const entry = await callerAs(database, "viewer").registries.entry({ kind: "evaluator", name: EVALUATOR.id });
    expect(entry.versions.map((v) => v.version)).toEqual([EVALUATOR.version]);
    const missing = await refusal(callerAs(database, "viewer").registries.entry({ kind: "evaluator", name: "__proto__" }));
    expect(missing.code).toBe("NOT_FOUND");
  });

  it("a tighter promotion policy shows the verdicts it would change (policy, not staleness)", async () => {
    const current = (await callerAs(database, "viewer").registries.list({ kind: "promotion_policy", agent: AGENT, currentOnly: true }))[0]!;
    const tighter = { ...(current.body as Record<string, unknown>), minScoreGain: 0.5 };
    const preview = await registryImpact(database, { kind: "promotion_policy", name: current.name, agent: AGENT, body: tighter }, REFERENCE_NOW);
    expect(preview.agents[0]!.policy).toEqual([expect.objectContaining({ path: "minScoreGain", change: "changed", after: "0.5" })]);
    expect(preview.agents[0]!.inputs).toEqual([]);
    const a = preview.changed.find((c) => c.id === idOf("A"))!;
    expect(a).toMatchObject({ now: "PROMOTE TO BOUNDED CANARY", after: "QUARANTINED" });
    expect(a.changes.find((c) => c.check === 4 && c.scope === "admission")).toMatchObject({ now: "pass", after: "fail" });
  });

  it("previews a new evaluator: checks 1, 4 and 5 of every receipt go stale — exactly what publishing then does", async () => {
    const input = { kind: "evaluator" as const, name: EVALUATOR.id, agent: AGENT, version: "4", body: { ...EVALUATOR_BODY, weights: { ...EVALUATOR_BODY.weights, accuracy: 0.2 } } };
    await expect(refusal(callerAs(database, "trainer").registries.previewPublish(input))).resolves.toMatchObject({ code: "FORBIDDEN" });
    const rows = await database.db.registryEntry.count();
    const viaTrpc = await callerAs(database, "policy_owner").registries.previewPublish(input);
    expect(viaTrpc).toMatchObject({ version: "4", supersedes: { version: EVALUATOR.version }, sameAsCurrent: false });
    expect(viaTrpc.agents[0]!.inputs).toEqual([expect.objectContaining({ input: "evaluator", checks: [1, 4, 5] })]);
    expect(await database.db.registryEntry.count()).toBe(rows); // a preview writes nothing

    const preview = await registryImpact(database, input, REFERENCE_NOW);
    const a = preview.changed.find((c) => c.id === idOf("A"))!;
    expect(a.now).toBe("PROMOTE TO BOUNDED CANARY");
    expect(a.after).toBe("STALE");
    expect(a.changes.filter((c) => c.scope === "admission").map((c) => [c.check, c.after])).toEqual([[1, "stale"], [4, "stale"], [5, "stale"]]);
    expect(a.changes[0]!.why).toMatch(/evaluator changed from support-desk-evaluator@3/);

    await callerAs(database, "policy_owner").registries.publish(input);
    const after = new Map((await listCandidates(database, { agent: AGENT, now: REFERENCE_NOW })).map((c) => [c.id, c]));
    for (const c of preview.changed) {
      expect(after.get(c.id)!.status, c.title).toBe(c.after);
      for (const change of c.changes.filter((x) => x.scope === "admission")) expect(after.get(c.id)!.checks.find((k) => k.id === change.check)!.status).toBe(change.after);
    }
    expect(preview.changed.length + preview.unchanged).toBe(seeded.length);
  });

  it("diffs two versions key by key; an unknown version is a 404 naming it", async () => {
    const diff = await callerAs(database, "viewer").registries.diff({ kind: "evaluator", name: EVALUATOR.id, agent: AGENT, a: EVALUATOR.version, b: "4" });
    expect(diff.entries).toEqual([{ path: "weights.accuracy", change: "changed", before: "0.1", after: "0.2", secret: false }]);
    expect(diff.unchanged).toBeGreaterThan(3);
    expect(diff.content).toMatchObject({ weights: { accuracy: 0.2 } });
    const e = await refusal(callerAs(database, "viewer").registries.diff({ kind: "evaluator", name: EVALUATOR.id, agent: AGENT, a: "3", b: "99" }));
    expect(e.code).toBe("NOT_FOUND");
    expect(e.message).toMatch(/^b: .*no version "99"/);
  });

  it("refuses what publishing refuses, naming the field, before judging anything", async () => {
    const owner = callerAs(database, "policy_owner");
    const moving = await refusal(owner.registries.previewPublish({ kind: "evaluator", name: EVALUATOR.id, agent: AGENT, version: "latest", body: {} }));
    expect(moving.code).toBe("BAD_REQUEST");
    expect(moving.message).toMatch(/version/);
    const body = await refusal(owner.registries.previewPublish({ kind: "protected_family", name: "__proto__", agent: AGENT, body: JSON.parse('{"__proto__": 1}') as never }));
    expect(body.code).toBe("BAD_REQUEST");
    expect(body.message).toMatch(/^body\.maxRegressions: /);
    const taken = await refusal(owner.registries.previewPublish({ kind: "evaluator", name: EVALUATOR.id, agent: AGENT, version: "4", body: {} }));
    expect(taken.code).toBe("CONFLICT");
  });

  describe("exams", () => {
    const name = `${AGENT}/held-out`;
    it("publishes versions through the HTTP API's function, previews what changes, diffs case by case", async () => {
      await expect(refusal(callerAs(database, "trainer").registries.publishDataset({ name, kind: "held_out", cases: cases(["t1", "t2", "p1"]) }))).resolves.toMatchObject({ code: "FORBIDDEN" });
      const owner = callerAs(database, "policy_owner");
      const v1 = await owner.registries.publishDataset({ name, kind: "held_out", cases: cases(["t1", "t2", "p1"]) });
      expect(v1).toMatchObject({ created: true, caseCount: 3, datasetId: expect.stringMatching(/^gds-[0-9a-f]{16}$/) });
      const same = await owner.registries.previewDataset({ name, kind: "held_out", cases: cases(["t1", "t2", "p1"]) });
      expect(same).toMatchObject({ existingVersion: "1", added: 0, removed: 0 });
      const preview = await owner.registries.previewDataset({ name, kind: "held_out", cases: cases(["t1", "p1", "t3", "__proto__"]) });
      expect(preview).toMatchObject({ existingVersion: null, version: "2", supersedes: { version: "1", caseCount: 3 }, added: 2, removed: 1, pinnedBy: [] });
      await owner.registries.publishDataset({ name, kind: "held_out", cases: cases(["t1", "p1", "t3", "__proto__"]) });
      const entry = await owner.registries.entry({ kind: "held_out", name });
      expect(entry.versions.map((v) => [v.version, v.current, v.caseCount])).toEqual([["2", true, 4], ["1", false, 3]]);

      const asOwner = await owner.registries.diff({ kind: "held_out", name, agent: "*", a: "1", b: "2" });
      expect(asOwner.entries.filter((e) => e.change === "removed").map((e) => e.path)).toEqual(expect.arrayContaining(["t2.input.seed", "t2.expected.answer"]));
      expect(asOwner.entries.some((e) => e.path.startsWith('["__proto__"]') || e.path.startsWith("__proto__"))).toBe(true);
      const asViewer = await callerAs(database, "viewer").registries.diff({ kind: "held_out", name, agent: "*", a: "1", b: "2" });
      expect(asViewer.entries.some((e) => e.path.includes("expected"))).toBe(false);
      expect(asViewer.changed).toBeLessThan(asOwner.changed);
    });

    it("refuses a malformed exam naming the field", async () => {
      const dup = await refusal(callerAs(database, "policy_owner").registries.previewDataset({ name, kind: "held_out", cases: [...cases(["t1"]), ...cases(["t1"])] }));
      expect(dup.code).toBe("BAD_REQUEST");
      expect(dup.message).toContain("duplicates cases.0.id: case ids must be unique");
    });
  });
}, { postgresql: "full-run" });
