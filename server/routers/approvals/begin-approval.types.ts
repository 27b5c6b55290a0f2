import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { z } from "zod";
import { ZSignedPayload } from "../passkeys/webauthn.types";

export const ZBeginApprovalInput = z.object({
  agent: z.string().min(1).max(200),
  candidateId: z.string().min(1).max(200),
  step: z.enum(["canary", "default"]),
  comment: z.string().max(2000).optional(),
});
export const ZBeginApprovalResponse = z.object({
  payload: ZSignedPayload,
  digest: z.string(),
  /** WebAuthn request options (people); null for release bots, which sign `signingInput` with Ed25519. */
  options: z.custom<PublicKeyCredentialRequestOptionsJSON>().nullable(),
  signingInput: z.string().nullable(),
  data: z.json(),
});
