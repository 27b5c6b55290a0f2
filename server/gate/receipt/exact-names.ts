// Exact names: a pin names one artifact, never whatever is newest. The one rule for every pin — resources,
// parent, data snapshots, evaluator, registry entries — used by the receipt's schemas, check 1, the pointers
// and the gate API's declaration alike.
import { z } from "zod";

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

/** The sentence a refused moving name gets, wherever it is refused (bounded: the name is the caller's). */
export const movingNameMessage = (moving: string) => `must name one exact artifact, not the moving name "${moving.slice(0, 100)}"`;

/** One exact artifact's name: no moving name anywhere in it (and, given `max`, at most that many characters). */
export const ZExactName = (max?: number) =>
  (max === undefined ? z.string().min(1) : z.string().min(1).max(max)).superRefine((id, ctx) => {
      const moving = movingNameIn(id);
    if (moving) ctx.addIssue({ code: "custom", message: movingNameMessage(moving) });
  });
