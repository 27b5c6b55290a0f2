import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { afterAll, beforeAll, expect, it } from "vitest";
import { prepareSnapshot, demonstrationsFromTrajectories, splitSnapshot } from "@/server/datasets/prepare";
import { createSnapshot, listSnapshots, loadSnapshot, snapshotAncestry } from "@/server/datasets/snapshot";
import { collectBatch } from "@/server/trainers/loop";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { UNIFORM, V2, desk, expertDemos, receiptOf, run } from "../../helpers/families";

const demos = expertDemos(60, "snapshots");

describeEachDialect("dataset snapshots", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "datasets");
  });
  afterAll(() => database?.drop());

  it("are content-addressed: the digest is SHA-256 over the canonical JSON of the records sorted by id", async () => {
    const shuffled = [...demos].reverse();
    const s = await createSnapshot(database, { name: "support-desk/demos", records: shuffled, createdBy: "test" });
    const sorted = [...demos].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(s.digest).toBe(`sha256:${createHash("sha256").update(canonicalize(sorted)!).digest("hex")}`);
    expect(s).toMatchObject({ id: `ds-${s.digest.slice(7, 23)}`, version: 1, created: true });
    // The same records again (any order, any name) are the same snapshot.
    expect(await createSnapshot(database, { name: "another-name", records: demos, createdBy: "test" })).toEqual({ ...s, created: false });
  });

  it("load back exactly, and refuse records that were altered in the database", async () => {
    const s = await createSnapshot(database, { name: "tamper", records: demos.slice(0, 10), createdBy: "test" });
    const loaded = await loadSnapshot(database, s.digest);
    expect(loaded.records).toEqual([...demos.slice(0, 10)].sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect(loaded).toMatchObject({ id: s.id, name: "tamper", version: 1, recordCount: 10, kinds: ["demonstration"] });
    const row = await database.db.datasetSnapshotRecord.findFirstOrThrow({ where: { snapshotId: s.id, ordinal: 3 } });
    await database.db.datasetSnapshotRecord.update({ where: { snapshotId_ordinal: { snapshotId: s.id, ordinal: 3 } }, data: { payload: row.payload.replace(/"quality":[0-9.]+/, '"quality":0.01') } });
    await expect(loadSnapshot(database, s.digest)).rejects.toThrow(/does not match its digest: the stored records were altered/);
    await expect(loadSnapshot(database, "sha256:" + "0".repeat(64))).rejects.toThrow(/no dataset snapshot with digest/);
  });

  it("are versioned per name, record their lineage, and chain to their parent", async () => {
    const v1 = await createSnapshot(database, { name: "lineage", records: demos.slice(0, 20), createdBy: "test", lineage: { sources: ["expert-team"] } });
    const v2 = await prepareSnapshot(database, {
      name: "lineage",
      records: demos.slice(0, 30),
      steps: [{ step: "clean" }, { step: "quality-filter" }, { step: "anonymize" }],
      environment: desk,
      lineage: { parentSnapshot: v1.digest, feedback: ["fb-1"] },
      createdBy: "test",
    });
    expect([v1.version, v2.version]).toEqual([1, 2]);
    const loaded = await loadSnapshot(database, v2.digest);
    expect(loaded.lineage.parentSnapshot).toBe(v1.digest);
    expect(loaded.lineage.feedback).toEqual(["fb-1"]);
    expect(loaded.lineage.pipeline.map((p) => p.step)).toEqual(["clean", "quality-filter", "anonymize"]);
    expect((await snapshotAncestry(database, v2.digest)).map((m) => m.version)).toEqual([2, 1]);
    expect((await listSnapshots(database, "lineage")).map((m) => m.version)).toEqual([2, 1]);
    await expect(createSnapshot(database, { name: "x", records: demos.slice(0, 2), createdBy: "t", lineage: { parentSnapshot: `sha256:${"1".repeat(64)}` } })).rejects.toThrow(/lineage.parentSnapshot: no snapshot/);
  });

  it("split into stratified train / validation / test snapshots, each pinned and tracing back to the whole", async () => {
    const records = demos.slice(0, 40);
    const whole = await createSnapshot(database, { name: "to-split", records, createdBy: "test" });
    const parts = await splitSnapshot(database, { digest: whole.digest, shares: { train: 0.6, validation: 0.2, test: 0.2 }, seed: "split", createdBy: "test" });
    expect(parts.train.records + parts.validation.records + parts.test.records).toBe(records.length);
    const test = await loadSnapshot(database, parts.test.digest);
    expect(test.name).toBe("to-split/test");
    expect(test.lineage.parentSnapshot).toBe(whole.digest);
    expect(test.lineage.pipeline.at(-1)).toMatchObject({ step: "split", params: { part: "test", seed: "split" }, in: records.length, out: parts.test.records });
    // Deterministic: the same split again finds the same snapshots.
    expect(await splitSnapshot(database, { digest: whole.digest, shares: { train: 0.6, validation: 0.2, test: 0.2 }, seed: "split", createdBy: "test" })).toEqual(parts);
  });

  it("refuse bad input with the field named, and nothing half-written", async () => {
    await expect(createSnapshot(database, { name: "Bad Name", records: demos, createdBy: "t" })).rejects.toThrow(/name must be lowercase/);
    await expect(createSnapshot(database, { name: "bad", records: [{ ...demos[0], quality: 2 }], createdBy: "t" })).rejects.toThrow(/record 0: quality: quality must be ≤ 1/);
    await expect(createSnapshot(database, { name: "bad", records: [demos[0], demos[0]], createdBy: "t" })).rejects.toThrow(/id ".*" appears more than once/);
    expect(await listSnapshots(database, "bad")).toEqual([]);
  });

  it("turn stored rollouts into demonstrations with the rollouts as lineage, and are what a receipt pins", async () => {
    const batch = collectBatch(desk, UNIFORM, 0, { distribution: V2, episodesPerUpdate: 12, seed: "store", options: { toolFailureRate: 0.2 } });
    const records = demonstrationsFromTrajectories(batch.trajectories, { source: "store" });
    expect(records.length).toBe(batch.trajectories.filter((t) => t.complete).length);
    const s = await prepareSnapshot(database, { name: "from-store", records, steps: [{ step: "clean" }], createdBy: "test", lineage: { rollouts: batch.rollouts.map((r) => r.rolloutId) } });
    const loaded = await loadSnapshot(database, s.digest);
    expect(loaded.lineage.rollouts).toEqual(batch.rollouts.map((r) => r.rolloutId).sort());
    // Train from the loaded snapshot: the receipt pins exactly this snapshot.
    const r = await run({ family: "supervised", data: loaded, updates: 2, config: { qualityFiltering: { enabled: false } } });
    expect(receiptOf(r).data.training).toEqual({ id: s.id, digest: s.digest });
  });
});
