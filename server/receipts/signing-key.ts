// The server's Ed25519 key that signs exported receipts. LIGHTGATE_RECEIPT_PRIVATE_KEY (PKCS#8 PEM) wins;
// otherwise a key is made on first use and kept in SystemSetting, so every process sharing the database signs
// with the same key and the public-key route always names it.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import type { Db, Tx } from "@/server/db/client";
import { keyIdOf } from "@/server/gate/export/dsse";

const SETTING = "receipt.ed25519.private";

export type ReceiptKey = { privateKey: KeyObject; publicKey: KeyObject; publicPem: string; keyid: string };

function fromPem(pem: string): ReceiptKey {
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("the receipt signing key must be Ed25519");
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(), keyid: keyIdOf(publicKey) };
}

/** The key, made on first use. Also inside a transaction (the audit log signs its checkpoints with it). */
export async function receiptSigningKey(db: Db | Tx, env: NodeJS.ProcessEnv = process.env): Promise<ReceiptKey> {
  const known = await existingReceiptKey(db, env);
  if (known) return known;
  const { privateKey } = generateKeyPairSync("ed25519");
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  // Two processes may race: the loser's upsert changes nothing and both read the winner's key. Prisma makes
  // it a native INSERT … ON CONFLICT (which does not abort a PostgreSQL transaction, as a failed insert
  // would) only when `update` is not empty, hence the no-op `key: SETTING`.
  await db.systemSetting.upsert({ where: { key: SETTING }, create: { key: SETTING, value: pem }, update: { key: SETTING } });
  return fromPem((await db.systemSetting.findUniqueOrThrow({ where: { key: SETTING } })).value);
}

/** The key if there is one yet — never creates it (verifiers read, they do not write). */
export async function existingReceiptKey(db: Db | Tx, env: NodeJS.ProcessEnv = process.env): Promise<ReceiptKey | null> {
  const configured = env.LIGHTGATE_RECEIPT_PRIVATE_KEY?.trim();
  if (configured) return fromPem(configured.replace(/\\n/g, "\n"));
  const existing = await db.systemSetting.findUnique({ where: { key: SETTING } });
  return existing ? fromPem(existing.value) : null;
}
