// The exact parent must stay loadable (release-gate spec, "Decisions since the first release"), on both dialects,
// on the stored reference: the database refuses to delete the parent's resource version; with it gone anyway —
// the guard dropped and the row deleted, as an operator or a hostile edit of the database would — check 1 fails naming it, an approval prepared before is
// refused at commit (pointer unchanged, refusal audited), and a rollback to it is refused the same way.
import { afterEach, expect, it } from "vitest";
import { beginApproval, finishApproval } from "@/server/approvals/approve";
import { receiptSource } from "@/server/approvals/db-source";
import { beginRollback, finishRollback, rollbackOptions } from "@/server/approvals/rollback";
import { readPointer } from "@/server/candidates/pointers";
import { seedReferenceDemo } from "@/server/reference/reference-demo";
import { gateReport } from "@/server/receipts/report";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { AGENT, PARENT, personWithPasskey } from "../../helpers/approvals";

const opts = { source: receiptSource };
const GONE = new RegExp(`exact parent ${PARENT.resourceId} v${PARENT.version} cannot be loaded \\(the store holds no version ${PARENT.version} of ${PARENT.resourceId}\\)`);

describeEachDialect("the exact parent stays loadable", (dialect) => {
  let database: TestDatabase | undefined;
  afterEach(() => database?.drop());

  async function seeded(label: string) {
    database = await createTestDatabase(dialect, label);
    const [a] = await seedReferenceDemo(database, { only: ["A"], withoutApproval: ["A"], now: new Date() });
    const rosa = await personWithPasskey(database, [{ role: "release_approver", agent: null }], "Rosa Approver");
    return { db: database, candidateId: a!.candidateId, rosa };
  }
  /**
   * The parent's stored version, deleted directly in the database: the database refuses it, so this is an operator
   * (or an intruder) with the rights to drop that guard first — the gate must still say so.
   */
  async function removeParent(db: TestDatabase) {
    const where = { resourcesId: PARENT.resourceId, version: PARENT.version };
    // (Prisma's SQLite adapter reports the trigger's abort as a constraint violation, without its message.)
    await expect(db.db.storeResourcesVersion.deleteMany({ where })).rejects.toThrow(dialect === "postgresql" ? /never deleted/ : /constraint/i);
    // Deleting the head row (whose versions cascade) is refused the same way.
    await expect(db.db.storeResources.deleteMany({ where: { resourcesId: PARENT.resourceId } })).rejects.toThrow();
    expect(await db.db.storeResourcesVersion.count({ where })).toBe(1);
    await db.db.$executeRawUnsafe(`DROP TRIGGER "store_resources_versions_named_no_delete"${dialect === "postgresql" ? ' ON "store_resources_versions"' : ""}`);
    return db.db.storeResourcesVersion.deleteMany({ where });
  }

  it("check 1 fails naming the missing parent, and an approval prepared before is refused at commit and audited", async () => {
    const { db, candidateId, rosa } = await seeded("parent-gone");
    const before = (await gateReport(db, candidateId)).report!;
    expect([before.verdict, before.checks[0]!.status]).toEqual(["READY FOR APPROVAL", "pass"]);
    const loaded = await beginApproval(db, rosa.actor, { agent: AGENT, candidateId, step: "canary" }, opts);

    expect((await removeParent(db)).count).toBe(1);
    const after = (await gateReport(db, candidateId)).report!;
    expect(after.checks[0]).toMatchObject({ status: "fail", explanation: expect.stringContaining(`the parent ${PARENT.resourceId} v${PARENT.version} cannot be loaded now (the store holds no version`) });
    expect(after.verdict).toBe("QUARANTINED");

    const err = await finishApproval(db, rosa.actor, { payload: loaded.payload, response: rosa.key.assert(loaded.options!) }, opts).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "PRECONDITION_FAILED", message: expect.stringMatching(GONE) });
    expect(await readPointer(db.db, AGENT, "canary")).toBeNull();
    const refused = await db.db.approvalDecision.findFirstOrThrow({ where: { candidateId, action: "refused" } });
    expect(refused.refusal).toMatch(GONE);
    const audit = await db.db.auditEvent.findMany({ where: { action: "approval.canary.refused", targetId: candidateId } });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toMatch(/cannot be loaded/);

    // A fresh attempt is refused at once, with the same reason, and audited too.
    await expect(beginApproval(db, rosa.actor, { agent: AGENT, candidateId, step: "canary" }, opts)).rejects.toMatchObject({ message: expect.stringMatching(GONE) });
    expect(await db.db.auditEvent.count({ where: { action: "approval.canary.refused", targetId: candidateId } })).toBe(2);
  }, 120_000);

  it("check 1 fails when the parent's stored bytes were rewritten behind the store (another digest), naming both", async () => {
    const { db, candidateId } = await seeded("parent-rewritten");
    const where = `"resources_id" = '${PARENT.resourceId}' AND "version" = ${PARENT.version}`;
    // The store's own trigger refuses rewriting a version; an operator drops it first.
    await db.db.$executeRawUnsafe(`DROP TRIGGER "store_resources_versions_no_update"${dialect === "postgresql" ? ' ON "store_resources_versions"' : ""}`);
    await db.db.$executeRawUnsafe(`UPDATE "store_resources_versions" SET "resources" = '{"policy":{"resource_type":"policy","weights":"swapped"}}' WHERE ${where}`);
    const check1 = (await gateReport(db, candidateId)).report!.checks[0]!;
    expect(check1.status).toBe("fail");
    expect(check1.explanation).toMatch(new RegExp(`the parent ${PARENT.resourceId} v1 cannot be loaded now \\(the stored bytes of ${PARENT.resourceId} v1 hash to sha256:[0-9a-f]{64}, not the pinned ${PARENT.digest}\\)`));
  }, 120_000);

  it("a rollback to the missing parent is refused with the reason — prepared before or asked after — and audited", async () => {
    const { db, candidateId, rosa } = await seeded("parent-gone-rb");
    const begun = await beginApproval(db, rosa.actor, { agent: AGENT, candidateId, step: "canary" }, opts);
    await finishApproval(db, rosa.actor, { payload: begun.payload, response: rosa.key.assert(begun.options!) }, opts);
    const canary = (await readPointer(db.db, AGENT, "canary"))!;
    expect(canary.candidateId).toBe(candidateId);
    expect((await rollbackOptions(db.db, receiptSource, AGENT, "canary", rosa.actor)).targets.map((t) => t.ref.digest)).toEqual([PARENT.digest]);
    const prepared = await beginRollback(db, rosa.actor, { agent: AGENT, pointer: "canary", toDigest: PARENT.digest, reason: "canary misroutes refunds" }, opts);

    await removeParent(db);
    const options = await rollbackOptions(db.db, receiptSource, AGENT, "canary", rosa.actor);
    expect(options.targets).toEqual([]);
    expect(options.unloadable).toEqual([{ ref: PARENT, reason: expect.stringMatching(GONE) }]);
    expect(options.blocked).toMatch(/no loadable target to return to/);

    const err = await finishRollback(db, rosa.actor, { payload: prepared.payload, response: rosa.key.assert(prepared.options!) }, opts).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "PRECONDITION_FAILED", message: expect.stringMatching(GONE) });
    expect((await readPointer(db.db, AGENT, "canary"))!.digest).toBe(canary.digest);
    await expect(beginRollback(db, rosa.actor, { agent: AGENT, pointer: "canary", toDigest: PARENT.digest, reason: "try again" }, opts)).rejects.toMatchObject({ code: "PRECONDITION_FAILED", message: expect.stringMatching(GONE) });
    const audit = await db.db.auditEvent.findMany({ where: { action: "rollback.canary.refused" }, orderBy: { seq: "asc" } });
    expect(audit.map((a) => JSON.parse(a.after!).phase)).toEqual(["finish", "begin"]);
    for (const a of audit) expect(a.after).toMatch(/cannot be loaded/);
    expect(await db.db.pointerMove.count({ where: { agent: AGENT, kind: "canary", toDigest: PARENT.digest } })).toBe(0);
  }, 120_000);
});
