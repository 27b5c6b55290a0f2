// Signed checkpoints anchor the audit chain to the server's key. The chain's hashes are unkeyed: whoever
// can write behind the triggers can edit a row and re-hash every row after it, and the chain still links
// up. So every AUDIT_CHECKPOINT_EVERY rows (inside the transaction that appends the row) and on each
// `npm run audit:verify`, the server's Ed25519 receipt key signs the hashes of the rows since the previous
// checkpoint. A re-hashed row then differs from the hash a signature vouches for, and the verifier names
// the first such row. Ed25519 rather than an HMAC: anyone holding the public key (GET
// /v1/receipts/public-key, or a copy kept apart) can check, without being able to sign; and the private key
// lives outside the database (server/keys/signing-key.ts), so the database holds nothing that could re-sign
// a forged tail. Checkpoints are also copied out of the database (exported-heads.ts) for installations whose
// key was, or is, kept in it.
import { sign, verify, type KeyObject } from "node:crypto";
import { canonicalJson } from "@/server/digest";
import type { Db, Tx } from "@/server/db/client";
import { existingReceiptKey, receiptSigningKey } from "@/server/keys/signing-key";

/** A checkpoint at least every this many rows, so at most this many minus one newest rows are unvouched. */
export const AUDIT_CHECKPOINT_EVERY = 16;
const PURPOSE = "lightgate.audit-checkpoint.v1";

export type CheckpointRow = { seq: number; fromSeq: number; hash: string; rowHashes: string; at: Date; keyId: string; signature: string };

/** The bytes signed: everything the checkpoint says, as RFC 8785 canonical JSON. */
function signedBytes(c: { seq: number; fromSeq: number; hash: string; rowHashes: string; at: Date }): Buffer {
  return Buffer.from(canonicalJson({ purpose: PURPOSE, seq: c.seq, fromSeq: c.fromSeq, hash: c.hash, rowHashes: c.rowHashes, at: c.at.toISOString() }), "utf8");
}

/**
 * Writes the checkpoint for rows after the newest one up to `head`, inside the caller's transaction (which
 * holds the audit lock, so no row can be appended meanwhile). Returns null when `head` is already vouched for.
 */
export async function writeCheckpointIn(tx: Tx, head: { seq: number; hash: string }): Promise<CheckpointRow | null> {
  const last = await tx.auditCheckpoint.findFirst({ orderBy: { seq: "desc" }, select: { seq: true } });
  const fromSeq = (last?.seq ?? 0) + 1;
  if (head.seq < fromSeq) return null;
  const rows = await tx.auditEvent.findMany({ where: { seq: { gte: fromSeq, lte: head.seq } }, orderBy: { seq: "asc" }, select: { seq: true, hash: true } });
  if (rows.length !== head.seq - fromSeq + 1 || rows.at(-1)!.hash !== head.hash) throw new Error(`audit: rows ${fromSeq}–${head.seq} are not a contiguous chain ending in the head; not signing them`);
  const key = await receiptSigningKey(tx);
  const content = { seq: head.seq, fromSeq, hash: head.hash, rowHashes: JSON.stringify(rows.map((r) => r.hash)), at: new Date() };
  const row: CheckpointRow = { ...content, keyId: key.keyid, signature: sign(null, signedBytes(content), key.privateKey).toString("base64url") };
  await tx.auditCheckpoint.create({ data: row });
  return row;
}

/** Called by appendAudit for each new row: signs when the newest checkpoint is AUDIT_CHECKPOINT_EVERY rows behind. */
export async function checkpointIfDue(tx: Tx, row: { seq: number; hash: string }): Promise<void> {
  const last = await tx.auditCheckpoint.findFirst({ orderBy: { seq: "desc" }, select: { seq: true } });
  if (row.seq - (last?.seq ?? 0) >= AUDIT_CHECKPOINT_EVERY) await writeCheckpointIn(tx, row);
}

/** The keys a checkpoint may be signed with: the server's receipt key (read, never created here; a key file others can read throws). */
export async function serverCheckpointKeys(db: Db): Promise<KeyObject[]> {
  const key = await existingReceiptKey(db);
  return key ? [key.publicKey] : [];
}

export type CheckpointProblem = { seq: number; reason: "checkpoint-missing" | "checkpoint-invalid"; detail: string };

