import { z } from "zod";
import { ZAuthenticationResponse, ZSignedPayload } from "../passkeys/webauthn.types";

export const ZSignatureInput = {
  agent: z.string().min(1).max(200),
  payload: ZSignedPayload,
  /** A person's passkey assertion, or a release bot's Ed25519 signature over the canonical payload. */
  response: ZAuthenticationResponse.optional(),
  bot: z.object({ keyId: z.string().min(1).max(100), signature: z.string().min(1).max(200) }).optional(),
};
export const ZFinishApprovalInput = z.object(ZSignatureInput);
export const ZFinishApprovalResponse = z.object({
  decisionId: z.string(),
  linkDigest: z.string(),
  verdict: z.string(),
  pointer: z.object({ kind: z.string(), from: z.json().nullable(), to: z.json() }),
});
