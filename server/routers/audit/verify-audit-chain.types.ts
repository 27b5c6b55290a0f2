import { z } from "zod";

export const ZVerifyAuditChainResponse = z.object({
  ok: z.boolean(),
  rows: z.number(),
  head: z.object({ seq: z.number(), hash: z.string() }).nullable(),
  firstBreak: z.object({ seq: z.number(), id: z.string().nullable(), reason: z.string(), detail: z.string() }).nullable(),
  /** the newest row a valid signed checkpoint vouches for (0: none) */
  signedThrough: z.number(),
  checkedAt: z.date(),
});
