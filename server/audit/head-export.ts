// Copies the audit log's signed checkpoints out of the database into the heads file (exported-heads.ts):
// every LIGHTGATE_AUDIT_EXPORT_MINUTES on the server's timer (the leader alone when several processes share
// PostgreSQL) and at each `npm run audit:verify`. It first signs a checkpoint for the newest rows, so the file
// reaches the head, and appends only lines that follow on from the file's last one — after checking that the
// database still holds the row that line names (a rewritten database is reported, never exported over).
import fs from "node:fs";
import path from "node:path";
import type { Database } from "@/server/db/client";
import { checkpointAudit } from "./audit-log";
import { auditHeadsFile, databaseIdentity, dropTornTail, lastExportedHead, type ExportedHead } from "./exported-heads";

export type HeadExport = { file: string; exported: number; through: number };

export async function exportAuditHeads(database: Database, file = auditHeadsFile(database.target)): Promise<HeadExport> {
  await checkpointAudit(database);
  const identity = databaseIdentity(database.target);
  dropTornTail(file);
  const last = lastExportedHead(file);
  if (last && last.database !== identity) throw new Error(`${file} holds the audit heads of ${last.database}, not of ${identity}: set LIGHTGATE_AUDIT_HEADS_FILE to a file of this database's own`);
  if (last) {
    const row = await database.db.auditEvent.findUnique({ where: { seq: last.seq }, select: { hash: true } });
    if (row?.hash !== last.hash) throw new Error(`audit row ${last.seq} is ${row ? "no longer the row" : "gone, the row"} whose hash was exported to ${file}: the log was rewritten — not exporting over it; run npm run audit:verify`);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let through = last?.seq ?? 0;
  let exported = 0;
  for (;;) {
    const batch = await database.db.auditCheckpoint.findMany({ where: { seq: { gt: through } }, orderBy: { seq: "asc" }, take: 100 });
    if (!batch.length) break;
    const lines: string[] = [];
    for (const cp of batch) {
      if (cp.fromSeq !== through + 1) throw new Error(`audit checkpoints skip rows ${through + 1}–${cp.fromSeq - 1}: not exporting past the gap; run npm run audit:verify`);
      const head: ExportedHead = { v: 1, database: identity, seq: cp.seq, fromSeq: cp.fromSeq, hash: cp.hash, rowHashes: cp.rowHashes, at: cp.at.toISOString(), keyId: cp.keyId, signature: cp.signature, exportedAt: new Date().toISOString() };
      lines.push(JSON.stringify(head) + "\n");
      through = cp.seq;
    }
    fs.appendFileSync(file, lines.join(""));
    exported += lines.length;
  }
  return { file, exported, through };
}

/** Who may export now: the store's leadership (server/store/leadership.ts) — only what this module asks of it. */
type Leader = { acquire(): Promise<boolean> };

/** Every LIGHTGATE_AUDIT_EXPORT_MINUTES (default 5; 0 turns it off), and once now, on the leader. Returns a stop. */
export function startAuditHeadExport(database: Database, leadership: Leader, env: NodeJS.ProcessEnv = process.env): () => void {
  const minutes = Number(env.LIGHTGATE_AUDIT_EXPORT_MINUTES ?? 5);
  if (!(minutes > 0)) return () => {};
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    leadership
      .acquire()
      .then((leader) => (leader ? exportAuditHeads(database) : null))
      .then((out) => out?.exported && console.log(`audit: exported signed heads through row ${out.through} to ${out.file}`))
      .catch((e: unknown) => console.error(`audit: exporting signed heads failed: ${(e as Error).message}`))
      .finally(() => (running = false));
  };
  const timer = setInterval(tick, Math.max(500, minutes * 60_000));
  timer.unref();
  tick();
  return () => clearInterval(timer);
}
