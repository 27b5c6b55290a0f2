// The JSON shapes browsers send back from navigator.credentials (as @simplewebauthn/browser returns them).
import type { AuthenticationExtensionsClientOutputs } from "@simplewebauthn/server";
import { z } from "zod";

const b64url = z.string().regex(/^[A-Za-z0-9_-]*$/, "must be base64url").max(16_384);
const common = {
  id: b64url.min(1),
  rawId: b64url.min(1),
  type: z.literal("public-key"),
  clientExtensionResults: z.custom<AuthenticationExtensionsClientOutputs>((v) => typeof v === "object" && v !== null && !Array.isArray(v), "must be an object"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

export const ZRegistrationResponse = z.object({
  ...common,
  response: z.object({
    clientDataJSON: b64url,
    attestationObject: b64url,
    transports: z.array(z.string().max(20)).max(10).optional(),
    authenticatorData: b64url.optional(),
    publicKey: b64url.optional(),
    publicKeyAlgorithm: z.number().optional(),
  }),
});

export const ZAuthenticationResponse = z.object({
  ...common,
  response: z.object({ clientDataJSON: b64url, authenticatorData: b64url, signature: b64url, userHandle: b64url.optional() }),
});

export const ZSignedPayload = z.object({
  v: z.literal(1),
  purpose: z.string().min(1).max(100),
  data: z.json(),
  nonce: z.string().min(1).max(100),
  issuedAt: z.string(),
  expiresAt: z.string(),
  signer: z.object({ kind: z.enum(["user", "service"]), id: z.string(), name: z.string() }),
});
