import { z } from "zod";

export const ZListPasskeysResponse = z.object({
  passkeys: z.array(z.object({ id: z.string(), name: z.string(), createdAt: z.date(), lastUsedAt: z.date().nullable(), deviceType: z.string(), backedUp: z.boolean() })),
  /** Why passkeys cannot work on this instance's origin (empty when they can). */
  originProblems: z.array(z.string()),
  rpId: z.string(),
});
