import { z } from "zod";
import { int32 } from "@/lib/validation/integers";

export const ZListAuditInput = z.object({
  cursor: int32(1).nullish(),
  limit: z.number().int().min(1).max(200).default(50),
  targetType: z.string().max(50).optional(),
  targetId: z.string().max(200).optional(),
});
export const ZAuditRow = z.object({
  id: z.string(),
  seq: z.number(),
  at: z.date(),
  actorKind: z.string(),
  actorId: z.string(),
  actorName: z.string(),
  actorRoles: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  prevHash: z.string(),
  hash: z.string(),
});
export const ZListAuditResponse = z.object({ rows: z.array(ZAuditRow), nextCursor: z.number().nullable(), total: z.number() });
