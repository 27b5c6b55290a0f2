// `npm run audit:key [-- --export | --public]`: where the server's receipt/audit signing key lives (a
// configured secret, an owner-only file beside the data, or — installations from before — the database it
// signs), with its key id. `--public` prints the public key alone (keep a copy apart and pass it to
// `audit:verify --key`). `--export` moves a key kept in the database out: it writes the key file (0600),
// reads it back, checks it is the same key, records its public half, and only then removes the database's
// copy. Old signatures stay valid — it is the same key. Exit 0 when done, 1 when refused, 2 on error.
import { openDatabase, type Database } from "../server/db/client";
import { resolveDbTarget } from "../server/db/config";
import {
  DATABASE_KEY_SETTING,
  existingReceiptKey,
  fromPem,
  readKeyFile,
  receiptKeyFile,
  receiptKeyWarnings,
  requireRegistered,
  writeKeyFileExclusive,
} from "../server/keys/signing-key";

async function exportKey(database: Database): Promise<number> {
  const db = database.db;
  const stored = await db.systemSetting.findUnique({ where: { key: DATABASE_KEY_SETTING } });
  const inUse = await existingReceiptKey(db);
  if (!stored) {
    console.log(inUse ? `nothing to move: the key is in ${inUse.location} and the database holds no copy` : "nothing to move: there is no key yet (one is made, outside the database, on first use)");
    return 0;
  }
  const dbKey = fromPem(stored.value, "database", "the database");
  const file = receiptKeyFile(database.target);
  if (inUse && inUse.source !== "database" && inUse.keyid !== dbKey.keyid) {
    console.error(`refused: the database holds key ${dbKey.keyid} but ${inUse.location} holds ${inUse.keyid}; not removing either — find out which one signed this database's receipts (npm run audit:verify) before going on`);
    return 1;
  }
  if (!inUse || inUse.source === "database") {
    const created = writeKeyFileExclusive(file, stored.value);
    const back = readKeyFile(file);
    if (!back || fromPem(back, "file", file).keyid !== dbKey.keyid) {
      console.error(`refused: ${file} ${created ? "did not read back as" : "already exists and is not"} the key in the database (${dbKey.keyid}); the database's copy is kept`);
      return 1;
    }
    console.log(`wrote the key (${dbKey.keyid}) to ${file} (owner-only)`);
  }
  await requireRegistered(db, dbKey);
  await db.systemSetting.delete({ where: { key: DATABASE_KEY_SETTING } });
  console.log(`removed the database's copy: the database no longer holds a key that can sign.`);
  console.log(`back it up: ${inUse?.source === "secret" ? "LIGHTGATE_RECEIPT_PRIVATE_KEY" : file} is now the only copy of the private key. Every process sharing this database needs it (the same file, LIGHTGATE_RECEIPT_KEY_FILE, or LIGHTGATE_RECEIPT_PRIVATE_KEY).`);
  return 0;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const database = await openDatabase(resolveDbTarget(process.env.DATABASE_URL));
  try {
    if (argv.includes("--export")) return await exportKey(database);
    const key = await existingReceiptKey(database.db);
    if (argv.includes("--public")) {
      if (!key) throw new Error("there is no key yet");
      process.stdout.write(key.publicPem);
      return 0;
    }
    console.log(key ? `receipt/audit signing key ${key.keyid}: ${key.location}` : `no receipt/audit signing key yet; the first signature makes one in ${receiptKeyFile(database.target)}`);
    for (const w of await receiptKeyWarnings(database.db)) console.warn(`audit:key: warning: ${w}`);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`audit:key: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  },
);
