// RFC 8785 (JCS) canonical JSON and SHA-256: the exact bytes that are hashed, chained and signed.
import { createHash, randomBytes } from "node:crypto";
import canonicalize from "canonicalize";

export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("value has no JSON form (undefined, a function or a symbol)");
  return text;
}

export function sha256(data: string | Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash("sha256").update(data).digest());
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** A random id with a short prefix saying what it names (`usr-…`, `au-…`); 128 bits, base64url. */
export function newId(prefix: string): string {
  return `${prefix}-${randomBytes(16).toString("base64url")}`;
}
