// The audit chain's pure core: what a row's hash covers, and how a sequence of rows is checked.
import { canonicalJson, sha256Hex } from "@/server/digest";

export const GENESIS_HASH = "0".repeat(64);

/** The stored columns of one audit row (text columns hold canonical JSON). */
export type AuditRow = {
  id: string;
  seq: number;
  at: Date;
  actorKind: string;
  actorId: string;
  actorName: string;
  actorRoles: string;
  action: string;
  targetType: string;
  targetId: string;
  before: string | null;
  after: string | null;
  prevHash: string;
  hash: string;
};

/** sha-256 over the canonical JSON of everything the row says, including the previous row's hash. */
export function hashAuditRow(row: Omit<AuditRow, "hash">): string {
  return sha256Hex(
    canonicalJson({
      id: row.id,
      seq: row.seq,
      at: row.at.toISOString(),
      actor: { kind: row.actorKind, id: row.actorId, name: row.actorName, roles: row.actorRoles },
      action: row.action,
      target: { type: row.targetType, id: row.targetId },
      before: row.before,
      after: row.after,
      prevHash: row.prevHash,
    }),
  );
}

export type ChainBreak = {
  seq: number;
  id: string | null;
  reason: "hash-mismatch" | "prev-hash-mismatch" | "missing-row" | "truncated" | "rechained" | "checkpoint-invalid" | "checkpoint-missing";
  detail: string;
};

/**
 * Checks rows given in seq order, continuing from `prev` (the last verified row, or null at the
 * start). Returns the first break, or null. Pure, so the CLI, the page and the tests share it.
 * `vouched(seq)` is the hash a signed checkpoint vouches for (checkpoints.ts): a row edited and the
 * rows after it re-hashed still link up, but no longer match it.
 */
export function findChainBreak(rows: readonly AuditRow[], prev: { seq: number; hash: string } | null, vouched: (seq: number) => string | undefined = () => undefined): ChainBreak | null {
  let expectedSeq = prev ? prev.seq + 1 : 1;
  let expectedPrev = prev ? prev.hash : GENESIS_HASH;
  for (const row of rows) {
    if (row.seq !== expectedSeq) {
      return { seq: expectedSeq, id: null, reason: "missing-row", detail: `row ${expectedSeq} is missing (next row is ${row.seq})` };
    }
    if (row.prevHash !== expectedPrev) {
      return { seq: row.seq, id: row.id, reason: "prev-hash-mismatch", detail: `row ${row.seq} does not follow row ${row.seq - 1}: its prevHash is not that row's hash` };
    }
    if (hashAuditRow(row) !== row.hash) {
      return { seq: row.seq, id: row.id, reason: "hash-mismatch", detail: `row ${row.seq} was altered: its content no longer matches its hash` };
    }
    const signed = vouched(row.seq);
    if (signed !== undefined && signed !== row.hash) {
      return { seq: row.seq, id: row.id, reason: "rechained", detail: `row ${row.seq} was altered and the rows after it re-hashed: its hash is not the one the server's key signed in a checkpoint` };
    }
    expectedSeq = row.seq + 1;
    expectedPrev = row.hash;
  }
  return null;
}
