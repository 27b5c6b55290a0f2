// A snapshot made from the dashboard (tRPC datasets.create): records through pipeline steps, or another
// snapshot through more steps with its lineage kept; trainers only; refusals name the field and write nothing.
import { afterAll, beforeAll, expect, it } from "vitest";
import { expertData } from "@/server/evaluations/setup";
import { callerAs, refusal } from "../../helpers/caller";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

describeEachDialect("datasets.create", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "derive");
  });
  afterAll(() => database?.drop());

  const demos = () => (expertData(12, "ui/create").records as readonly { text: string }[]).map((d, i) => ({ ...d, text: i === 0 ? "Write to maria.lopez@example.com please" : d.text }));

  it("stores pasted records through the chosen steps, then derives a child keeping the lineage", async () => {
    const trainer = callerAs(database, "trainer");
    const made = await trainer.datasets.create({ name: "ui/demos", from: { kind: "records", records: demos() }, steps: [{ step: "anonymize" }] });
    expect(made).toMatchObject({ created: true, version: 1, records: 12, pipeline: [{ step: "anonymize", in: 12, out: 12 }] });
    const again = await trainer.datasets.create({ name: "ui/demos", from: { kind: "records", records: demos() }, steps: [{ step: "anonymize" }] });
    expect(again).toMatchObject({ id: made.id, created: false });
    const detail = await callerAs(database, "viewer").datasets.getSnapshot({ id: made.id });
    expect(detail.snapshot.lineage).toMatchObject({ sources: ["dashboard upload"], parentSnapshot: null });
    expect(detail.snapshot.createdBy).toBe("test-trainer");

    const child = await trainer.datasets.create({ name: "ui/demos-augmented", from: { kind: "snapshot", id: made.id }, steps: [{ step: "augment", copies: 1, noise: 0.05, seed: "s" }] });
    expect(child.records).toBe(24);
    const childDetail = await callerAs(database, "viewer").datasets.getSnapshot({ id: child.id });
    expect(childDetail.snapshot.lineage.parentSnapshot).toBe(made.digest);
    expect(childDetail.snapshot.lineage.pipeline.map((p) => p.step)).toEqual(["anonymize", "augment"]);
  });

  it("refuses without training:run, and names what is wrong, writing nothing", async () => {
    const before = await database.db.datasetSnapshot.count();
    expect((await refusal(callerAs(database, "viewer").datasets.create({ name: "ui/x", from: { kind: "records", records: demos() } }))).code).toBe("FORBIDDEN");
    const trainer = callerAs(database, "trainer");
    const badRecord = await refusal(trainer.datasets.create({ name: "ui/x", from: { kind: "records", records: [{ kind: "demonstration", id: "__proto__" }] } }));
    expect(badRecord.code).toBe("BAD_REQUEST");
    expect(badRecord.message).toMatch(/^from\.records: record 0: /);
    const dup = await refusal(trainer.datasets.create({ name: "ui/x", from: { kind: "records", records: [...demos().slice(0, 1), ...demos().slice(0, 1)] } }));
    expect(dup.message).toMatch(/appears more than once/);
    expect((await refusal(trainer.datasets.create({ name: "UI X", from: { kind: "records", records: demos() } }))).code).toBe("BAD_REQUEST");
    expect((await refusal(trainer.datasets.create({ name: "ui/x", from: { kind: "snapshot", id: "ds-0000000000000000" } }))).code).toBe("NOT_FOUND");
    const empty = await refusal(trainer.datasets.create({ name: "ui/x", from: { kind: "records", records: demos() }, steps: [{ step: "quality-filter", minQuality: 1, minCredibility: 1 }] }));
    expect(empty.message).toMatch(/^steps: the pipeline left none of the 12 records/);
    expect(await database.db.datasetSnapshot.count()).toBe(before);
  });
});
