// Content digests: SHA-256 over RFC 8785 canonical JSON, so equal content has one digest whatever the
// key order, and any change (a weight, a mix share, a tool argument) is a new, detectable identity.
import { sha256Hex } from "@/server/digest";

export { canonicalJson, digestOf, type Digest } from "@/server/digest";

/** A short stable hex id from parts (ids of tasks, tickets, spans): the first `length` hex digits. */
export function hexId(length: number, ...parts: (string | number)[]): string {
  return sha256Hex(parts.join("\u0000")).slice(0, length);
}
