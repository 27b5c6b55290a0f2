import { z } from "zod";

export const ZQuerySpanOutlineInput = z.object({
  rollout_id: z.string().min(1).max(512),
  attempt_id: z.string().max(512).optional(),
  limit: z.number().int().min(1).max(5000).default(2000),
  offset: z.number().int().min(0).default(0),
});
