import { afterAll, beforeAll, expect, it } from "vitest";
import { callerAs } from "../../helpers/caller";
import { seedLineageFixture } from "../../helpers/dataset-fixture";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

describeEachDialect("the dataset page's procedures", (dialect) => {
  let database: TestDatabase;
  let fx: Awaited<ReturnType<typeof seedLineageFixture>>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "dataset-detail");
    fx = await seedLineageFixture(database);
  });
  afterAll(() => database?.drop());

  it("getSnapshot shows parents, the derived split snapshots, redaction counts and the split per stratum", async () => {
    const d = await callerAs(database, "viewer").datasets.getSnapshot({ id: fx.clean.id });
    expect(d.snapshot.digest).toBe(fx.clean.digest);
    expect(d.ancestors.map((a) => a.digest)).toEqual([fx.raw.digest]);
    expect(d.descendants.map((c) => c.name)).toEqual(["support-desk/demos/test", "support-desk/demos/train", "support-desk/demos/validation"]);
    expect(d.redactions).toMatchObject({ email: 24, name: 12, phone: 12, card: 12, address: 12 });
    expect(d.split).toEqual({ seed: "fixture", shares: { train: 0.6, validation: 0.2, test: 0.2 } });
    const total = d.strata.reduce((a, s) => a + s.records, 0);
    expect(total).toBe(d.snapshot.recordCount);
    for (const s of d.strata) expect(s.train + s.validation + s.test).toBe(s.records);
    expect(d.strata.map((s) => s.stratum)).toContain("demonstration/self-serve");
    // The raw parent knows its child by digest, the child its parent.
    const raw = await callerAs(database, "viewer").datasets.getSnapshot({ id: fx.raw.digest });
    expect(raw.descendants.map((c) => [c.name, c.children.length])).toEqual([["support-desk/demos", 3]]);
    expect(raw.redactions).toEqual({});
    await expect(callerAs(database, "viewer").datasets.getSnapshot({ id: "ds-nope" })).rejects.toThrow(/no dataset snapshot ds-nope/);
  });

  it("listSnapshotRecords never shows PII: stored text is anonymized, and a raw snapshot's is redacted for display", async () => {
    const clean = await callerAs(database, "viewer").datasets.listSnapshotRecords({ id: fx.clean.id, limit: 4 });
    expect(clean.total).toBe(fx.clean.records); // deduplication dropped near-copies
    expect(fx.clean.records).toBeLessThan(48);
    expect(clean.rows.every((r) => Object.keys(r.redactedForDisplay).length === 0)).toBe(true);
    const raw = await callerAs(database, "viewer").datasets.listSnapshotRecords({ id: fx.raw.id, limit: 48 });
    const text = raw.rows.map((r) => r.text).join("\n");
    expect(text).not.toMatch(/maria\.lopez@example\.com|7946|4111|Baker Street|Maria Lopez/);
    expect(text).toContain("[EMAIL]");
    expect(raw.rows.some((r) => r.redactedForDisplay.email === 1)).toBe(true);
    expect(raw.rows[0]!.summary).toMatch(/^\d+ steps?: .* · quality \d\.\d\d · by (expert|novice)$/);
  });
});
