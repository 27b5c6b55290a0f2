// `npm run audit:verify [-- --head <seq>:<hash>] [--key <public-key.pem>]… [--no-checkpoint]`: walks the audit
// chain of DATABASE_URL and its signed checkpoints, and reports the first break — a row re-hashed behind the
// triggers included, named by its seq. Prints the head to record elsewhere; passing an earlier head back
// proves that nothing was cut from the newest end since. `--key` trusts only the given public key(s) (one
// kept apart, e.g. from /v1/receipts/public-key) instead of the key the database names. When intact, signs a
// checkpoint for the verified head (unless --no-checkpoint). Exit 0 when intact, 1 when broken, 2 on error.
import fs from "node:fs";
import { createPublicKey, type KeyObject } from "node:crypto";
import { checkpointAudit, verifyAuditChain } from "../server/audit/audit-log";
import { openDatabase } from "../server/db/client";
import { redactUrl, resolveDbTarget } from "../server/db/config";

function parseHead(argv: string[]): { seq: number; hash: string } | undefined {
  const i = argv.indexOf("--head");
  if (i < 0) return undefined;
  const m = /^(\d+):([0-9a-f]{64})$/.exec(argv[i + 1] ?? "");
  if (!m) throw new Error("--head takes <seq>:<64 hex hash>, as printed by an earlier run");
  return { seq: Number(m[1]), hash: m[2]! };
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

async function main() {
  const argv = process.argv.slice(2);
  const target = resolveDbTarget(process.env.DATABASE_URL);
  const database = await openDatabase(target);
  try {
    const verdict = await verifyAuditChain(database.db, { expectHead: parseHead(argv), trustedKeys: parseKeys(argv) });
    if (verdict.ok) {
      console.log(`audit chain of ${redactUrl(target)}: intact, ${verdict.rows} rows; signed checkpoints vouch for rows 1–${verdict.signedThrough}`);
      if (verdict.head && !argv.includes("--no-checkpoint")) {
        const cp = await checkpointAudit(database, verdict.head);
        if (cp) console.log(`signed a checkpoint for rows ${cp.fromSeq}–${cp.seq} (key ${cp.keyId})`);
      }
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
