// The server's Ed25519 key that signs DSSE statements (approvals, rollbacks). Kept as PEM files so
// `npm run verify-receipt` can be given the public half; created once when missing.
import fs from "node:fs";
import path from "node:path";
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { keyIdOf } from "@/server/gate/export/dsse";

export type ServerKey = { privateKey: KeyObject; publicKey: KeyObject; keyid: string; publicPem: string };

const DEFAULT_PRIVATE = "data/keys/receipt-ed25519.pem";
let cached: { file: string; key: ServerKey } | null = null;

/** LIGHTGATE_RECEIPT_KEY names the private key file; its public key is written beside it as `.pub.pem`. */
export function serverSigningKey(file = process.env.LIGHTGATE_RECEIPT_KEY ?? DEFAULT_PRIVATE): ServerKey {
  if (cached?.file === file) return cached.key;
  const pubFile = file.replace(/\.pem$/, "") + ".pub.pem";
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    fs.writeFileSync(file, privateKey.export({ format: "pem", type: "pkcs8" }), { mode: 0o600, flag: "wx" });
    fs.writeFileSync(pubFile, publicKey.export({ format: "pem", type: "spki" }));
  }
  const privateKey = createPrivateKey(fs.readFileSync(file, "utf8"));
  const publicKey = createPublicKey(privateKey);
  const publicPem = publicKey.export({ format: "pem", type: "spki" }).toString();
  if (!fs.existsSync(pubFile)) fs.writeFileSync(pubFile, publicPem);
  const key = { privateKey, publicKey, keyid: keyIdOf(publicKey), publicPem };
  cached = { file, key };
  return key;
}
