import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { feedbackReceived } from "@/server/datasets/feedback-inbox";
import { createSnapshot } from "@/server/datasets/snapshot";
import { callerAs, callerFor } from "../../helpers/caller";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { expertDemos } from "../../helpers/families";
import { FAMILY_NAMES } from "@/server/trainers/family";

const FEEDBACK = { interactionId: "int-42", raterId: "customer-7", givenAt: "2026-03-01T10:00:00.000Z", rating: 2, suggestions: ["more_concise"], text: "Too long, but it answered my question" };

describeEachDialect("feedback, datasets and learning over tRPC", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "learning");
  });
  afterAll(() => database?.drop());

  it("feedback.submit stores feedback on one interaction once, however often a client retries it", async () => {
    const runner = callerAs(database, "runner");
    const first = await runner.feedback.submit(FEEDBACK);
    expect(first).toMatchObject({ created: true, id: expect.stringMatching(/^fb-[0-9a-f]{16}$/) });
    expect(await runner.feedback.submit(FEEDBACK)).toEqual({ ...first, created: false });
    const stored = await feedbackReceived(database, { interactionId: "int-42" });
    expect(stored).toEqual([{ kind: "feedback", id: first.id, credibility: 1, preferredOver: null, correction: null, ...FEEDBACK }]);
  });

  it("refuses bad feedback with the field named, and callers without the store:write scope", async () => {
    const runner = callerAs(database, "runner");
    const bad = await runner.feedback.submit({ ...FEEDBACK, rating: 9 }).catch((e: TRPCError) => e);
    expect(bad).toBeInstanceOf(TRPCError);
    expect((bad as TRPCError).code).toBe("BAD_REQUEST");
    expect((bad as TRPCError).message).toMatch(/rating must be ≤ 5/);
    await expect(runner.feedback.submit({ interactionId: "i", raterId: "r", givenAt: FEEDBACK.givenAt })).rejects.toThrow(/feedback needs a rating, a preference, a correction or a suggestion/);
    await expect(callerAs(database, "viewer").feedback.submit(FEEDBACK)).rejects.toThrow(/lacks the "store:write" scope/);
    await expect(callerFor(database, null).feedback.submit(FEEDBACK)).rejects.toThrow(/sign in first/);
  });

  it("datasets.listSnapshots and getSnapshotLineage show snapshots with their lineage", async () => {
    const demos = expertDemos(10, "router");
    const a = await createSnapshot(database, { name: "router-demos", records: demos.slice(0, 5), createdBy: "t", lineage: { sources: ["experts"] } });
    const b = await createSnapshot(database, { name: "router-demos", records: demos, createdBy: "t", lineage: { parentSnapshot: a.digest, rollouts: ["ro-2", "ro-1"] } });
    const viewer = callerAs(database, "viewer");
    const list = await viewer.datasets.listSnapshots({ name: "router-demos" });
    expect(list.map((s) => s.version)).toEqual([2, 1]);
    expect(list[0]!.lineage.rollouts).toEqual(["ro-1", "ro-2"]);
    const chain = await viewer.datasets.getSnapshotLineage({ digest: b.digest });
    expect(chain.map((s) => s.digest)).toEqual([b.digest, a.digest]);
    await expect(viewer.datasets.getSnapshotLineage({ digest: `sha256:${"9".repeat(64)}` })).rejects.toThrow(/no dataset snapshot/);
    await expect(viewer.datasets.getSnapshotLineage({ digest: "latest" })).rejects.toThrow(/digest must be sha256/);
  });

  it("learning.listFamilies and checkFamilyConfig give the training page every family and field-named problems", async () => {
    const viewer = callerAs(database, "viewer");
    const families = await viewer.learning.listFamilies();
    // Every registered family, the neural ones included.
    expect(families.map((f) => f.name).sort()).toEqual([...FAMILY_NAMES].sort());
    expect(families.map((f) => f.name)).toEqual(expect.arrayContaining(["ppo-mlp", "dqn-mlp", "prompt-optimization"]));
    expect(await viewer.learning.checkFamilyConfig({ family: "supervised", config: { batchSize: 0 } })).toEqual({ problems: ["batchSize: batchSize must be ≥ 1"] });
    expect(await viewer.learning.checkFamilyConfig({ family: "supervised", config: {} })).toEqual({ problems: [] });
  });
});
