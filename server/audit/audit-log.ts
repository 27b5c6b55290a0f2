// The append-only, hash-chained audit log. This module is its only writer, and it exports no way to
// change or remove a row (the database triggers refuse both too). A row is appended *inside* the
// transaction of the change it records, so the change and its record commit or vanish together.
import type { RoleGrant } from "@/lib/auth/scopes";
import type { KeyObject } from "node:crypto";
import { canonicalJson, newId } from "@/server/digest";
import { targetOf, transactionLocks, type Database, type Db, type Tx } from "@/server/db/client";
import { findChainBreak, GENESIS_HASH, hashAuditRow, type AuditRow, type ChainBreak } from "./chain";
import { auditHeadsFile, databaseIdentity, ExportedHeadsReader, lastExportedHead } from "./exported-heads";
import { AUDIT_CHECKPOINT_EVERY, CheckpointReader, checkpointIfDue, serverCheckpointKeys, writeCheckpointIn, type CheckpointRow } from "./checkpoints";

export type { AuditRow, ChainBreak };

/** Who did it, with the roles they held at that moment (an Actor fits). */
export type AuditActor = { kind: "user" | "service" | "system"; id: string; name: string; grants: readonly RoleGrant[] };

export type AuditEventInput = {
  actor: AuditActor;
  /** dotted verb, e.g. "user.create", "auth.sign_in", "role.grant", "passkey.register" */
  action: string;
  target: { type: string; id: string };
  before?: unknown;
  after?: unknown;
};

export class AuditOutsideTransactionError extends Error {
  constructor(detail: string) {
    super(`appendAudit must run inside database.transaction(fn, { locks: ["audit"] }): ${detail}`);
  }
}

/** The lock every appender holds, so two appends never compute the same next row. */
export const AUDIT_LOCK = "audit";

function rolesText(grants: readonly RoleGrant[]): string {
  const sorted = [...grants].map((g) => ({ role: g.role, agent: g.agent })).sort((a, b) => `${a.role}@${a.agent ?? "*"}`.localeCompare(`${b.role}@${b.agent ?? "*"}`));
  return canonicalJson(sorted);
}

export async function appendAudit(tx: Tx, event: AuditEventInput): Promise<AuditRow> {
  const locks = transactionLocks(tx);
  if (!locks) throw new AuditOutsideTransactionError("called with a client that is not an open transaction");
  if (!locks.includes(AUDIT_LOCK)) throw new AuditOutsideTransactionError(`the transaction holds ${JSON.stringify(locks)}, not "${AUDIT_LOCK}"`);
  const last = await tx.auditEvent.findFirst({ orderBy: { seq: "desc" }, select: { seq: true, hash: true } });
  const content = {
    id: newId("au"),
    seq: (last?.seq ?? 0) + 1,
    at: new Date(),
    actorKind: event.actor.kind,
    actorId: event.actor.id,
    actorName: event.actor.name,
    actorRoles: rolesText(event.actor.grants),
    action: event.action,
    targetType: event.target.type,
    targetId: event.target.id,
    before: event.before === undefined || event.before === null ? null : canonicalJson(event.before),
    after: event.after === undefined || event.after === null ? null : canonicalJson(event.after),
    prevHash: last?.hash ?? GENESIS_HASH,
  };
  const row: AuditRow = { ...content, hash: hashAuditRow(content) };
  await tx.auditEvent.create({ data: row });
  await checkpointIfDue(tx, row);
  return row;
}

/** Signs a checkpoint for the rows up to `head` (a head just verified; default: the newest row) not yet vouched for. */
export function checkpointAudit(database: Database, head?: { seq: number; hash: string }): Promise<CheckpointRow | null> {
  return database.transaction(
    async (tx) => {
      const upTo = head ?? (await tx.auditEvent.findFirst({ orderBy: { seq: "desc" }, select: { seq: true, hash: true } }));
      return upTo ? writeCheckpointIn(tx, upTo) : null;
    },
    { locks: [AUDIT_LOCK] },
  );
}

export type AuditPage = { rows: AuditRow[]; nextCursor: number | null; total: number };

