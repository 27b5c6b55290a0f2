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

// Names that point at whatever is newest (or otherwise move) rather than at one artifact. A parent must be
// an exact artifact: continual learning may have produced several newer resources since a "latest" was read.
const MOVING_NAMES = new Set([
  "latest", "head", "current", "default", "newest", "tip", "main", "master", "stable",
  "production", "prod", "live", "next", "approved", "candidate", "champion",
]);

/** The moving name inside an identifier (`latest`, `model@latest`, `rs-head`…), or null when there is none. */
export function movingNameIn(id: string): string | null {
  for (const part of id.toLowerCase().split(/[\s@:/#._-]+/)) if (MOVING_NAMES.has(part)) return part;
  return null;
}
