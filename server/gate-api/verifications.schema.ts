// The body of `POST /v1/gate/verifications`: how one canary outcome was verified. A destination re-read
// states what it found; a judge or a human also states how sure it is (confidence in [0, 1]).
import { z } from "zod";

export const VERIFICATION_METHODS = ["destination", "judge", "human"] as const;
export const MAX_VERIFICATION_TEXT = 65_536;
export const MAX_NOTE = 4_096;

// A verifier may send what it expected/observed as text or as JSON (kept as canonical JSON text).
const ZEvidence = z.unknown();

export const ZRecordVerification = z
  .strictObject({
    rollout_id: z.string().min(1).max(256),
    method: z.enum(VERIFICATION_METHODS),
    matched: z.boolean(),
    confidence: z.number().min(0).max(1).optional(),
    expected: ZEvidence.optional(),
    observed: ZEvidence.optional(),
    note: z.string().max(MAX_NOTE).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.method === "destination" && v.confidence !== undefined) ctx.addIssue({ code: "custom", path: ["confidence"], message: "is for judge and human verifications; a destination re-read is certain" });
    if (v.method !== "destination" && v.confidence === undefined) ctx.addIssue({ code: "custom", path: ["confidence"], message: `is required for a ${v.method} verification (a number from 0 to 1)` });
  });
export type RecordVerificationBody = z.infer<typeof ZRecordVerification>;
