import { z } from "zod";
import { ZAuthenticationResponse, ZSignedPayload } from "./webauthn.types";

export const ZFinishTestSignatureInput = z.object({ payload: ZSignedPayload, response: ZAuthenticationResponse });
export const ZFinishTestSignatureResponse = z.object({
  passkeyName: z.string(),
  digest: z.string(),
  counter: z.number(),
  verifiedOnline: z.literal(true),
  verifiedOffline: z.boolean(),
});
