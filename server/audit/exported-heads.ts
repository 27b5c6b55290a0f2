// Signed heads kept where the database is not: an append-only JSONL file, one line per signed checkpoint
// (seq, the rows' hashes since the previous line, time, signature, key id), copied out of the database on the
// server's timer and at each `npm run audit:verify` (head-export.ts writes it). Whoever rewrites the database
// — even holding the signing key — cannot rewrite what was already copied out, and because each line lists the
// hashes of its rows, the verifier names the FIRST row that differs from it, not just the head.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import type { KeyObject } from "node:crypto";
import { redactUrl, type DbTarget } from "@/server/db/config";
import { dataDirOf } from "@/server/keys/signing-key";
import { checkpointProblem, VouchedHashes, type CheckpointProblem, type CheckpointRow } from "./checkpoints";

export type ExportedHead = Omit<CheckpointRow, "at"> & { v: 1; database: string; at: string; exportedAt: string };

/** Which database a heads file belongs to: its URL without credentials (something the database cannot change). */
export function databaseIdentity(target: DbTarget): string {
  if (target.dialect === "sqlite") return target.url;
  const u = new URL(redactUrl(target));
  u.username = u.password = "";
  u.search = "";
  return u.toString();
}

/** LIGHTGATE_AUDIT_HEADS_FILE, or beside the data: audit-heads.jsonl (SQLite), audit-heads.<database>.jsonl (PostgreSQL). */
export function auditHeadsFile(target: DbTarget, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.LIGHTGATE_AUDIT_HEADS_FILE?.trim();
  if (configured) return path.resolve(configured);
  return path.join(dataDirOf(target, env), target.dialect === "sqlite" ? "audit-heads.jsonl" : `audit-heads.${target.database.replace(/[^\w.-]/g, "_")}.jsonl`);
}

/** One line back as a head, or null when it is not one. */
export function parseHead(line: string): ExportedHead | null {
  let v: Partial<ExportedHead>;
  try {
    v = JSON.parse(line) as Partial<ExportedHead>;
  } catch {
    return null;
  }
  const ints = [v.seq, v.fromSeq].every((n) => Number.isSafeInteger(n) && (n as number) > 0);
  const strings = [v.database, v.hash, v.rowHashes, v.at, v.keyId, v.signature].every((s) => typeof s === "string");
  return v.v === 1 && ints && strings && !Number.isNaN(Date.parse(v.at!)) ? (v as ExportedHead) : null;
}

const asCheckpoint = (h: ExportedHead): CheckpointRow => ({ seq: h.seq, fromSeq: h.fromSeq, hash: h.hash, rowHashes: h.rowHashes, at: new Date(h.at), keyId: h.keyId, signature: h.signature });

/**
 * Cuts a last line left unfinished by a crash mid-append (the file does not end in a newline), so the next
 * export starts on a line of its own. Only the exporter calls it, before appending.
 */
export function dropTornTail(file: string): void {
  let fd: number;
  try {
    fd = fs.openSync(file, "r+");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
    throw e;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const one = Buffer.alloc(1);
    if (size === 0 || (fs.readSync(fd, one, 0, 1, size - 1) === 1 && one[0] === 0x0a)) return;
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - 65_536);
      const chunk = Buffer.alloc(end - start);
      fs.readSync(fd, chunk, 0, chunk.length, start);
      const nl = chunk.lastIndexOf(0x0a);
      if (nl >= 0) return fs.ftruncateSync(fd, start + nl + 1);
      end = start;
    }
    fs.ftruncateSync(fd, 0);
  } finally {
    fs.closeSync(fd);
  }
}

/** The last head in the file (read from its end), or null for a missing or empty file. */
export function lastExportedHead(file: string): ExportedHead | null {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  try {
    const size = fs.fstatSync(fd).size;
    let tail = "";
    for (let end = size; end > 0; ) {
      const start = Math.max(0, end - 65_536);
      const chunk = Buffer.alloc(end - start);
      fs.readSync(fd, chunk, 0, chunk.length, start);
      tail = chunk.toString("utf8") + tail;
      end = start;
      const lines = tail.trimEnd().split("\n");
      if (lines.length > 1 || start === 0) {
        const last = lines.at(-1)!;
        if (!last) return null;
        const head = parseHead(last);
        if (!head) throw new Error(`${file}: its last line is not a signed head`);
        return head;
      }
    }
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Reads an exported heads file alongside the verifier's walk over the rows, checking each line's signature
 * and that the lines follow on from each other (lines a second writer repeated are skipped). Holds only the
 * hashes of rows not yet walked past. `identity` null: the caller vouches for the file (--head <file>).
 */
export class ExportedHeadsReader {
  #lines: AsyncIterator<string>;
  #stream: fs.ReadStream;
  #expectedFrom = 1;
  #exhausted = false;
  readonly vouched = new VouchedHashes();
  #lineNo = 0;
  signedThrough = 0;
  problem: CheckpointProblem | null = null;

  constructor(
    readonly file: string,
    private readonly trusted: readonly KeyObject[],
    private readonly identity: string | null,
  ) {
    this.#stream = fs.createReadStream(file, { encoding: "utf8" });
    this.#lines = readline.createInterface({ input: this.#stream, crlfDelay: Infinity })[Symbol.asyncIterator]();
  }

  async readThrough(seq: number, keepHashes = true): Promise<void> {
    while (!this.#exhausted && !this.problem && this.#expectedFrom <= seq) {
      const next = await this.#lines.next();
      if (next.done) {
        this.#exhausted = true;
        break;
      }
      this.#lineNo++;
      if (!next.value.trim()) continue;
      const fail = (detail: string, at = this.#expectedFrom) => (this.problem = { seq: at, reason: "checkpoint-invalid", detail: `the exported heads in ${this.file} (line ${this.#lineNo}): ${detail}` });
      const head = parseHead(next.value);
      if (!head) return void fail("not a signed head");
      if (this.identity !== null && head.database !== this.identity) return void fail(`exported from ${head.database}, not from this database`);
      const cp = asCheckpoint(head);
      const problem = checkpointProblem(cp, this.trusted, head.seq <= this.signedThrough ? head.fromSeq : this.#expectedFrom);
      if (problem) return void fail(problem.detail, problem.seq);
      if (head.seq <= this.signedThrough) continue; // written twice by two exporters racing: already read
      if (keepHashes) this.vouched.add(cp);
      this.signedThrough = cp.seq;
      this.#expectedFrom = cp.seq + 1;
    }
  }

  close(): void {
    this.#stream.destroy();
  }
}
