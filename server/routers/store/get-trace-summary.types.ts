import { z } from "zod";

export const ZGetTraceSummaryInput = z.object({ rollout_id: z.string().min(1).max(512) }).strict();
export const ZGetTraceSummaryOutput = z.object({
  attempts: z.array(
    z.object({ attemptId: z.string(), spans: z.number().int(), errorSpans: z.number().int(), reward: z.number().nullable(), inputTokens: z.number(), outputTokens: z.number(), costUsd: z.number().nullable() }),
  ),
  pricing: z.enum(["span", "model_server", "none"]),
  complete: z.boolean(),
});