/** Newest first; `cursor` is the seq to continue below. */
export async function listAudit(db: Db, opts: { cursor?: number | null; limit?: number; targetType?: string; targetId?: string } = {}): Promise<AuditPage> {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const where = {
    ...(opts.cursor ? { seq: { lt: opts.cursor } } : {}),
    ...(opts.targetType ? { targetType: opts.targetType } : {}),
    ...(opts.targetId ? { targetId: opts.targetId } : {}),
  };
  const [rows, total] = await Promise.all([
    db.auditEvent.findMany({ where, orderBy: { seq: "desc" }, take: limit + 1 }),
    db.auditEvent.count({ where: { ...where, seq: undefined } }),
  ]);
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: rows.length > limit ? (page.at(-1)?.seq ?? null) : null, total };
}

export type ChainVerdict = {
  ok: boolean;
  rows: number;
  head: { seq: number; hash: string } | null;
  firstBreak: ChainBreak | null;
  /** The newest row a valid signed checkpoint vouches for (0: none); rows after it rest on the unkeyed chain alone. */
  signedThrough: number;
  /** The exported heads file checked against (exported-heads.ts), and the newest row it vouches for. */
  exported: { file: string; signedThrough: number } | null;
  /** What the verifier could not use, and why (a heads file of another database). */
  notes: string[];
  checkedAt: Date;
};

export type VerifyOptions = {
  expectHead?: { seq: number; hash: string };
  batchSize?: number;
  trustedKeys?: KeyObject[];
  /** A heads file to check against (a copy kept elsewhere; used whatever database it names); default: the exported one, when present. */
  headsFile?: string;
};

/** The exported heads file to check against: the one given, or this database's own when there is one. */
function openExportedHeads(db: Db, opts: VerifyOptions, trusted: readonly KeyObject[], notes: string[]): ExportedHeadsReader | null {
  if (opts.headsFile) return new ExportedHeadsReader(opts.headsFile, trusted, null);
  const target = targetOf(db);
  if (!target) return null;
  const file = auditHeadsFile(target);
  const last = lastExportedHead(file);
  if (!last) return null;
  if (last.database !== databaseIdentity(target)) {
    notes.push(`${file} holds the heads of ${last.database}, not of this database: not used (pass it as --head <file> to check against it anyway)`);
    return null;
  }
  return new ExportedHeadsReader(file, trusted, databaseIdentity(target));
}

/** The first row in `rows` whose hash is not the one the exported heads list for it. */
function exportedBreak(rows: readonly AuditRow[], heads: ExportedHeadsReader | null): ChainBreak | null {
  const row = heads && rows.find((r) => heads.vouched.hashOf(r.seq) !== undefined && heads.vouched.hashOf(r.seq) !== r.hash);
  return row
    ? { seq: row.seq, id: row.id, reason: "rechained", detail: `row ${row.seq} is not the row whose hash was exported to ${heads!.file}: it was altered, and the rows after it re-hashed (and any checkpoints re-signed)` }
    : null;
}

/**
 * Walks the whole chain in seq order, in batches, and reports the first break: a row altered, missing or
 * re-linked, or — through the signed checkpoints — altered and re-hashed with every row after it, rows cut
 * from the end that a checkpoint vouched for, or checkpoints forged or removed. The signed heads exported out
 * of the database (exported-heads.ts) are checked the same way, row by row, so a tail re-signed by someone
 * holding the key is still named at its first altered row. Rows newer than the last checkpoint can be cut
 * without trace, so pass a head recorded earlier elsewhere (`expectHead`, as printed by `npm run
 * audit:verify`) to prove that nothing was removed from the end either. `trustedKeys` replaces the server's
 * own key (LIGHTGATE_RECEIPT_PRIVATE_KEY, the key file, or — installations from before — the database).
 */
export async function verifyAuditChain(db: Db, opts: VerifyOptions = {}): Promise<ChainVerdict> {
  const batchSize = opts.batchSize ?? 1000;
  const trusted = opts.trustedKeys ?? (await serverCheckpointKeys(db));
  const checkpoints = new CheckpointReader(db, trusted);
  const notes: string[] = [];
  const heads = openExportedHeads(db, opts, trusted, notes);
  try {
    return await walk(db, batchSize, checkpoints, heads, opts.expectHead, notes);
  } finally {
    heads?.close();
  }
}