/** Why `cp` cannot be trusted (null: it can) — checked against the keys trusted and the window it must start at. */
export function checkpointProblem(cp: CheckpointRow, trusted: readonly KeyObject[], expectedFrom: number): CheckpointProblem | null {
  if (cp.fromSeq > expectedFrom) return { seq: expectedFrom, reason: "checkpoint-missing", detail: `the signed checkpoints skip rows ${expectedFrom}–${cp.fromSeq - 1}: a checkpoint was removed` };
  const invalid = (detail: string): CheckpointProblem => ({ seq: cp.seq, reason: "checkpoint-invalid", detail });
  if (cp.fromSeq < expectedFrom) return invalid(`the checkpoint for rows ${cp.fromSeq}–${cp.seq} overlaps the one before it`);
  let hashes: unknown;
  try {
    hashes = JSON.parse(cp.rowHashes);
  } catch {
    hashes = null;
  }
  if (!Array.isArray(hashes) || hashes.length !== cp.seq - cp.fromSeq + 1 || hashes.at(-1) !== cp.hash) return invalid(`the checkpoint for rows ${cp.fromSeq}–${cp.seq} is malformed`);
  let signature: Buffer;
  try {
    signature = Buffer.from(cp.signature, "base64url");
  } catch {
    signature = Buffer.alloc(0);
  }
  const bytes = signedBytes(cp);
  const signed = signature.length === 64 && trusted.some((k) => verify(null, bytes, k, signature));
  if (!signed) {
    return invalid(
      trusted.length
        ? `the checkpoint for rows ${cp.fromSeq}–${cp.seq} is not signed by the server's key (keyid ${cp.keyId}): forged, or signed by a key not trusted here`
        : `the checkpoint for rows ${cp.fromSeq}–${cp.seq} cannot be checked: there is no server key to check it with`,
    );
  }
  return null;
}

/**
 * The row hashes that trusted checkpoints (or exported heads) vouch for, of the rows the verifier has not yet
 * walked past: memory stays bounded by a batch.
 */
export class VouchedHashes {
  #bySeq = new Map<number, string>();

  /** Adds the hashes `cp` vouches for (call only after checkpointProblem returned null). */
  add(cp: CheckpointRow): void {
    (JSON.parse(cp.rowHashes) as string[]).forEach((h, i) => this.#bySeq.set(cp.fromSeq + i, h));
  }

  hashOf = (seq: number): string | undefined => this.#bySeq.get(seq);

  /** Drops the hashes of rows below `seq` (already walked past). */
  forgetBelow(seq: number): void {
    for (const s of this.#bySeq.keys()) if (s < seq) this.#bySeq.delete(s);
  }
}

/**
 * Reads the checkpoints in seq order alongside the verifier's walk over the rows, checking each once.
 * Holds only the hashes of the windows not yet walked past, so memory stays bounded by the batch.
 */
export class CheckpointReader {
  #expectedFrom = 1;
  #exhausted = false;
  readonly vouched = new VouchedHashes();
  /** The newest row a valid checkpoint vouches for (0: none yet). */
  signedThrough = 0;
  /** The first checkpoint that cannot be trusted; nothing at or after it is vouched for. */
  problem: CheckpointProblem | null = null;

  constructor(
    private readonly db: Db,
    private readonly trusted: readonly KeyObject[],
    private readonly batchSize = 100,
  ) {}

  /** Reads every checkpoint whose window starts at or before `seq` (all of them for Infinity); `keepHashes` false: past the rows, only their signatures matter. */
  async readThrough(seq: number, keepHashes = true): Promise<void> {
    while (!this.#exhausted && !this.problem && this.#expectedFrom <= seq) {
      const batch: CheckpointRow[] = await this.db.auditCheckpoint.findMany({ where: { seq: { gte: this.#expectedFrom } }, orderBy: { seq: "asc" }, take: this.batchSize });
      if (batch.length < this.batchSize) this.#exhausted = true;
      for (const cp of batch) {
        this.problem = checkpointProblem(cp, this.trusted, this.#expectedFrom);
        if (this.problem) return;
        if (keepHashes) this.vouched.add(cp);
        this.signedThrough = cp.seq;
        this.#expectedFrom = cp.seq + 1;
      }
    }
  }
}
