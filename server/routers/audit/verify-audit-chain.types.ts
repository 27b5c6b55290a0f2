import { z } from "zod";

export const ZVerifyAuditChainResponse = z.object({
  ok: z.boolean(),
  rows: z.number(),
  head: z.object({ seq: z.number(), hash: z.string() }).nullable(),
  firstBreak: z.object({ seq: z.number(), id: z.string().nullable(), reason: z.string(), detail: z.string() }).nullable(),
  checkedAt: z.date(),
});
