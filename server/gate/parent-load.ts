// Whether the exact parent's resource loads right now: the database edge reads the pinned version and re-hashes
// its stored bytes (server/candidates/loadable.ts); the pure core only reads this answer. A parent that cannot be
// loaded fails check 1 and is never a rollback target (release-gate spec: "The exact parent must stay loadable").
import { z } from "zod";
import { ZDigest } from "./digest";

export const ZParentLoad = z.discriminatedUnion("loadable", [
  z.object({ loadable: z.literal(true), digest: ZDigest }),
  z.object({ loadable: z.literal(false), reason: z.string().min(1) }),
]);
export type ParentLoad = z.infer<typeof ZParentLoad>;
