import { z } from "zod";

export const ZRejectCandidateInput = z.object({
  agent: z.string().min(1).max(200),
  candidateId: z.string().min(1).max(200),
  comment: z.string().trim().min(3, "say why this candidate is rejected").max(2000),
});
export const ZRejectCandidateResponse = z.object({ decisionId: z.string(), linkDigest: z.string(), step: z.enum(["canary", "default"]) });
