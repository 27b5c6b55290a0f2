import { z } from "zod";
import { MAX_NOTE, MAX_VERIFICATION_TEXT } from "@/server/gate-api/verifications.schema";

export const ZRecordHumanVerificationInput = z
  .object({
    /** The agent whose canary this is (the scope is checked for it). */
    agent: z.string().min(1).max(200),
    rolloutId: z.string().min(1).max(256),
    matched: z.boolean(),
    confidence: z.number().min(0).max(1),
    observed: z.string().max(MAX_VERIFICATION_TEXT).optional(),
    note: z.string().max(MAX_NOTE).optional(),
  })
  .strict();
export const ZRecordHumanVerificationOutput = z.object({ verificationId: z.string(), gateRunId: z.string() });
