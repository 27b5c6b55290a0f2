// What someone with write access to the database does to the audit log, once past its guards: the steps
// the audit suites replay to show the verifier still names the first altered row.
import { sign, type KeyObject } from "node:crypto";
import { hashAuditRow } from "@/server/audit/chain";
import type { Dialect } from "@/server/db/config";
import { canonicalJson } from "@/server/digest";
import type { TestDatabase } from "./db";

/** Removes the triggers that refuse UPDATE and DELETE on the audit rows and checkpoints. */
export async function dropAuditGuards(db: TestDatabase, dialect: Dialect): Promise<void> {
  if (dialect === "sqlite") {
    for (const t of ["AuditEvent_no_update", "AuditEvent_no_delete", "AuditCheckpoint_no_update", "AuditCheckpoint_no_delete"]) await db.db.$executeRawUnsafe(`DROP TRIGGER "${t}"`);
  } else {
    await db.db.$executeRawUnsafe(`ALTER TABLE "AuditEvent" DISABLE TRIGGER USER`);
    await db.db.$executeRawUnsafe(`ALTER TABLE "AuditCheckpoint" DISABLE TRIGGER USER`);
  }
}

/** Edits row `seq`'s `after`, then re-hashes it and every row after it, so the unkeyed chain links up again. */
export async function editAndRehash(db: TestDatabase, seq: number, after: string): Promise<void> {
  const rows = await db.db.auditEvent.findMany({ where: { seq: { gte: seq } }, orderBy: { seq: "asc" } });
  let prevHash = rows[0]!.prevHash;
  for (const row of rows) {
    const edited = { ...row, after: row.seq === seq ? after : row.after, prevHash };
    const hash = hashAuditRow(edited);
    await db.db.$executeRaw`UPDATE "AuditEvent" SET "after" = ${edited.after}, "prevHash" = ${prevHash}, "hash" = ${hash} WHERE "seq" = ${row.seq}`;
    prevHash = hash;
  }
}

/** Re-signs every checkpoint over the rows as they now are, with `key` (the bytes as checkpoints.ts signs them). */
export async function resignCheckpoints(db: TestDatabase, key: KeyObject): Promise<void> {
  for (const cp of await db.db.auditCheckpoint.findMany({ orderBy: { seq: "asc" } })) {
    const rows = await db.db.auditEvent.findMany({ where: { seq: { gte: cp.fromSeq, lte: cp.seq } }, orderBy: { seq: "asc" } });
    const rowHashes = JSON.stringify(rows.map((r) => r.hash));
    const hash = rows.at(-1)!.hash;
    const bytes = Buffer.from(canonicalJson({ purpose: "lightgate.audit-checkpoint.v1", seq: cp.seq, fromSeq: cp.fromSeq, hash, rowHashes, at: cp.at.toISOString() }));
    await db.db.$executeRaw`UPDATE "AuditCheckpoint" SET "hash" = ${hash}, "rowHashes" = ${rowHashes}, "signature" = ${sign(null, bytes, key).toString("base64url")} WHERE "seq" = ${cp.seq}`;
  }
}
