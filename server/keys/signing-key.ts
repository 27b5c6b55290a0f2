// The server's Ed25519 key that signs exported receipts, decisions and the audit log's checkpoints. It is kept
// apart from the database it signs: whoever can write the database must not be able to re-sign a forged audit
// tail. LIGHTGATE_RECEIPT_PRIVATE_KEY (PKCS#8 PEM) wins; otherwise an owner-only file beside the data
// (receiptKeyFile), made on first use. Installations from before kept it in SystemSetting: that copy still
// works, with a warning, until `npm run audit:key -- --export` moves it out. The public key is recorded in the
// database so that a process holding a different key (another host's file) refuses to sign rather than split
// the signatures between two keys.
import fs from "node:fs";
import path from "node:path";
import { randomBytes, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { targetOf, type Db, type Tx } from "@/server/db/client";
import { resolveDbTarget, type DbTarget } from "@/server/db/config";
import { keyIdOf } from "@/server/gate/export/dsse";

/** Where installations from before kept the private key (read, and removed by audit:key --export; never written). */
export const DATABASE_KEY_SETTING = "receipt.ed25519.private";
/** The public half, recorded so every process sharing the database signs with the same key. */
const PUBLIC_SETTING = "receipt.ed25519.public";
export const KEY_FILE_NAME = "receipt-signing-key.pem";

export type KeySource = "secret" | "file" | "database";
export type ReceiptKey = { privateKey: KeyObject; publicKey: KeyObject; publicPem: string; keyid: string; source: KeySource; location: string };

/** A key that must not be used: readable by others, or not the key this database is signed with. */
export class ReceiptKeyError extends Error {}

export function fromPem(pem: string, source: KeySource, location: string): ReceiptKey {
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== "ed25519") throw new ReceiptKeyError(`the receipt signing key (${location}) must be Ed25519`);
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(), keyid: keyIdOf(publicKey), source, location };
}

/** The database a client talks to (the process's DATABASE_URL for a client not opened by openDatabase). */
export function targetFor(db: Db | Tx, env: NodeJS.ProcessEnv = process.env): DbTarget {
  return targetOf(db) ?? resolveDbTarget(env.DATABASE_URL);
}

/** Beside the data: the SQLite file's directory; for PostgreSQL, LIGHTGATE_DATA_DIR (default ./data). */
export function dataDirOf(target: DbTarget, env: NodeJS.ProcessEnv = process.env): string {
  if (target.dialect === "sqlite") return path.dirname(target.file);
  return path.resolve(env.LIGHTGATE_DATA_DIR?.trim() || "data");
}

/** LIGHTGATE_RECEIPT_KEY_FILE, or receipt-signing-key.pem beside the data. */
export function receiptKeyFile(target: DbTarget, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.LIGHTGATE_RECEIPT_KEY_FILE?.trim();
  return configured ? path.resolve(configured) : path.join(dataDirOf(target, env), KEY_FILE_NAME);
}

/** The key file's PEM, or null when there is none; refuses a file its owner does not alone control. */
export function readKeyFile(file: string): string | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  if (process.platform !== "win32" && (stat.mode & 0o077) !== 0) {
    throw new ReceiptKeyError(`the receipt signing key ${file} is readable by group or others (mode ${(stat.mode & 0o777).toString(8).padStart(4, "0")}); refusing to use it — only its owner may read it. Run: chmod 600 ${file}`);
  }
  return fs.readFileSync(file, "utf8");
}

/**
 * Writes `pem` to `file` with owner-only permissions unless a file is there already (another process won the
 * race, or the key was made before): written to a private temporary file, then linked into place, which
 * either creates the name or fails — never a half-written key. Returns whether this call created it.
 */
