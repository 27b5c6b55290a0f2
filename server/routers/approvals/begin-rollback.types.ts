import { z } from "zod";
import { ZBeginApprovalResponse } from "./begin-approval.types";

export const ZBeginRollbackInput = z.object({
  agent: z.string().min(1).max(200),
  pointer: z.enum(["approved_default", "canary"]),
  toDigest: z.string().min(1).max(100),
  reason: z.string().trim().min(3, "say why you roll back").max(2000),
});
export const ZBeginRollbackResponse = ZBeginApprovalResponse;
