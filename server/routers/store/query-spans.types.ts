import { z } from "zod";

export const ZQuerySpansInput = z.object({
  rollout_id: z.string().min(1).max(512),
  attempt_id: z.string().max(512).optional(),
  name_contains: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(2000).default(500),
  offset: z.number().int().min(0).default(0),
});
