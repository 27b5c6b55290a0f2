// Signed checkpoints anchor the audit chain to the server's Ed25519 key: rows edited behind the triggers and
// re-hashed (so the unkeyed chain links up again) are caught without a head recorded elsewhere, and the
// verifier names the FIRST edited row — on both dialects, through verifyAuditChain and `npm run audit:verify`.
// (A tail re-signed with the server's own key, and the key kept apart: signing-key-apart.test.ts.)
import { execFile } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { appendAudit, AUDIT_LOCK, checkpointAudit, verifyAuditChain } from "@/server/audit/audit-log";
import { hashAuditRow } from "@/server/audit/chain";
import { AUDIT_CHECKPOINT_EVERY } from "@/server/audit/checkpoints";
import { receiptSigningKey } from "@/server/keys/signing-key";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { SYSTEM } from "../../helpers/auth";
import { dropAuditGuards, editAndRehash, resignCheckpoints } from "../../helpers/audit-tamper";

const run = promisify(execFile);

describeEachDialect("signed audit checkpoints", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "auditcp");
  });
  afterAll(() => database?.drop());

  const append = (n: number) =>
    database.transaction((tx) => appendAudit(tx, { actor: SYSTEM, action: "test.event", target: { type: "thing", id: `t-${n}` }, after: { n } }), { locks: [AUDIT_LOCK] });
  const checkpoints = () => database.db.auditCheckpoint.findMany({ orderBy: { seq: "asc" } });

  it("appending signs a checkpoint every AUDIT_CHECKPOINT_EVERY rows, in the row's own transaction", async () => {
    for (let i = 1; i <= 2 * AUDIT_CHECKPOINT_EVERY + 5; i++) await append(i);
    expect((await checkpoints()).map((c) => [c.fromSeq, c.seq])).toEqual([
      [1, AUDIT_CHECKPOINT_EVERY],
      [AUDIT_CHECKPOINT_EVERY + 1, 2 * AUDIT_CHECKPOINT_EVERY],
    ]);
    expect(await verifyAuditChain(database.db)).toMatchObject({ ok: true, signedThrough: 2 * AUDIT_CHECKPOINT_EVERY });
    // a rolled-back append takes its checkpoint with it
    const before = (await checkpoints()).length;
    for (let i = 0; i < AUDIT_CHECKPOINT_EVERY; i++) {
      await expect(database.transaction(async (tx) => {
        await appendAudit(tx, { actor: SYSTEM, action: "test.event", target: { type: "thing", id: "rolled-back" } });
        throw new Error("the change failed");
      }, { locks: [AUDIT_LOCK] })).rejects.toThrow("the change failed");
    }
    expect(await checkpoints()).toHaveLength(before);
    // checkpointing on demand (what audit:verify does once the chain verifies) vouches for the tail
    const cp = await checkpointAudit(database);
    expect(cp).toMatchObject({ fromSeq: 2 * AUDIT_CHECKPOINT_EVERY + 1, seq: 2 * AUDIT_CHECKPOINT_EVERY + 5 });
    expect(await checkpointAudit(database)).toBeNull();
    expect(await verifyAuditChain(database.db)).toMatchObject({ ok: true, signedThrough: 2 * AUDIT_CHECKPOINT_EVERY + 5 });
  });

  it("the database refuses to change or remove a checkpoint", async () => {
    await expect(database.db.$executeRawUnsafe(`UPDATE "AuditCheckpoint" SET "hash" = 'x' WHERE "seq" = ${AUDIT_CHECKPOINT_EVERY}`)).rejects.toThrow(/append-only/);
    await expect(database.db.$executeRawUnsafe(`DELETE FROM "AuditCheckpoint"`)).rejects.toThrow(/append-only/);
  });

  it("a re-hashed tail is caught without --head, naming the first edited row — also by npm run audit:verify", async () => {
    await dropAuditGuards(database, dialect);
    const head = (await verifyAuditChain(database.db)).head!;
    await editAndRehash(database, 5, '{"n":"nothing to see"}');
    await editAndRehash(database, 9, '{"n":"nor here"}');
    // the unkeyed chain links up again…
    const rows = await database.db.auditEvent.findMany({ orderBy: { seq: "asc" } });
    expect(rows.every((r, i) => hashAuditRow(r) === r.hash && (i === 0 || r.prevHash === rows[i - 1]!.hash))).toBe(true);
    // …but rows 5 on no longer carry the hashes the server signed: row 5 is named, not the head
    const verdict = await verifyAuditChain(database.db, { batchSize: 3 });
    expect(verdict).toMatchObject({ ok: false, rows: 4, firstBreak: { seq: 5, reason: "rechained" } });
    expect(verdict.firstBreak!.detail).toMatch(/row 5 was altered and the rows after it re-hashed/);
    expect((await verifyAuditChain(database.db, { expectHead: { seq: head.seq, hash: head.hash } })).firstBreak).toMatchObject({ seq: 5 });

    const cli = await run("npx", ["tsx", "scripts/audit-verify.ts"], { env: { ...process.env, DATABASE_URL: database.url } }).catch((e: { code: number; stderr: string }) => e);
    expect(cli).toMatchObject({ code: 1, stderr: expect.stringContaining("BROKEN at row 5 (rechained)") });
  }, 120_000); // the CLI is a second process starting through tsx: 30 s on a loaded two-core machine

  it("a checkpoint re-signed by another key is named; so is the key swapped in the database, when the key is kept apart", async () => {
    const t = await tamperable("auditcpforge");
    try {
      const serverKey = (await receiptSigningKey(t.db.db)).publicKey;
      const forger = generateKeyPairSync("ed25519").privateKey;
      await t.editAndRehash(5, '{"n":"nothing to see"}');
      await resignCheckpoints(t.db, forger);
      expect((await verifyAuditChain(t.db.db)).firstBreak).toMatchObject({ seq: AUDIT_CHECKPOINT_EVERY, reason: "checkpoint-invalid", detail: expect.stringContaining(`rows 1–${AUDIT_CHECKPOINT_EVERY} is not signed by the server's key`) });
      // the private key is not in the database (a file beside the data): the forger's key written where older
      // installations kept it is ignored, and a public key kept apart tells the same
      const pem = forger.export({ type: "pkcs8", format: "pem" }).toString();
      await t.db.db.systemSetting.create({ data: { key: "receipt.ed25519.private", value: pem } });
      expect((await verifyAuditChain(t.db.db)).firstBreak).toMatchObject({ seq: AUDIT_CHECKPOINT_EVERY, reason: "checkpoint-invalid" });
      expect((await verifyAuditChain(t.db.db, { trustedKeys: [serverKey] })).firstBreak).toMatchObject({ seq: AUDIT_CHECKPOINT_EVERY, reason: "checkpoint-invalid" });
    } finally {
      await t.db.drop();
    }
  });

  it("rows cut below a checkpoint are caught without --head; removed checkpoints are named", async () => {
    const t = await tamperable("auditcpcut");
    try {
      await t.db.db.$executeRawUnsafe(`DELETE FROM "AuditEvent" WHERE "seq" >= 20`);
      expect((await verifyAuditChain(t.db.db)).firstBreak).toMatchObject({ seq: 20, reason: "truncated", detail: expect.stringContaining(`rows 20–${2 * AUDIT_CHECKPOINT_EVERY}, vouched for by a signed checkpoint, are gone`) });
      await t.db.db.$executeRawUnsafe(`DELETE FROM "AuditCheckpoint" WHERE "seq" = ${2 * AUDIT_CHECKPOINT_EVERY}`);
      expect((await verifyAuditChain(t.db.db)).ok).toBe(true); // 3 rows past the last checkpoint: only a recorded head covers those
      await t.db.db.$executeRawUnsafe(`DELETE FROM "AuditCheckpoint" WHERE "seq" = ${AUDIT_CHECKPOINT_EVERY}`);
      expect((await verifyAuditChain(t.db.db)).firstBreak).toMatchObject({ seq: AUDIT_CHECKPOINT_EVERY, reason: "checkpoint-missing" });
    } finally {
      await t.db.drop();
    }
    const u = await tamperable("auditcpgap");
    try {
      await u.db.db.$executeRawUnsafe(`DELETE FROM "AuditCheckpoint" WHERE "seq" = ${AUDIT_CHECKPOINT_EVERY}`);
      expect((await verifyAuditChain(u.db.db)).firstBreak).toMatchObject({ seq: 1, reason: "checkpoint-missing", detail: expect.stringContaining(`skip rows 1–${AUDIT_CHECKPOINT_EVERY}`) });
    } finally {
      await u.db.drop();
    }
  });

  /** A fresh database with 2·N + 5 audited rows (two checkpoints), its guards removed. */
  async function tamperable(label: string) {
    const db = await createTestDatabase(dialect, label);
    for (let i = 1; i <= 2 * AUDIT_CHECKPOINT_EVERY + 5; i++) {
      await db.transaction((tx) => appendAudit(tx, { actor: SYSTEM, action: "test.event", target: { type: "thing", id: `t-${i}` }, after: { n: i } }), { locks: [AUDIT_LOCK] });
    }
    await dropAuditGuards(db, dialect);
    return { db, editAndRehash: (seq: number, after: string) => editAndRehash(db, seq, after) };
  }
});
