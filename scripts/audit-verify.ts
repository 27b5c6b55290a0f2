// `npm run audit:verify [-- --head <seq>:<hash>]`: walks the audit chain of DATABASE_URL and reports the
// first break. Prints the head to record elsewhere; passing an earlier head back proves that nothing
// was cut from the newest end since. Exit 0 when intact, 1 when broken, 2 on error.
import { verifyAuditChain } from "../server/audit/audit-log";
import { openDatabase } from "../server/db/client";
import { redactUrl, resolveDbTarget } from "../server/db/config";

function parseHead(argv: string[]): { seq: number; hash: string } | undefined {
  const i = argv.indexOf("--head");
  if (i < 0) return undefined;
  const m = /^(\d+):([0-9a-f]{64})$/.exec(argv[i + 1] ?? "");
  if (!m) throw new Error("--head takes <seq>:<64 hex hash>, as printed by an earlier run");
  return { seq: Number(m[1]), hash: m[2]! };
}

async function main() {
  const target = resolveDbTarget(process.env.DATABASE_URL);
  const database = await openDatabase(target);
  try {
    const verdict = await verifyAuditChain(database.db, { expectHead: parseHead(process.argv.slice(2)) });
    if (verdict.ok) {
      console.log(`audit chain of ${redactUrl(target)}: intact, ${verdict.rows} rows`);
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
