// npm run verify-receipt -- FILE [--key PUBKEY.pem]
// Verifies an exported Lightgate receipt — or a signed decision (approval, rollback) — offline (no server,
// no database) and prints each thing it checked.
import fs from "node:fs";
import { createPublicKey } from "node:crypto";
import { verifyReceipt } from "@/server/gate/export/verify-receipt";
import { isDecisionEnvelope, verifyDecisionStatement } from "@/server/approvals/statement";
import { verifyStoredSignature } from "@/server/auth/verify-offline";

const DEFAULT_PUBLIC_KEY = process.env.LIGHTGATE_RECEIPT_PUBLIC_KEY ?? "data/keys/receipt-ed25519.pub.pem";

function usage(message: string): never {
  console.error(`${message}\nusage: npm run verify-receipt -- FILE [--key PUBKEY.pem]   (default key: ${DEFAULT_PUBLIC_KEY})`);
  process.exit(2);
}

const args = process.argv.slice(2);
const files: string[] = [];
let keyPath = DEFAULT_PUBLIC_KEY;
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (arg === "--key") keyPath = args[++i] ?? usage("--key needs a path");
  else if (arg.startsWith("--")) usage(`unknown option ${arg}`);
  else files.push(arg);
}
const file = files.length === 1 ? files[0]! : usage("give exactly one receipt file");

let envelope: unknown;
try {
  envelope = JSON.parse(fs.readFileSync(file, "utf8"));
} catch (e) {
  usage(`cannot read ${file} as JSON: ${(e as Error).message}`);
}
let key;
try {
  key = createPublicKey(fs.readFileSync(keyPath, "utf8"));
} catch (e) {
  usage(`cannot read the public key ${keyPath}: ${(e as Error).message}`);
}

if (isDecisionEnvelope(envelope)) {
  const decision = await verifyDecisionStatement(envelope, [key]);
  console.log(`signed decision ${file}, key ${keyPath} (${key.asymmetricKeyType})`);
  for (const c of decision.checks) console.log(`  ${c.ok ? "✓" : "✗"} ${c.name}: ${c.detail}`);
  console.log(decision.ok ? "VERIFIED" : "NOT VERIFIED");
  process.exit(decision.ok ? 0 : 1);
}

const result = await verifyReceipt(envelope, [key], verifyStoredSignature);
console.log(`receipt ${file}, key ${keyPath} (${key.asymmetricKeyType})`);
for (const c of result.checks) console.log(`  ${c.ok ? "✓" : "✗"} ${c.name}: ${c.detail}`);
if (result.statement) {
  const { gate, agent } = result.statement.predicate;
  console.log(`  agent ${agent}; gate evaluated ${gate.evaluatedAt}: ${gate.verdict}`);
}
console.log(result.ok ? "VERIFIED" : "NOT VERIFIED");
process.exit(result.ok ? 0 : 1);
