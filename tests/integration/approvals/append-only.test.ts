// Signed decisions and pointer moves are history: the database itself refuses to change or delete them
// (triggers in the migrations), whoever asks — not only the application code, which never does.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

describeEachDialect("approval history is append-only", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "append");
    await database.db.approvalDecision.create({
      data: { id: "apr-test", action: "reject", agent: "support-desk", candidateId: "cand-x", actorId: "usr-1", actorKind: "person", actorName: "Reviewer", comment: "not yet", at: new Date() },
    });
    await database.db.pointerMove.create({
      data: { id: "pm-test", agent: "support-desk", kind: "approved_default", toResourcesId: "rs-1", toVersion: 1, toDigest: "sha256:00", actorId: "usr-1", actorKind: "person", reason: "approve", at: new Date() },
    });
  });
  afterAll(() => database?.drop());

  it("refuses to alter or delete a decision", async () => {
    await expect(database.db.approvalDecision.update({ where: { id: "apr-test" }, data: { action: "approve" } })).rejects.toThrow(/append-only/);
    await expect(database.db.$executeRawUnsafe(`DELETE FROM approval_decisions WHERE id = 'apr-test'`)).rejects.toThrow(/append-only/);
    expect((await database.db.approvalDecision.findUnique({ where: { id: "apr-test" } }))?.action).toBe("reject");
  });

  it("refuses to rewrite a pointer's history", async () => {
    await expect(database.db.pointerMove.updateMany({ where: { id: "pm-test" }, data: { toDigest: "sha256:ff" } })).rejects.toThrow(/append-only/);
    await expect(database.db.pointerMove.deleteMany({})).rejects.toThrow(/append-only/);
    expect(await database.db.pointerMove.count()).toBe(1);
  });

  it("still takes new rows", async () => {
    await database.db.approvalDecision.create({ data: { id: "apr-next", action: "approve", agent: "support-desk", actorId: "usr-2", actorKind: "person", actorName: "Owner", at: new Date() } });
    expect(await database.db.approvalDecision.count()).toBe(2);
  });
});
