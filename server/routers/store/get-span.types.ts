import { z } from "zod";

export const ZGetSpanInput = z.object({ rollout_id: z.string().min(1).max(512), attempt_id: z.string().min(1).max(512), span_id: z.string().min(1).max(512) });
