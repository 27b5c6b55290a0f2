// The audit log on a real database: written inside the change's transaction or not at all, one unbroken
// chain under concurrency, refused updates and deletes, and tampering found at the right row.
import { afterAll, beforeAll, expect, it } from "vitest";
import { appendAudit, AUDIT_LOCK, AuditOutsideTransactionError, listAudit, verifyAuditChain } from "@/server/audit/audit-log";
import { AUDIT_CHECKPOINT_EVERY } from "@/server/audit/checkpoints";
import type { Tx } from "@/server/db/client";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { SYSTEM } from "../../helpers/auth";

const event = (n: number) => ({ actor: SYSTEM, action: "test.event", target: { type: "thing", id: `t-${n}` }, after: { n } });

describeEachDialect("audit log", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "audit");
  });
  afterAll(() => database?.drop());

  const rowCount = () => database.db.auditEvent.count();

  it("refuses to run outside a transaction, or in one that does not hold the audit lock", async () => {
    await expect(appendAudit(database.db as unknown as Tx, event(0))).rejects.toBeInstanceOf(AuditOutsideTransactionError);
    await expect(database.transaction((tx) => appendAudit(tx, event(0)), { locks: ["something-else"] })).rejects.toBeInstanceOf(AuditOutsideTransactionError);
    await expect(database.db.$transaction((tx) => appendAudit(tx, event(0)))).rejects.toBeInstanceOf(AuditOutsideTransactionError);
    expect(await rowCount()).toBe(0);
  });

  it("commits with the change it records, and rolls back with it", async () => {
    await database.transaction(async (tx) => {
      await tx.systemSetting.create({ data: { key: "kept", value: "1" } });
      await appendAudit(tx, event(1));
    }, { locks: [AUDIT_LOCK] });
    await expect(
      database.transaction(async (tx) => {
        await tx.systemSetting.create({ data: { key: "failed-change", value: "1" } });
        await appendAudit(tx, event(2));
        throw new Error("the change failed after its audit row was written");
      }, { locks: [AUDIT_LOCK] }),
    ).rejects.toThrow("the change failed");
    expect(await database.db.systemSetting.findUnique({ where: { key: "failed-change" } })).toBeNull();
    expect(await rowCount()).toBe(1);
    // …and when writing the audit row fails, the change does not happen (Langfuse's best-effort audit is the cautionary case)
    await expect(
      database.transaction(async (tx) => {
        await tx.systemSetting.create({ data: { key: "unaudited", value: "1" } });
        await appendAudit(tx, { ...event(3), after: { n: 10n } });
      }, { locks: [AUDIT_LOCK] }),
    ).rejects.toThrow();
    expect(await database.db.systemSetting.findUnique({ where: { key: "unaudited" } })).toBeNull();
    const next = await database.transaction((tx) => appendAudit(tx, event(4)), { locks: [AUDIT_LOCK] });
    expect(next.seq).toBe(2);
    expect((await verifyAuditChain(database.db)).ok).toBe(true);
  });

  it("keeps one unbroken chain under 25 concurrent appenders", async () => {
    const before = await rowCount();
    await Promise.all(Array.from({ length: 25 }, (_, i) => database.transaction((tx) => appendAudit(tx, event(100 + i)), { locks: [AUDIT_LOCK] })));
    const verdict = await verifyAuditChain(database.db, { batchSize: 7 });
    expect(verdict).toMatchObject({ ok: true, rows: before + 25, firstBreak: null });
    expect(verdict.head?.seq).toBe(before + 25);
  });

  it("the database refuses to update or delete a row", async () => {
    await expect(database.db.$executeRawUnsafe(`UPDATE "AuditEvent" SET "action" = 'x' WHERE "seq" = 1`)).rejects.toThrow(/append-only/);
    await expect(database.db.$executeRawUnsafe(`DELETE FROM "AuditEvent" WHERE "seq" = 1`)).rejects.toThrow(/append-only/);
    await expect(database.db.auditEvent.deleteMany({})).rejects.toThrow();
    expect((await verifyAuditChain(database.db)).ok).toBe(true);
  });

  it("lists newest first, page by page", async () => {
    const first = await listAudit(database.db, { limit: 10 });
    expect(first.rows).toHaveLength(10);
    expect(first.rows[0]!.seq).toBeGreaterThan(first.rows[9]!.seq);
    const second = await listAudit(database.db, { limit: 10, cursor: first.nextCursor });
    expect(second.rows[0]!.seq).toBe(first.rows[9]!.seq - 1);
    expect(first.total).toBe(await rowCount());
  });

  it("finds tampering at the row where it happened (once someone with database access removes the guard)", async () => {
    const head = (await verifyAuditChain(database.db)).head!;
    await dropGuards();
    // cutting the newest rows, past the last signed checkpoint, leaves a chain that links up; the head recorded earlier catches it
    await database.db.$executeRawUnsafe(`DELETE FROM "AuditEvent" WHERE "seq" > ${AUDIT_CHECKPOINT_EVERY}`);
    expect((await verifyAuditChain(database.db)).ok).toBe(true);
    expect((await verifyAuditChain(database.db, { expectHead: head })).firstBreak).toMatchObject({ seq: head.seq, reason: "truncated" });
    await database.db.$executeRawUnsafe(`UPDATE "AuditEvent" SET "after" = '{"n":999}' WHERE "seq" = 5`);
    expect((await verifyAuditChain(database.db)).firstBreak).toMatchObject({ seq: 5, reason: "hash-mismatch" });
    await database.db.$executeRawUnsafe(`DELETE FROM "AuditEvent" WHERE "seq" >= 5 AND "seq" <= 6`);
    expect((await verifyAuditChain(database.db)).firstBreak).toMatchObject({ seq: 5, reason: "missing-row" });
    // rows a signed checkpoint vouched for cannot be cut unseen (checkpoints.test.ts has the rest)
    await database.db.$executeRawUnsafe(`DELETE FROM "AuditEvent" WHERE "seq" >= 5`);
    expect((await verifyAuditChain(database.db)).firstBreak).toMatchObject({ seq: 5, reason: "truncated" });
  });

  async function dropGuards() {
    if (dialect === "sqlite") {
      await database.db.$executeRawUnsafe(`DROP TRIGGER "AuditEvent_no_update"`);
      await database.db.$executeRawUnsafe(`DROP TRIGGER "AuditEvent_no_delete"`);
    } else {
      await database.db.$executeRawUnsafe(`ALTER TABLE "AuditEvent" DISABLE TRIGGER USER`);
    }
  }
});
