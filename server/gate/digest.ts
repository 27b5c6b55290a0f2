// The receipt's identifiers as zod schemas and types. The digests themselves (RFC 8785 canonical JSON,
// SHA-256) are computed in one place only: server/digest.ts.
import { z } from "zod";

export const ZDigest = z.string().regex(/^sha256:[0-9a-f]{64}$/, "must be a sha256 digest: sha256:<64 lowercase hex>");
export type Digest = z.infer<typeof ZDigest>;

export const ZJson = z.json();
export type JsonValue = z.infer<typeof ZJson>;
export type JsonObject = { [key: string]: JsonValue };

/** The hex part, as in-toto subjects want it (`{ sha256: hex }`). */
export function digestHex(digest: Digest): string {
  return digest.slice("sha256:".length);
}