export function writeKeyFileExclusive(file: string, pem: string): boolean {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  fs.writeFileSync(tmp, pem, { mode: 0o600, flag: "wx" });
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** The key if there is one yet — never creates it (verifiers read, they do not write). */
export async function existingReceiptKey(db: Db | Tx, env: NodeJS.ProcessEnv = process.env): Promise<ReceiptKey | null> {
  const configured = env.LIGHTGATE_RECEIPT_PRIVATE_KEY?.trim();
  if (configured) return fromPem(configured.replace(/\\n/g, "\n"), "secret", "LIGHTGATE_RECEIPT_PRIVATE_KEY");
  const file = receiptKeyFile(targetFor(db, env), env);
  const pem = readKeyFile(file);
  if (pem) return fromPem(pem, "file", file);
  const stored = await db.systemSetting.findUnique({ where: { key: DATABASE_KEY_SETTING } });
  return stored ? fromPem(stored.value, "database", `the database (SystemSetting ${DATABASE_KEY_SETTING})`) : null;
}

/** The key, made on first use (in the key file). Also inside a transaction (the audit log signs its checkpoints with it). */
export async function receiptSigningKey(db: Db | Tx, env: NodeJS.ProcessEnv = process.env): Promise<ReceiptKey> {
  const known = await existingReceiptKey(db, env);
  if (known) {
    await requireRegistered(db, known);
    return known;
  }
  const file = receiptKeyFile(targetFor(db, env), env);
  const created = writeKeyFileExclusive(file, generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString());
  const key = fromPem(readKeyFile(file)!, "file", file);
  try {
    await requireRegistered(db, key);
  } catch (e) {
    if (created) fs.rmSync(file, { force: true }); // a key nobody signs with: do not leave it to be found next start
    throw e;
  }
  return key;
}

/** Records the key's public half on first use; refuses a key other than the one recorded. */
export async function requireRegistered(db: Db | Tx, key: ReceiptKey): Promise<void> {
  let recorded = await db.systemSetting.findUnique({ where: { key: PUBLIC_SETTING } });
  if (!recorded) {
    // The no-op update makes Prisma issue INSERT … ON CONFLICT, which does not abort a PostgreSQL transaction.
    await db.systemSetting.upsert({ where: { key: PUBLIC_SETTING }, create: { key: PUBLIC_SETTING, value: key.publicPem }, update: { key: PUBLIC_SETTING } });
    recorded = await db.systemSetting.findUniqueOrThrow({ where: { key: PUBLIC_SETTING } });
  }
  const recordedId = keyIdOf(createPublicKey(recorded.value));
  if (recordedId !== key.keyid) {
    throw new ReceiptKeyError(
      `the receipt signing key (${key.location}, keyid ${key.keyid}) is not the key this database's receipts and audit checkpoints are signed with (keyid ${recordedId}): every process sharing the database must sign with the same key — copy that key's file here (LIGHTGATE_RECEIPT_KEY_FILE) or set LIGHTGATE_RECEIPT_PRIVATE_KEY`,
    );
  }
}

/** What an operator should be told about where the key is (printed at start and by audit:verify / audit:key). */
export async function receiptKeyWarnings(db: Db | Tx, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const key = await existingReceiptKey(db, env);
  if (key?.source === "database") {
    return [
      `the receipt and audit signing key is stored in the database it signs (SystemSetting ${DATABASE_KEY_SETTING}): whoever can write the database can re-sign a forged audit log. Move it out with \`npm run audit:key -- --export\` (to ${receiptKeyFile(targetFor(db, env), env)}), then back that file up`,
    ];
  }
  const stale = key && (await db.systemSetting.findUnique({ where: { key: DATABASE_KEY_SETTING } }));
  if (!key || !stale) return [];
  const same = fromPem(stale.value, "database", "").keyid === key.keyid;
  return [
    same
      ? `the database still holds a copy of the receipt private key (SystemSetting ${DATABASE_KEY_SETTING}), unused: remove it with \`npm run audit:key -- --export\``
      : `the database holds a receipt private key (SystemSetting ${DATABASE_KEY_SETTING}) that is not the key in use (${key.location}); it is ignored — find out who wrote it`,
  ];
}
