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
  "last", "recent", "nightly", "trunk", "upstream",
]);

// A version range (`^1.2`, `~1`, `>=2`, `1.x`, `*`, `1 || 2`) names whichever version matches it today.
const RANGE = /[*^~<>|]|^v?\d+(\.\d+)*\.[xX](\.[\dxX]+)*$/;

/**
 * The moving name inside an identifier (`latest`, `model@latest`, `rs-head`, `latestModel`, `^1.2`…), or null
 * when there is none. Words are split at separators and at camelCase humps, so `latestCandidate` is caught.
 */
export function movingNameIn(id: string): string | null {
  if (RANGE.test(id.trim())) return id.trim();
  const words = id.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[\s@:/#._-]+/);
  for (const part of words) if (MOVING_NAMES.has(part)) return part;
  return null;
}
