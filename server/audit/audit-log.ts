// The append-only, hash-chained audit log. This module is its only writer, and it exports no way to
// change or remove a row (the database triggers refuse both too). A row is appended *inside* the
// transaction of the change it records, so the change and its record commit or vanish together.
import type { RoleGrant } from "@/lib/auth/scopes";
import { canonicalJson, newId } from "@/server/digest";
import { transactionLocks, type Db, type Tx } from "@/server/db/client";
import { findChainBreak, GENESIS_HASH, hashAuditRow, type AuditRow, type ChainBreak } from "./chain";

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
  return row;
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

export type ChainVerdict = { ok: boolean; rows: number; head: { seq: number; hash: string } | null; firstBreak: ChainBreak | null; checkedAt: Date };

/**
 * Walks the whole chain in seq order, in batches, and reports the first break. A chain cut short at
 * its newest end still links up, so pass a head recorded earlier elsewhere (`expectHead`, as printed
 * by `npm run audit:verify`) to prove that nothing was removed from the end either.
 */
export async function verifyAuditChain(db: Db, opts: { expectHead?: { seq: number; hash: string }; batchSize?: number } = {}): Promise<ChainVerdict> {
  const batchSize = opts.batchSize ?? 1000;
  let prev: { seq: number; hash: string } | null = null;
  let count = 0;
  const verdict = (firstBreak: ChainBreak | null): ChainVerdict => ({ ok: !firstBreak, rows: count, head: firstBreak ? null : prev, firstBreak, checkedAt: new Date() });
  for (;;) {
    const batch: AuditRow[] = await db.auditEvent.findMany({ where: prev ? { seq: { gt: prev.seq } } : {}, orderBy: { seq: "asc" }, take: batchSize });
    const broken = findChainBreak(batch, prev);
    if (broken) {
      count += batch.filter((r) => r.seq < broken.seq).length;
      return verdict(broken);
    }
    count += batch.length;
    const last = batch.at(-1);
    if (last) prev = { seq: last.seq, hash: last.hash };
    if (batch.length < batchSize) break;
  }
  const want = opts.expectHead;
  if (want) {
    const row = await db.auditEvent.findUnique({ where: { seq: want.seq }, select: { hash: true } });
    if (!row || row.hash !== want.hash) {
      return verdict({ seq: want.seq, id: null, reason: "truncated", detail: row ? `row ${want.seq} is not the row recorded earlier` : `row ${want.seq}, recorded earlier, is gone` });
    }
  }
  return verdict(null);
}
