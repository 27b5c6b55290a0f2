// The one place Lightgate turns values into bytes to hash, chain or sign: RFC 8785 (JCS) canonical JSON,
// so equal content has one digest whatever its key order, and SHA-256 over it.
import { createHash, randomBytes } from "node:crypto";
import canonicalize from "canonicalize";

export type Digest = `sha256:${string}`;

export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("value has no JSON form (undefined, a function or a symbol)");
  return text;
}

export function sha256Bytes(data: string | Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash("sha256").update(data).digest());
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** `sha256:<hex>` over raw bytes. */
export function sha256Digest(data: string | Uint8Array): Digest {
  return `sha256:${sha256Hex(data)}`;
}

/** `sha256:<hex>` over the canonical JSON of a value. */
export function digestOf(value: unknown): Digest {
  return sha256Digest(canonicalJson(value));
}

/** A short stable hex id from parts (ids of tasks, tickets, spans): the first `length` hex digits. */
export function hexId(length: number, ...parts: (string | number)[]): string {
  return sha256Hex(parts.join("\u0000")).slice(0, length);
}

/** A random id with a short prefix saying what it names (`usr-…`, `au-…`); 128 bits, base64url. */
export function newId(prefix: string): string {
  return `${prefix}-${randomBytes(16).toString("base64url")}`;
}
