// Content digests: SHA-256 over RFC 8785 canonical JSON, so equal content has one digest whatever the
// key order, and any change (a weight, a mix share, a tool argument) is a new, detectable identity.
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

export type Digest = `sha256:${string}`;

export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error("value has no canonical JSON form");
  return text;
}

export function digestOf(value: unknown): Digest {
  return `sha256:${createHash("sha256").update(canonicalJson(value)).digest("hex")}`;
}

/** A short stable hex id from parts (ids of tasks, tickets, spans): the first `length` hex digits. */
export function hexId(length: number, ...parts: (string | number)[]): string {
  return createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, length);
}
