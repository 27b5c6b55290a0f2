import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { z } from "zod";
import { ZSignedPayload } from "./webauthn.types";

export const ZBeginTestSignatureResponse = z.object({
  payload: ZSignedPayload,
  digest: z.string(),
  options: z.custom<PublicKeyCredentialRequestOptionsJSON>(),
});
