// `npm run audit:verify [-- --head <seq>:<hash> | --head <heads file>] [--key <public-key.pem>]… [--no-checkpoint]`:
// walks the audit chain of DATABASE_URL, its signed checkpoints and the signed heads exported out of the
// database (the heads file beside the data, when present), and reports the first break — a row re-hashed
// behind the triggers included, named by its seq, also when the tail was re-signed with the server's own key.
// Prints the head to record elsewhere; passing an earlier head back proves that nothing was cut from the
// newest end since, and passing a heads file (a copy kept elsewhere) checks every row it lists. `--key` trusts
// only the given public key(s) (one kept apart, e.g. from /v1/receipts/public-key) instead of the server's.
// When intact, signs a checkpoint for the verified head and exports the new heads (unless --no-checkpoint).
// Exit 0 when intact, 1 when broken, 2 on error.
import fs from "node:fs";
import { createPublicKey, type KeyObject } from "node:crypto";
import { checkpointAudit, verifyAuditChain } from "../server/audit/audit-log";
import { exportAuditHeads } from "../server/audit/head-export";
import { openDatabase, type Database } from "../server/db/client";
import { redactUrl, resolveDbTarget } from "../server/db/config";
import { existingReceiptKey, receiptKeyFile, receiptKeyWarnings } from "../server/keys/signing-key";

function parseHead(argv: string[]): { expectHead?: { seq: number; hash: string }; headsFile?: string } {
  const i = argv.indexOf("--head");
  if (i < 0) return {};
  const value = argv[i + 1] ?? "";
  const m = /^(\d+):([0-9a-f]{64})$/.exec(value);
  if (m) return { expectHead: { seq: Number(m[1]), hash: m[2]! } };
  if (value && fs.existsSync(value)) return { headsFile: value };
  throw new Error("--head takes <seq>:<64 hex hash>, as printed by an earlier run, or an exported heads file");
}

function parseKeys(argv: string[]): KeyObject[] | undefined {
  const files = argv.flatMap((a, i) => (a === "--key" ? [argv[i + 1] ?? ""] : []));
  if (!files.length) return undefined;
  return files.map((file) => {
    const key = createPublicKey(fs.readFileSync(file, "utf8"));
    if (key.asymmetricKeyType !== "ed25519") throw new Error(`--key ${file}: not an Ed25519 public key`);
    return key;
  });
}

/**
 * Signs a checkpoint for the verified head and copies the new heads out of the database. Only where the
 * server's key is (a verifier elsewhere, with --key, verifies without signing); a failure here does not
 * change the verdict, it is a warning.
 */
async function signAndExport(database: Database, head: { seq: number; hash: string }): Promise<void> {
  if (!(await existingReceiptKey(database.db))) {
    console.warn(`audit:verify: note: no signing key here (${receiptKeyFile(database.target)}): not signing a checkpoint nor exporting heads`);
    return;
  }
  try {
    const cp = await checkpointAudit(database, head);
    if (cp) console.log(`signed a checkpoint for rows ${cp.fromSeq}–${cp.seq} (key ${cp.keyId})`);
    const out = await exportAuditHeads(database);
    console.log(`exported signed heads through row ${out.through} to ${out.file}${out.exported ? ` (${out.exported} new)` : ""}`);
  } catch (e) {
    console.warn(`audit:verify: warning: could not sign or export the signed heads: ${(e as Error).message}`);
  }
}

async function main() {
  const argv = process.argv.slice(2);
  const target = resolveDbTarget(process.env.DATABASE_URL);
  const database = await openDatabase(target);
  try {
    for (const w of await receiptKeyWarnings(database.db)) console.warn(`audit:verify: warning: ${w}`);
    const verdict = await verifyAuditChain(database.db, { ...parseHead(argv), trustedKeys: parseKeys(argv) });
    for (const note of verdict.notes) console.warn(`audit:verify: note: ${note}`);
    const exported = verdict.exported ? `; the heads exported to ${verdict.exported.file} vouch for rows 1–${verdict.exported.signedThrough}` : "";
    if (verdict.ok) {
      console.log(`audit chain of ${redactUrl(target)}: intact, ${verdict.rows} rows; signed checkpoints vouch for rows 1–${verdict.signedThrough}${exported}`);
      if (verdict.head && !argv.includes("--no-checkpoint")) await signAndExport(database, verdict.head);
      if (verdict.head) console.log(`head ${verdict.head.seq}:${verdict.head.hash}  (keep this; pass it as --head next time)`);
      return 0;
    }
    const b = verdict.firstBreak!;
    console.error(`audit chain of ${redactUrl(target)}: BROKEN at row ${b.seq} (${b.reason}): ${b.detail}`);
    console.error(`${verdict.rows} rows before it verify.`);
    return 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`audit:verify: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  },
);
