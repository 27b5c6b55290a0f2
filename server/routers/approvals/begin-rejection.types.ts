import { z } from "zod";
import { ZBeginApprovalResponse } from "./begin-approval.types";

export const ZBeginRejectionInput = z.object({
  agent: z.string().min(1).max(200),
  candidateId: z.string().min(1).max(200),
  comment: z.string().trim().min(3, "say why this candidate is rejected").max(2000),
});
/** The payload to sign, like an approval's: WebAuthn options for people, the bytes to sign for release bots. */
export const ZBeginRejectionResponse = ZBeginApprovalResponse;