async function walk(db: Db, batchSize: number, checkpoints: CheckpointReader, heads: ExportedHeadsReader | null, expectHead: VerifyOptions["expectHead"], notes: string[]): Promise<ChainVerdict> {
  let prev: { seq: number; hash: string } | null = null;
  let count = 0;
  const verdict = (firstBreak: ChainBreak | null): ChainVerdict => ({
    ok: !firstBreak,
    rows: count,
    head: firstBreak ? null : prev,
    firstBreak,
    signedThrough: checkpoints.signedThrough,
    exported: heads ? { file: heads.file, signedThrough: heads.signedThrough } : null,
    notes,
    checkedAt: new Date(),
  });
  const problemBreak = (upTo: number): ChainBreak | null => {
    const p = [checkpoints.problem, heads?.problem].filter((x) => x && x.seq <= upTo).sort((a, b) => a!.seq - b!.seq)[0];
    return p ? { seq: p.seq, id: null, reason: p.reason, detail: p.detail } : null;
  };
  for (;;) {
    const batch: AuditRow[] = await db.auditEvent.findMany({ where: prev ? { seq: { gt: prev.seq } } : {}, orderBy: { seq: "asc" }, take: batchSize });
    const last = batch.at(-1);
    if (last) {
      await checkpoints.readThrough(last.seq);
      await heads?.readThrough(last.seq);
    }
    // The earliest of: a row's own break, a row that differs from the exported heads, an untrustworthy
    // checkpoint or heads line (a row's break wins a tie: it is more precise).
    const rowBreak = [findChainBreak(batch, prev, checkpoints.vouched.hashOf), exportedBreak(batch, heads)].filter((b) => b !== null).sort((a, b) => a.seq - b.seq)[0] ?? null;
    const broken = problemBreak(rowBreak ? rowBreak.seq - 1 : (last?.seq ?? 0)) ?? rowBreak;
    if (broken) {
      count += batch.filter((r) => r.seq < broken.seq).length;
      return verdict(broken);
    }
    count += batch.length;
    if (last) {
      prev = { seq: last.seq, hash: last.hash };
      checkpoints.vouched.forgetBelow(last.seq + 1);
      heads?.vouched.forgetBelow(last.seq + 1);
    }
    if (batch.length < batchSize) break;
  }
  const headSeq = prev?.seq ?? 0;
  // Past the newest row only the signatures and how far they reach matter: their hashes are not kept.
  await checkpoints.readThrough(Infinity, false);
  await heads?.readThrough(Infinity, false);
  const vouchedThrough = Math.max(checkpoints.signedThrough, heads?.signedThrough ?? 0);
  if (vouchedThrough > headSeq) {
    const where = (heads?.signedThrough ?? 0) > checkpoints.signedThrough ? `exported to ${heads!.file}` : "vouched for by a signed checkpoint";
    return verdict({ seq: headSeq + 1, id: null, reason: "truncated", detail: `rows ${headSeq + 1}–${vouchedThrough}, ${where}, are gone` });
  }
  const invalid = problemBreak(Infinity);
  if (invalid) return verdict(invalid);
  if (headSeq - checkpoints.signedThrough >= AUDIT_CHECKPOINT_EVERY) {
    const due = checkpoints.signedThrough + AUDIT_CHECKPOINT_EVERY;
    return verdict({ seq: due, id: null, reason: "checkpoint-missing", detail: `row ${due} should be vouched for by a signed checkpoint (one at least every ${AUDIT_CHECKPOINT_EVERY} rows) and is not: checkpoints were removed, or rows were written around the server` });
  }
  if (expectHead) {
    const row = await db.auditEvent.findUnique({ where: { seq: expectHead.seq }, select: { hash: true } });
    if (!row) return verdict({ seq: expectHead.seq, id: null, reason: "truncated", detail: `row ${expectHead.seq}, recorded earlier, is gone` });
    if (row.hash !== expectHead.hash) {
      // A head is one hash: it proves that row or one before it changed, not which (the exported heads list every row's hash).
      return verdict({ seq: expectHead.seq, id: null, reason: "rechained", detail: `row ${expectHead.seq} is not the row recorded earlier: it or a row before it was altered and the rows after re-hashed — check against the exported heads (--head <heads file>) to name the first` });
    }
  }
  return verdict(null);
}
